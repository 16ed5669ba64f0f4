/**
 * OAuth 2.0 access tokens for Google Cloud from Application Default Credentials: a service account signs a JWT
 * and trades it at the file's `token_uri` (JWT bearer grant); gcloud user credentials use their refresh token
 * (refresh-token grant). Tokens stay in memory until five minutes before they expire; concurrent requests for the
 * same credentials share one token request. Failures are one line naming the file (or endpoint) and the reason,
 * with every secret of the credentials removed from whatever the endpoint answered.
 */
import { oauthEndpoint } from "../auth/oauth/endpoints.ts";
import type { GoogleCredentials } from "./adc-file.ts";
import { GoogleCredentialsError } from "./adc-file.ts";
import { CLOUD_PLATFORM_SCOPE, importRs256Key, signAssertion } from "./jwt.ts";

/** Tokens are renewed this long before they expire. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export interface AccessTokenOptions {
	signal?: AbortSignal;
	/** Milliseconds since the epoch (tests pin it). */
	now?: () => number;
	/** Where `oauthEndpoint` reads `PI_OAUTH_TEST_ORIGIN` (default: this process's environment). */
	env?: Record<string, string | undefined>;
}

interface CachedToken {
	token: string;
	expiresAt: number;
}

const tokens = new Map<string, CachedToken>();
const inFlight = new Map<string, Promise<CachedToken>>();

function cacheKey(credentials: GoogleCredentials): string {
	const who = credentials.type === "service_account" ? credentials.clientEmail : credentials.clientId;
	return [credentials.file, credentials.type, who, credentials.tokenUri].join("\0");
}

/** Forgets every cached token (tests; a credentials change the caller knows about). */
export function clearAccessTokenCache(): void {
	tokens.clear();
	inFlight.clear();
}

/** A bearer token for `credentials`, from the cache while it has more than five minutes left. */
export async function googleAccessToken(
	credentials: GoogleCredentials,
	options: AccessTokenOptions = {},
): Promise<string> {
	const now = options.now ?? Date.now;
	const key = cacheKey(credentials);
	const cached = tokens.get(key);
	if (cached && cached.expiresAt - REFRESH_MARGIN_MS > now()) return cached.token;
	let pending = inFlight.get(key);
	if (!pending) {
		// The request itself is not tied to one caller's signal: others may be waiting for it, and a token that
		// arrives after an abort is still kept for the next request.
		pending = requestToken(credentials, options.env, now)
			.then((fresh) => {
				tokens.set(key, fresh);
				return fresh;
			})
			.finally(() => inFlight.delete(key));
		inFlight.set(key, pending);
	}
	const fresh = await (options.signal ? abortable(pending, options.signal) : pending);
	return fresh.token;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	signal.throwIfAborted();
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(signal.reason ?? new Error("aborted"));
		signal.addEventListener("abort", onAbort, { once: true });
		promise.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

function secretsOf(credentials: GoogleCredentials, assertion?: string): string[] {
	const list =
		credentials.type === "service_account"
			? [credentials.privateKey, assertion]
			: [credentials.clientSecret, credentials.refreshToken];
	return list.filter((s): s is string => typeof s === "string" && s.length >= 4);
}

function redact(text: string, secrets: readonly string[]): string {
	let out = text;
	for (const secret of secrets) out = out.split(secret).join("[redacted]");
	return out;
}

/** A token endpoint that has not answered in this long has failed. */
const TOKEN_TIMEOUT_MS = 60_000;

async function requestToken(
	credentials: GoogleCredentials,
	env: AccessTokenOptions["env"],
	now: () => number,
): Promise<CachedToken> {
	const form = new URLSearchParams();
	let assertion: string | undefined;
	if (credentials.type === "service_account") {
		const key = await importRs256Key(credentials.privateKey);
		if (!key) {
			throw new GoogleCredentialsError(
				`Google credentials file ${credentials.file}: field "private_key" is not a usable RSA private key`,
			);
		}
		assertion = await signAssertion(key, {
			clientEmail: credentials.clientEmail,
			...(credentials.privateKeyId ? { privateKeyId: credentials.privateKeyId } : {}),
			audience: credentials.tokenUri,
			scope: CLOUD_PLATFORM_SCOPE,
			now: Math.floor(now() / 1000),
		});
		form.set("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer");
		form.set("assertion", assertion);
	} else {
		form.set("grant_type", "refresh_token");
		form.set("client_id", credentials.clientId);
		form.set("client_secret", credentials.clientSecret);
		form.set("refresh_token", credentials.refreshToken);
	}
	const secrets = secretsOf(credentials, assertion);
	const url = oauthEndpoint(credentials.tokenUri, env);
	const what = credentials.type === "service_account" ? "service account" : "user credentials";
	const started = now();
	let response: Response;
	try {
		response = await fetch(url, {
			method: "POST",
			headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
			body: form.toString(),
			signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
		});
	} catch (error) {
		const message = redact((error as Error)?.message ?? String(error), secrets);
		throw new GoogleCredentialsError(
			`Google token request to ${credentials.tokenUri} failed (${what} in ${credentials.file}): ${message}`,
		);
	}
	const text = await response.text().catch(() => "");
	let body: Record<string, unknown> = {};
	try {
		const parsed = JSON.parse(text);
		if (typeof parsed === "object" && parsed !== null) body = parsed;
	} catch {
		// reported below with the status
	}
	if (!response.ok) {
		const reason = [body.error, body.error_description].filter((v) => typeof v === "string" && v !== "").join(": ");
		const detail = redact(reason || text.replace(/\s+/g, " ").slice(0, 200) || response.statusText, secrets);
		const hint =
			credentials.type === "authorized_user" && body.error === "invalid_grant"
				? "; run `gcloud auth application-default login` again"
				: "";
		throw new GoogleCredentialsError(
			`Google token API error ${response.status} from ${credentials.tokenUri} for the ${what} in ${credentials.file}: ${detail}${hint}`,
		);
	}
	const token = body.access_token;
	if (typeof token !== "string" || token === "") {
		throw new GoogleCredentialsError(
			`Google token endpoint ${credentials.tokenUri} returned no access_token for the ${what} in ${credentials.file}`,
		);
	}
	const expiresIn = typeof body.expires_in === "number" ? body.expires_in : Number(body.expires_in ?? 3600);
	const lifetime = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : 3600_000;
	return { token, expiresAt: started + lifetime };
}
