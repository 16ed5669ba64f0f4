/**
 * The AWS credential sources that run something or ask a service: `credential_process` commands, the IAM Identity
 * Center (SSO) token cache + `GetRoleCredentials`, STS `AssumeRole` / `AssumeRoleWithWebIdentity`, and the ECS
 * container endpoint. Each returns credentials with their expiry or throws a one-line `AwsConfigError` that names
 * the file, profile or variable and the field at fault — never a secret. Service endpoints follow the SDKs'
 * `AWS_ENDPOINT_URL_SSO` / `AWS_ENDPOINT_URL_STS` overrides.
 */
import { join } from "node:path";
import { fsPromises } from "../../util/index.ts";
import type { EnvLookup } from "./credentials.ts";
import { AwsConfigError, awsHome, type Section } from "./profiles.ts";
import { type AwsCredentials, signRequest } from "./sigv4.ts";

export interface ExpiringCredentials extends AwsCredentials {
	/** Epoch ms; undefined = does not expire. */
	expiresAt?: number;
}

export interface SourceContext {
	env: EnvLookup;
	signal?: AbortSignal;
	now?: () => number;
}

const now = (ctx: SourceContext) => (ctx.now ?? Date.now)();

async function sha1Hex(text: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
	return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function parseTime(value: unknown): number | undefined {
	if (typeof value === "number") return value;
	if (typeof value !== "string") return undefined;
	const t = Date.parse(value);
	return Number.isNaN(t) ? undefined : t;
}

/** Runs a profile's `credential_process` (through the shell) and reads its JSON (Version 1). */
export async function fromProcess(command: string, where: string, ctx: SourceContext): Promise<ExpiringCredentials> {
	const proc = Bun.spawn(["/bin/sh", "-c", command], {
		stdout: "pipe",
		stderr: "pipe",
		stdin: "ignore",
		env: { ...process.env, ...ctx.env } as Record<string, string>,
	});
	const [stdout, , code] = await Promise.all([
		new Response(proc.stdout).text(),
		new Response(proc.stderr).text(),
		proc.exited,
	]);
	if (code !== 0) throw new AwsConfigError(`${where}: credential_process exited with status ${code}`);
	let data: any;
	try {
		data = JSON.parse(stdout);
	} catch {
		throw new AwsConfigError(`${where}: credential_process printed no JSON object`);
	}
	if (data?.Version !== 1) throw new AwsConfigError(`${where}: credential_process output needs "Version": 1`);
	for (const field of ["AccessKeyId", "SecretAccessKey"]) {
		if (typeof data[field] !== "string" || data[field] === "")
			throw new AwsConfigError(`${where}: credential_process output has no "${field}"`);
	}
	const expiresAt = parseTime(data.Expiration);
	if (data.Expiration !== undefined && expiresAt === undefined)
		throw new AwsConfigError(`${where}: credential_process output has an unreadable "Expiration"`);
	if (expiresAt !== undefined && expiresAt <= now(ctx))
		throw new AwsConfigError(`${where}: credential_process returned credentials that have already expired`);
	return {
		accessKeyId: data.AccessKeyId,
		secretAccessKey: data.SecretAccessKey,
		...(typeof data.SessionToken === "string" && data.SessionToken ? { sessionToken: data.SessionToken } : {}),
		...(expiresAt !== undefined ? { expiresAt } : {}),
	};
}

export interface SsoSettings {
	/** Cache key: the sso-session name, or the start URL for legacy profiles. */
	cacheKey: string;
	region: string;
	accountId: string;
	roleName: string;
}

/** The SSO settings of a profile (its own or its `sso_session`'s), or an error naming the missing field. */
export function ssoSettings(profile: Section, sessions: Record<string, Section>, where: string): SsoSettings {
	let region = profile.sso_region;
	let cacheKey = profile.sso_start_url;
	if (profile.sso_session) {
		const session = sessions[profile.sso_session];
		if (!session)
			throw new AwsConfigError(`${where}: sso_session "${profile.sso_session}" has no [sso-session] section`);
		if (!session.sso_start_url)
			throw new AwsConfigError(`${where}: [sso-session ${profile.sso_session}] lacks sso_start_url`);
		region = session.sso_region ?? region;
		cacheKey = profile.sso_session;
	}
	for (const [field, value] of [
		["sso_region", region],
		["sso_account_id", profile.sso_account_id],
		["sso_role_name", profile.sso_role_name],
	] as const) {
		if (!value) throw new AwsConfigError(`${where}: SSO profile lacks ${field}`);
	}
	return {
		cacheKey: cacheKey as string,
		region: region as string,
		accountId: profile.sso_account_id as string,
		roleName: profile.sso_role_name as string,
	};
}

/** The cached SSO access token (`~/.aws/sso/cache/<sha1>.json`) exchanged for role credentials. */
export async function fromSso(sso: SsoSettings, where: string, ctx: SourceContext): Promise<ExpiringCredentials> {
	const file = join(awsHome(ctx.env), ".aws", "sso", "cache", `${await sha1Hex(sso.cacheKey)}.json`);
	let text: string;
	try {
		text = await fsPromises().readFile(file, "utf8");
	} catch {
		throw new AwsConfigError(`${where}: no SSO token cache at ${file}; run "aws sso login"`);
	}
	let token: any;
	try {
		token = JSON.parse(text);
	} catch {
		throw new AwsConfigError(`${file}: not valid JSON`);
	}
	if (typeof token?.accessToken !== "string" || token.accessToken === "")
		throw new AwsConfigError(`${file}: field "accessToken" is missing`);
	const expires = parseTime(token.expiresAt);
	if (expires === undefined) throw new AwsConfigError(`${file}: field "expiresAt" is missing or unreadable`);
	if (expires <= now(ctx)) throw new AwsConfigError(`${where}: the SSO session expired; run "aws sso login"`);
	const base = ctx.env.AWS_ENDPOINT_URL_SSO || `https://portal.sso.${sso.region}.amazonaws.com`;
	const url = `${base.replace(/\/+$/, "")}/federation/credentials?account_id=${encodeURIComponent(sso.accountId)}&role_name=${encodeURIComponent(sso.roleName)}`;
	const response = await fetch(url, { headers: { "x-amz-sso_bearer_token": token.accessToken }, signal: ctx.signal });
	const body = await response.text();
	if (!response.ok) throw new AwsConfigError(`${where}: SSO GetRoleCredentials failed with HTTP ${response.status}`);
	let role: any;
	try {
		role = JSON.parse(body)?.roleCredentials;
	} catch {
		role = undefined;
	}
	if (typeof role?.accessKeyId !== "string" || typeof role?.secretAccessKey !== "string")
		throw new AwsConfigError(`${where}: SSO GetRoleCredentials answered without roleCredentials`);
	return {
		accessKeyId: role.accessKeyId,
		secretAccessKey: role.secretAccessKey,
		...(role.sessionToken ? { sessionToken: role.sessionToken } : {}),
		...(typeof role.expiration === "number" ? { expiresAt: role.expiration } : {}),
	};
}

function xmlField(xml: string, name: string): string | undefined {
	return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
}

async function callSts(
	params: Record<string, string>,
	region: string,
	where: string,
	ctx: SourceContext,
	signWith?: AwsCredentials,
) {
	const base = ctx.env.AWS_ENDPOINT_URL_STS || `https://sts.${region}.amazonaws.com`;
	const url = `${base.replace(/\/+$/, "")}/`;
	const body = new URLSearchParams({ ...params, Version: "2011-06-15" }).toString();
	let headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded; charset=utf-8" };
	if (signWith)
		headers = await signRequest({ method: "POST", url, headers, body, region, service: "sts", credentials: signWith });
	const response = await fetch(url, { method: "POST", headers, body, signal: ctx.signal });
	const xml = await response.text();
	if (!response.ok) {
		const code = xmlField(xml, "Code");
		throw new AwsConfigError(
			`${where}: STS ${params.Action} failed with HTTP ${response.status}${code ? ` (${code})` : ""}`,
		);
	}
	const accessKeyId = xmlField(xml, "AccessKeyId");
	const secretAccessKey = xmlField(xml, "SecretAccessKey");
	if (!accessKeyId || !secretAccessKey)
		throw new AwsConfigError(`${where}: STS ${params.Action} answered without credentials`);
	const sessionToken = xmlField(xml, "SessionToken");
	const expiresAt = parseTime(xmlField(xml, "Expiration"));
	return {
		accessKeyId,
		secretAccessKey,
		...(sessionToken ? { sessionToken } : {}),
		...(expiresAt !== undefined ? { expiresAt } : {}),
	};
}

/** STS AssumeRole for a `role_arn` profile, signed with its source profile's credentials. */
export function assumeRole(
	profile: Section,
	source: AwsCredentials,
	where: string,
	ctx: SourceContext,
): Promise<ExpiringCredentials> {
	if (profile.mfa_serial)
		throw new AwsConfigError(`${where}: mfa_serial needs an MFA code, which pi cannot prompt for`);
	return callSts(
		{
			Action: "AssumeRole",
			RoleArn: profile.role_arn as string,
			RoleSessionName: profile.role_session_name || `pi-${Date.now()}`,
			...(profile.external_id ? { ExternalId: profile.external_id } : {}),
			...(profile.duration_seconds ? { DurationSeconds: profile.duration_seconds } : {}),
		},
		profile.region || "us-east-1",
		where,
		ctx,
		source,
	);
}

/** STS AssumeRoleWithWebIdentity with the token file (IRSA, or a profile's `web_identity_token_file`). */
export async function webIdentity(
	tokenFile: string,
	roleArn: string | undefined,
	sessionName: string | undefined,
	region: string,
	where: string,
	ctx: SourceContext,
): Promise<ExpiringCredentials> {
	if (!roleArn) throw new AwsConfigError(`${where}: web identity needs a role ARN (AWS_ROLE_ARN or role_arn)`);
	let token: string;
	try {
		token = (await fsPromises().readFile(tokenFile, "utf8")).trim();
	} catch {
		throw new AwsConfigError(`${where}: web identity token file ${tokenFile} cannot be read`);
	}
	return callSts(
		{
			Action: "AssumeRoleWithWebIdentity",
			RoleArn: roleArn,
			RoleSessionName: sessionName || `pi-${Date.now()}`,
			WebIdentityToken: token,
		},
		region,
		where,
		ctx,
	);
}

/** The ECS task-role endpoint (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` / `_FULL_URI`). */
export async function fromContainer(ctx: SourceContext): Promise<ExpiringCredentials> {
	const { env } = ctx;
	const url =
		env.AWS_CONTAINER_CREDENTIALS_FULL_URI || `http://169.254.170.2${env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI}`;
	const where = env.AWS_CONTAINER_CREDENTIALS_FULL_URI
		? "AWS_CONTAINER_CREDENTIALS_FULL_URI"
		: "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI";
	let authorization = env.AWS_CONTAINER_AUTHORIZATION_TOKEN;
	if (env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE) {
		try {
			authorization = (await fsPromises().readFile(env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE, "utf8")).trim();
		} catch {
			throw new AwsConfigError(
				`AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: ${env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE} cannot be read`,
			);
		}
	}
	const response = await fetch(url, {
		headers: authorization ? { authorization } : {},
		signal: ctx.signal ?? AbortSignal.timeout(5000),
	});
	if (!response.ok)
		throw new AwsConfigError(`${where}: the container credentials endpoint answered HTTP ${response.status}`);
	let data: any;
	try {
		data = await response.json();
	} catch {
		throw new AwsConfigError(`${where}: the container credentials endpoint sent no JSON`);
	}
	if (typeof data?.AccessKeyId !== "string" || typeof data?.SecretAccessKey !== "string")
		throw new AwsConfigError(`${where}: the container credentials answer lacks "AccessKeyId"/"SecretAccessKey"`);
	const expiresAt = parseTime(data.Expiration);
	return {
		accessKeyId: data.AccessKeyId,
		secretAccessKey: data.SecretAccessKey,
		...(data.Token ? { sessionToken: data.Token } : {}),
		...(expiresAt !== undefined ? { expiresAt } : {}),
	};
}
