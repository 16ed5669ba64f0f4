/**
 * The AWS credential chain pi uses for Bedrock when no bearer token is given, in the AWS SDK's order:
 * 1. `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`) — skipped when a profile is named;
 * 2. the profile (`AWS_PROFILE`, else `default`) from `~/.aws/credentials` + `~/.aws/config`: `role_arn` with
 *    `source_profile` (STS AssumeRole, chains followed, cycles refused), static keys, `web_identity_token_file`,
 *    `credential_process`, then IAM Identity Center (`sso_session` / `sso_start_url`, from the SSO token cache);
 * 3. `AWS_WEB_IDENTITY_TOKEN_FILE` + `AWS_ROLE_ARN` (IRSA);
 * 4. the ECS container endpoint (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` / `_FULL_URI`).
 * Credentials that expire are cached in memory until five minutes before they do.
 */
import {
	assumeRole,
	type ExpiringCredentials,
	fromContainer,
	fromProcess,
	fromSso,
	type SourceContext,
	ssoSettings,
	webIdentity,
} from "./credential-sources.ts";
import { awsCredentialsFromEnv, type EnvLookup } from "./credentials.ts";
import { AwsConfigError, loadSharedFiles, type SharedFiles } from "./profiles.ts";
import type { AwsCredentials } from "./sigv4.ts";

export interface ResolveAwsOptions {
	env: EnvLookup;
	/** A profile named explicitly (skips the environment keys, as the SDK does). */
	profile?: string;
	signal?: AbortSignal;
	now?: () => number;
}

export interface ResolvedAwsCredentials {
	credentials: AwsCredentials;
	/** Where they came from, for messages ("environment", `profile "dev"`, …). */
	source: string;
}

const REFRESH_MARGIN_MS = 5 * 60_000;
const cache = new Map<string, ExpiringCredentials>();

/** Forgets cached credentials (tests; a user who re-ran `aws sso login` gets fresh ones on expiry anyway). */
export function clearAwsCredentialCache(): void {
	cache.clear();
}

function plain(c: ExpiringCredentials): AwsCredentials {
	return {
		accessKeyId: c.accessKeyId,
		secretAccessKey: c.secretAccessKey,
		...(c.sessionToken ? { sessionToken: c.sessionToken } : {}),
	};
}

async function cached(key: string, ctx: SourceContext, load: () => Promise<ExpiringCredentials>) {
	const hit = cache.get(key);
	const t = (ctx.now ?? Date.now)();
	if (hit && (hit.expiresAt === undefined || hit.expiresAt - REFRESH_MARGIN_MS > t)) return hit;
	const fresh = await load();
	if (fresh.expiresAt !== undefined) cache.set(key, fresh);
	return fresh;
}

/** The profile in use: the named one, else `AWS_PROFILE`, else `default`. */
export function activeProfile(options: Pick<ResolveAwsOptions, "env" | "profile">): string {
	return options.profile || options.env.AWS_PROFILE || "default";
}

/** A profile's `region` setting, if the shared files give one (no error when they are absent). */
export async function profileRegion(options: Pick<ResolveAwsOptions, "env" | "profile">): Promise<string | undefined> {
	const files = await loadSharedFiles(options.env);
	return files.profiles[activeProfile(options)]?.region || undefined;
}

