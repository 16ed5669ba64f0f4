/**
 * Where a Bedrock request goes and how it is authorised (pi-ai 0.87.1's rules, see `bedrock.ts`):
 * - a bearer token (`bearerToken` option, the API key, `AWS_BEARER_TOKEN_BEDROCK`) is sent as is;
 * - `AWS_BEDROCK_SKIP_AUTH=1` signs with dummy keys (for proxies that authenticate on their own);
 * - otherwise SigV4 with the environment keys (unless a profile is named explicitly), else the AWS credential
 *   chain (`aws/credential-chain.ts`).
 * Variables are read from the options' `env` first, then the process environment.
 */
import { profileRegion, resolveAwsCredentials } from "../aws/credential-chain.ts";
import { awsCredentialsFromEnv, type EnvLookup } from "../aws/credentials.ts";
import type { AwsCredentials } from "../aws/sigv4.ts";
import type { Model } from "../types.ts";
import { type BedrockOptions, configuredRegion, envValue } from "./bedrock-request.ts";

/** What an API key of "<authenticated>" means: ambient credentials, no key (pi's marker for cloud providers). */
export const AMBIENT_CREDENTIALS_MARKER = "<authenticated>";

export interface BedrockAuth {
	endpoint: string;
	region: string;
	credentials?: AwsCredentials;
	bearerToken?: string;
}

const STANDARD_ENDPOINT = /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;

/** The region of a standard `bedrock-runtime.<region>.amazonaws.com` endpoint, else undefined. */
export function standardEndpointRegion(baseUrl: string | undefined): string | undefined {
	if (!baseUrl) return undefined;
	try {
		return STANDARD_ENDPOINT.exec(new URL(baseUrl).hostname.toLowerCase())?.[1];
	} catch {
		return undefined;
	}
}

/** The process environment with the options' non-empty `env` entries over it. */
function mergedEnv(env: BedrockOptions["env"]): EnvLookup {
	const out: EnvLookup = { ...process.env };
	for (const [key, value] of Object.entries(env ?? {})) if (value) out[key] = value;
	return out;
}

export async function resolveBedrockAuth(model: Model, options: BedrockOptions): Promise<BedrockAuth> {
	const env = mergedEnv(options.env);
	const namedProfile = options.profile || options.env?.AWS_PROFILE || undefined;
	const profile = namedProfile || envValue("AWS_PROFILE", options.env);
	const configured = configuredRegion(options);
	const ambientProfile = Boolean(process.env.AWS_PROFILE);
	const endpointRegion = standardEndpointRegion(model.baseUrl);
	const explicitEndpoint = !endpointRegion || (!configured && !ambientProfile);

	const arnRegion = /^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):/.exec(model.id)?.[1];
	const region =
		arnRegion ||
		configured ||
		(endpointRegion && explicitEndpoint ? endpointRegion : undefined) ||
		(!ambientProfile ? "us-east-1" : undefined) ||
		(await profileRegion({ env, ...(profile ? { profile } : {}) })) ||
		"us-east-1";
	const endpoint = explicitEndpoint
		? model.baseUrl
		: `https://bedrock-runtime.${region}.amazonaws.com${region.startsWith("cn-") ? ".cn" : ""}`;

	const skipAuth = envValue("AWS_BEDROCK_SKIP_AUTH", options.env) === "1";
	const apiKey = options.apiKey === AMBIENT_CREDENTIALS_MARKER ? undefined : options.apiKey;
	const bearerToken = options.bearerToken || apiKey || envValue("AWS_BEARER_TOKEN_BEDROCK", options.env);
	if (bearerToken && !skipAuth) return { endpoint, region, bearerToken };
	if (skipAuth) {
		return { endpoint, region, credentials: { accessKeyId: "dummy-access-key", secretAccessKey: "dummy-secret-key" } };
	}
	const fromEnv = awsCredentialsFromEnv(env);
	if (fromEnv && !namedProfile) return { endpoint, region, credentials: fromEnv };
	const resolved = await resolveAwsCredentials({
		env,
		...(profile ? { profile } : {}),
		...(options.signal ? { signal: options.signal } : {}),
	});
	return { endpoint, region, credentials: resolved.credentials };
}
