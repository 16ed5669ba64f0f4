/**
 * Static AWS credentials and the Bedrock region from the environment (the keys pi-ai 0.87.1 reads), and a guard
 * that keeps the secret parts out of anything shown or logged.
 */
import type { AwsCredentials } from "./sigv4.ts";

export type EnvLookup = Record<string, string | undefined>;

function value(env: EnvLookup, key: string): string | undefined {
	const v = env[key];
	return v && v.length > 0 ? v : undefined;
}

/** `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`); undefined unless both keys are set. */
export function awsCredentialsFromEnv(env: EnvLookup): AwsCredentials | undefined {
	const accessKeyId = value(env, "AWS_ACCESS_KEY_ID");
	const secretAccessKey = value(env, "AWS_SECRET_ACCESS_KEY");
	if (!accessKeyId || !secretAccessKey) return undefined;
	const sessionToken = value(env, "AWS_SESSION_TOKEN");
	return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
}

/** An explicit region, else `AWS_REGION`, else `AWS_DEFAULT_REGION`, else pi's default `us-east-1`. */
export function bedrockRegion(explicit: string | undefined, env: EnvLookup): string {
	return explicit || value(env, "AWS_REGION") || value(env, "AWS_DEFAULT_REGION") || "us-east-1";
}

/**
 * Replaces the secret key, session token and access key id wherever they occur in `text` (an error body, a message
 * about to be logged), so no credential reaches a user-visible string.
 */
export function redactCredentials(text: string, credentials: AwsCredentials | undefined): string {
	if (!credentials) return text;
	let out = text;
	for (const secret of [credentials.secretAccessKey, credentials.sessionToken, credentials.accessKeyId]) {
		if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
	}
	return out;
}

/**
 * Whether the environment points Bedrock at credentials the request will find itself (pi-ai 0.87.1's list): a
 * profile, access keys, a Bedrock bearer token, an ECS task role or a web identity token file. pi reports such a
 * provider as configured with the key "<authenticated>", which the Bedrock stream does not send.
 */
export function hasBedrockAmbientCredentials(env: EnvLookup): boolean {
	return !!(
		value(env, "AWS_PROFILE") ||
		(value(env, "AWS_ACCESS_KEY_ID") && value(env, "AWS_SECRET_ACCESS_KEY")) ||
		value(env, "AWS_BEARER_TOKEN_BEDROCK") ||
		value(env, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") ||
		value(env, "AWS_CONTAINER_CREDENTIALS_FULL_URI") ||
		value(env, "AWS_WEB_IDENTITY_TOKEN_FILE")
	);
}