async function fromProfile(
	files: SharedFiles,
	name: string,
	ctx: SourceContext,
	visited: string[],
): Promise<ExpiringCredentials> {
	const where = `profile "${name}" in ${files.configPath} / ${files.credentialsPath}`;
	if (visited.includes(name)) {
		throw new AwsConfigError(`${where}: source_profile chain loops (${[...visited, name].join(" → ")})`);
	}
	const profile = files.profiles[name];
	if (!profile)
		throw new AwsConfigError(`AWS profile "${name}" is not defined in ${files.credentialsPath} or ${files.configPath}`);
	const hasKey = !!profile.aws_access_key_id;
	const hasSecret = !!profile.aws_secret_access_key;
	if (hasKey !== hasSecret) {
		throw new AwsConfigError(
			`${where}: ${hasKey ? "aws_access_key_id" : "aws_secret_access_key"} is set but ${hasKey ? "aws_secret_access_key" : "aws_access_key_id"} is missing`,
		);
	}
	const staticKeys = (): ExpiringCredentials => ({
		accessKeyId: profile.aws_access_key_id as string,
		secretAccessKey: profile.aws_secret_access_key as string,
		...(profile.aws_session_token ? { sessionToken: profile.aws_session_token } : {}),
	});
	if (profile.role_arn && (profile.source_profile || profile.credential_source)) {
		if (!profile.source_profile) {
			throw new AwsConfigError(
				`${where}: credential_source "${profile.credential_source}" is not supported; use source_profile`,
			);
		}
		// A profile that is its own source uses its static keys (the SDK's rule).
		const source =
			profile.source_profile === name && hasKey
				? staticKeys()
				: await fromProfile(files, profile.source_profile, ctx, [...visited, name]);
		return cached(`role:${name}:${profile.role_arn}:${source.accessKeyId}`, ctx, () =>
			assumeRole(profile, plain(source), where, ctx),
		);
	}
	if (hasKey) return staticKeys();
	if (profile.role_arn && profile.web_identity_token_file) {
		return cached(`web:${name}`, ctx, () =>
			webIdentity(
				profile.web_identity_token_file as string,
				profile.role_arn,
				profile.role_session_name,
				profile.region || "us-east-1",
				where,
				ctx,
			),
		);
	}
	if (profile.credential_process) {
		const command = profile.credential_process;
		return cached(`process:${name}:${command}`, ctx, () => fromProcess(command, where, ctx));
	}
	if (profile.sso_session || profile.sso_start_url || profile.sso_account_id) {
		const sso = ssoSettings(profile, files.ssoSessions, where);
		return cached(`sso:${name}:${sso.cacheKey}:${sso.accountId}:${sso.roleName}`, ctx, () => fromSso(sso, where, ctx));
	}
	if (profile.role_arn) throw new AwsConfigError(`${where}: role_arn needs source_profile or web_identity_token_file`);
	throw new AwsConfigError(
		`${where}: no credentials (aws_access_key_id, role_arn, credential_process or sso settings)`,
	);
}

/** Resolves credentials or throws one line saying what was tried and what is missing. */
export async function resolveAwsCredentials(options: ResolveAwsOptions): Promise<ResolvedAwsCredentials> {
	const { env } = options;
	const ctx: SourceContext = {
		env,
		...(options.signal ? { signal: options.signal } : {}),
		...(options.now ? { now: options.now } : {}),
	};
	const named = options.profile || env.AWS_PROFILE;
	if (!named) {
		const fromEnv = awsCredentialsFromEnv(env);
		if (fromEnv) return { credentials: fromEnv, source: "environment" };
	}
	const files = await loadSharedFiles(env);
	const profile = activeProfile(options);
	if (named || files.profiles[profile]) {
		return { credentials: plain(await fromProfile(files, profile, ctx, [])), source: `profile "${profile}"` };
	}
	if (env.AWS_WEB_IDENTITY_TOKEN_FILE) {
		const file = env.AWS_WEB_IDENTITY_TOKEN_FILE;
		const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1";
		const creds = await cached(`irsa:${file}:${env.AWS_ROLE_ARN}`, ctx, () =>
			webIdentity(file, env.AWS_ROLE_ARN, env.AWS_ROLE_SESSION_NAME, region, "AWS_WEB_IDENTITY_TOKEN_FILE", ctx),
		);
		return { credentials: plain(creds), source: "web identity token" };
	}
	if (env.AWS_CONTAINER_CREDENTIALS_FULL_URI || env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) {
		const key = `ecs:${env.AWS_CONTAINER_CREDENTIALS_FULL_URI ?? env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI}`;
		return { credentials: plain(await cached(key, ctx, () => fromContainer(ctx))), source: "ECS task role" };
	}
	throw new AwsConfigError(
		"No AWS credentials for Amazon Bedrock: set AWS_BEARER_TOKEN_BEDROCK, AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or configure ~/.aws/credentials)",
	);
}
