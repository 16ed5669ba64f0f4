/**
 * xAI subscription login (SuperGrok / X Premium), as pi-ai 0.87.1 does it: an RFC 8628 device code from
 * auth.x.ai with the Grok CLI's client id and scopes, polled until approved. auth.json keeps
 * `{ type: "oauth", access, refresh, expires }` with `expires` five minutes before the token's real expiry; the
 * access token is the request's API key.
 */
import type { OAuthAuth, ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import {
	type DeviceLoginDeps,
	type JsonObject,
	type JsonReply,
	type ResolvedDeps,
	requestJson,
	resolveDeps,
	showCodeAndPoll,
	standardPoll,
	trustedUrl,
} from "./device-http.ts";

export const XAI_CLIENT_ID = "b1a00492-073a-47ea-816f-4c329264a828";
export const XAI_SCOPE = "openid profile email offline_access grok-cli:access api:access";
export const XAI_DEVICE_CODE_URL = "https://auth.x.ai/oauth2/device/code";
export const XAI_TOKEN_URL = "https://auth.x.ai/oauth2/token";
const EXPIRY_SKEW_MS = 5 * 60 * 1000;
const DEFAULT_LIFETIME_SECONDS = 3600;
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

function invalidField(field: string): Error {
	return new Error(`Invalid xAI OAuth response field: ${field}`);
}

function requireString(body: JsonObject, field: string): string {
	const value = body[field];
	if (typeof value !== "string" || value.length === 0) throw invalidField(field);
	return value;
}

function requirePositive(body: JsonObject, field: string): number {
	const value = body[field];
	if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw invalidField(field);
	return value;
}

function requireHttps(value: string): string {
	const url = trustedUrl(value, true);
	if (!url) throw new Error("Untrusted verification URI in xAI OAuth response");
	return url;
}

async function post(deps: ResolvedDeps, url: string, form: Record<string, string>, signal: AbortSignal) {
	const reply = await requestJson(deps, url, { headers: { Accept: "application/json" }, form, signal });
	if (reply.json === null) {
		if (signal.aborted) throw new Error("Login cancelled");
		throw new Error(`xAI OAuth returned invalid JSON (HTTP ${reply.status})`);
	}
	return reply as JsonReply & { json: JsonObject };
}

function failure(action: string, reply: JsonReply & { json: JsonObject }): Error {
	const parts = [reply.json.error, reply.json.error_description].filter((p) => typeof p === "string" && p);
	return new Error(`xAI OAuth ${action} failed (HTTP ${reply.status})${parts.length ? `: ${parts.join(": ")}` : ""}`);
}

function toCredential(body: JsonObject, now: number, previousRefresh?: string): OAuthCredential {
	const access = requireString(body, "access_token");
	// A refresh that does not rotate the refresh token omits it.
	const refresh =
		body.refresh_token === undefined && previousRefresh ? previousRefresh : requireString(body, "refresh_token");
	const lifetime = body.expires_in === undefined ? DEFAULT_LIFETIME_SECONDS : requirePositive(body, "expires_in");
	return { type: "oauth", access, refresh, expires: now + lifetime * 1000 - EXPIRY_SKEW_MS };
}

async function login(deps: ResolvedDeps, interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const { signal } = interaction;
	const start = await post(
		deps,
		XAI_DEVICE_CODE_URL,
		{ client_id: XAI_CLIENT_ID, scope: XAI_SCOPE, referrer: "pi" },
		signal,
	);
	if (!start.ok) throw failure("device authorization", start);
	const body = start.json;
	const interval = body.interval;
	const complete =
		typeof body.verification_uri_complete === "string" && body.verification_uri_complete
			? requireHttps(body.verification_uri_complete)
			: undefined;
	const deviceCode = requireString(body, "device_code");
	const userCode = requireString(body, "user_code");
	const verificationUri = requireHttps(requireString(body, "verification_uri"));
	const expiresInSeconds = requirePositive(body, "expires_in");
	const intervalSeconds =
		typeof interval === "number" && Number.isFinite(interval) && interval > 0 ? interval : undefined;
	const code = { userCode, verificationUri: complete ?? verificationUri, intervalSeconds, expiresInSeconds };
	return showCodeAndPoll(deps, interaction, code, async () => {
		const reply = await post(
			deps,
			XAI_TOKEN_URL,
			{ grant_type: DEVICE_GRANT, client_id: XAI_CLIENT_ID, device_code: deviceCode },
			signal,
		);
		if (reply.ok) return { status: "complete", value: toCredential(reply.json, deps.clock.now()) };
		const standard = standardPoll(reply.json);
		if (standard) {
			// xAI's slow_down may carry any numeric interval; the loop ignores non-positive ones.
			const raw = reply.json.interval;
			return standard.status === "slow_down"
				? { status: "slow_down", intervalSeconds: typeof raw === "number" ? raw : undefined }
				: standard;
		}
		const error = reply.json.error;
		if (error === "access_denied" || error === "authorization_denied")
			return { status: "failed", message: "xAI device authorization was denied" };
		if (error === "expired_token") return { status: "failed", message: "xAI device code expired" };
		return { status: "failed", message: failure("device token polling", reply).message };
	});
}

async function refresh(deps: ResolvedDeps, credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	const reply = await post(
		deps,
		XAI_TOKEN_URL,
		{ grant_type: "refresh_token", client_id: XAI_CLIENT_ID, refresh_token: credential.refresh },
		signal,
	);
	if (!reply.ok) throw failure("token refresh", reply);
	return toCredential(reply.json, deps.clock.now(), credential.refresh);
}

/** The xAI login; `deps` replaces fetch, the clock or the environment (tests). */
export function createXaiOAuth(deps?: DeviceLoginDeps): OAuthAuth {
	const resolved = resolveDeps(deps);
	return {
		name: "xAI (Grok/X subscription)",
		isSubscription: true,
		loginLabel: "Sign in with SuperGrok or X Premium",
		login: (interaction) => login(resolved, interaction),
		refresh: (credential, signal) => refresh(resolved, credential, signal),
		toAuth: async (credential) => ({ apiKey: credential.access }),
	};
}

export const xaiOAuth: OAuthAuth = createXaiOAuth();
