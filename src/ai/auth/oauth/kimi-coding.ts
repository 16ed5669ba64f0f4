/**
 * Kimi Code subscription login, as pi-ai 0.87.1 does it: an RFC 8628 device code from auth.kimi.com (or
 * `KIMI_CODE_OAUTH_HOST` / `KIMI_OAUTH_HOST`), JSON replies, refreshable tokens. auth.json keeps
 * `{ type: "oauth", access, refresh, expires }`; requests carry `Authorization: Bearer <access>` as a header (not
 * as an API key). Refreshes retry network failures, 429 and 5xx three times (1 s, 2 s, 4 s apart); 401, 403 or
 * `invalid_grant` means the login is gone.
 */
import type { OAuthAuth, ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import {
	type DeviceLoginDeps,
	type JsonObject,
	nonEmptyString,
	positiveNumber,
	type ResolvedDeps,
	requestJson,
	resolveDeps,
	showCodeAndPoll,
	standardPoll,
	trustedUrl,
} from "./device-http.ts";

export const KIMI_CLIENT_ID = "17e5f671-d194-4dfb-9706-5516cb48c098";
export const KIMI_OAUTH_HOST = "https://auth.kimi.com";
const DEFAULT_EXPIRES_SECONDS = 15 * 60;
const DEFAULT_INTERVAL_SECONDS = 5;
const TIMEOUT_MS = 30_000;
const REFRESH_RETRIES = 3;
const HEADERS = { Accept: "application/json" };

function oauthHost(deps: ResolvedDeps): string {
	const override = deps.env.KIMI_CODE_OAUTH_HOST || deps.env.KIMI_OAUTH_HOST;
	return (override || KIMI_OAUTH_HOST).replace(/\/+$/, "");
}

/** Which token fields are missing, never their values (a reply may hold half a token pair). */
function tokenFrom(json: JsonObject | null, operation: "poll" | "refresh", now: number): OAuthCredential {
	const access = nonEmptyString(json?.access_token);
	const refresh = nonEmptyString(json?.refresh_token);
	const expiresIn = positiveNumber(json?.expires_in);
	if (!access || !refresh || !expiresIn) {
		const missing = [!access && "access_token", !refresh && "refresh_token", !expiresIn && "expires_in"];
		throw new Error(`Kimi Code token ${operation} response missing fields: ${missing.filter(Boolean).join(", ")}`);
	}
	return { type: "oauth", access, refresh, expires: now + expiresIn * 1000 };
}

async function login(deps: ResolvedDeps, interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const { signal } = interaction;
	const host = oauthHost(deps);
	const start = await requestJson(deps, `${host}/api/oauth/device_authorization`, {
		headers: HEADERS,
		form: { client_id: KIMI_CLIENT_ID },
		signal,
		timeoutMs: TIMEOUT_MS,
	});
	if (!start.ok)
		throw new Error(
			`Kimi Code device authorization failed with status ${start.status}${start.text ? `: ${start.text}` : ""}`,
		);
	const deviceCode = nonEmptyString(start.json?.device_code);
	const userCode = nonEmptyString(start.json?.user_code);
	const verificationUri = trustedUrl(start.json?.verification_uri);
	const completeUri = trustedUrl(start.json?.verification_uri_complete);
	if (!deviceCode || !userCode || !verificationUri || !completeUri)
		throw new Error(
			"Invalid Kimi Code device authorization response: needs device_code, user_code, verification_uri and verification_uri_complete",
		);
	const intervalSeconds = positiveNumber(start.json?.interval) ?? DEFAULT_INTERVAL_SECONDS;
	const expiresInSeconds = positiveNumber(start.json?.expires_in) ?? DEFAULT_EXPIRES_SECONDS;
	const code = { userCode, verificationUri: completeUri, intervalSeconds, expiresInSeconds };
	return showCodeAndPoll(deps, interaction, code, async () => {
		const reply = await requestJson(deps, `${host}/api/oauth/token`, {
			headers: HEADERS,
			form: {
				client_id: KIMI_CLIENT_ID,
				device_code: deviceCode,
				grant_type: "urn:ietf:params:oauth:grant-type:device_code",
			},
			signal,
			timeoutMs: TIMEOUT_MS,
		});
		if (reply.status >= 500)
			return {
				status: "failed",
				message: `Kimi Code device token request failed with status ${reply.status}${reply.text ? `: ${reply.text}` : ""}`,
			};
		if (reply.ok && typeof reply.json?.access_token === "string") {
			try {
				return { status: "complete", value: tokenFrom(reply.json, "poll", deps.clock.now()) };
			} catch (error) {
				return { status: "failed", message: (error as Error).message };
			}
		}
		const standard = standardPoll(reply.json);
		if (standard) return standard;
		const error = reply.json?.error;
		if (error === "expired_token")
			return { status: "failed", message: "Kimi Code device authorization expired. Please restart login." };
		if (error === "access_denied") return { status: "failed", message: "Kimi Code login was denied." };
		const description = typeof reply.json?.error_description === "string" ? `: ${reply.json.error_description}` : "";
		return {
			status: "failed",
			message: `Kimi Code device token request failed (status ${reply.status})${typeof error === "string" ? `: ${error}${description}` : ""}`,
		};
	});
}

async function refresh(deps: ResolvedDeps, credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	const host = oauthHost(deps);
	const aborted = "Kimi Code token refresh aborted";
	let lastError: Error | undefined;
	for (let attempt = 0; attempt <= REFRESH_RETRIES; attempt++) {
		if (attempt > 0) await deps.clock.sleep(1000 * 2 ** (attempt - 1), signal).catch(() => {});
		if (signal.aborted) throw new Error(aborted);
		let reply: Awaited<ReturnType<typeof requestJson>>;
		try {
			reply = await requestJson(deps, `${host}/api/oauth/token`, {
				headers: HEADERS,
				form: { client_id: KIMI_CLIENT_ID, grant_type: "refresh_token", refresh_token: credential.refresh },
				signal,
				timeoutMs: TIMEOUT_MS,
				cancelMessage: aborted,
			});
		} catch (error) {
			if (signal.aborted) throw new Error(aborted);
			lastError = error instanceof Error ? error : new Error(String(error));
			continue;
		}
		if (reply.ok) return tokenFrom(reply.json, "refresh", deps.clock.now());
		if (reply.status === 401 || reply.status === 403 || reply.json?.error === "invalid_grant") {
			const description = typeof reply.json?.error_description === "string" ? `: ${reply.json.error_description}` : "";
			throw new Error(`Kimi Code token refresh unauthorized (status ${reply.status})${description}`);
		}
		if ((reply.status === 429 || reply.status >= 500) && attempt < REFRESH_RETRIES) {
			lastError = new Error(`Kimi Code token refresh failed with status ${reply.status}`);
			continue;
		}
		throw new Error(`Kimi Code token refresh failed with status ${reply.status}: ${JSON.stringify(reply.json)}`);
	}
	throw lastError ?? new Error("Kimi Code token refresh failed");
}

/** The Kimi Code login; `deps` replaces fetch, the clock or the environment (tests). */
export function createKimiCodingOAuth(deps?: DeviceLoginDeps): OAuthAuth {
	const resolved = resolveDeps(deps);
	return {
		name: "Kimi Code (subscription)",
		isSubscription: true,
		loginLabel: "Sign in with Kimi Code",
		login: (interaction) => login(resolved, interaction),
		refresh: (credential, signal) => refresh(resolved, credential, signal),
		toAuth: async (credential) => ({ headers: { Authorization: `Bearer ${credential.access}` } }),
	};
}

export const kimiCodingOAuth: OAuthAuth = createKimiCodingOAuth();
