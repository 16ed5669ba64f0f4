/**
 * Meta (Muse subscription) login, as pi-ai 0.87.1 does it: an RFC 8628 device code from auth.meta.com gives an
 * identity token that inference does not accept; it is exchanged at api.meta.ai's Muse Code key endpoint for a
 * Model API key that lives about a day. auth.json keeps the identity token as `refresh` and the key as `access`
 * (`expires` one day after minting), so "refreshing" mints a new key. The identity token itself cannot be
 * renewed: a 401/403 from the key endpoint asks the user to log in again.
 */
import type { OAuthAuth, ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import { LOGIN_CANCELLED } from "./device-code.ts";
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

export const META_CLIENT_ID = "1031625952748946";
export const META_DEVICE_AUTHORIZATION_URL = "https://auth.meta.com/oidc/device/authorization/";
export const META_DEVICE_TOKEN_URL = "https://auth.meta.com/oidc/device/token/";
export const META_API_KEY_URL = "https://api.meta.ai/muse-code/key";
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 30_000;
const HEADERS = { Accept: "application/json" };

/** ": <first of error_description, detail, message, error>" or "". */
function detail(json: JsonObject | null): string {
	for (const key of ["error_description", "detail", "message", "error"]) {
		const value = json?.[key];
		if (typeof value === "string" && value.trim()) return `: ${value.trim()}`;
	}
	return "";
}

async function mintApiKey(deps: ResolvedDeps, identityToken: string, signal: AbortSignal): Promise<OAuthCredential> {
	const reply = await requestJson(deps, META_API_KEY_URL, {
		method: "POST",
		headers: {
			Accept: "application/json",
			Authorization: `Bearer ${identityToken}`,
			"Content-Type": "application/json",
			"x-api-version": "1.0.0",
		},
		body: "{}",
		signal,
		timeoutMs: TIMEOUT_MS,
	});
	if (reply.status === 401 || reply.status === 403)
		throw new Error(
			`Meta session expired (status ${reply.status}). Run \`/login meta\` to sign in again.${detail(reply.json)}`,
		);
	if (!reply.ok) throw new Error(`Meta API key mint failed with status ${reply.status}${detail(reply.json)}`);
	const apiKey = nonEmptyString(reply.json?.api_key);
	if (!apiKey) {
		const action = trustedUrl(reply.json?.action_url);
		throw new Error(`Meta did not issue an API key.${action ? ` Complete setup at ${action}` : ""}`);
	}
	return { type: "oauth", refresh: identityToken, access: apiKey, expires: deps.clock.now() + KEY_LIFETIME_MS };
}

async function signIn(deps: ResolvedDeps, interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const { signal } = interaction;
	const start = await requestJson(deps, META_DEVICE_AUTHORIZATION_URL, {
		headers: HEADERS,
		form: { client_id: META_CLIENT_ID },
		signal,
		timeoutMs: TIMEOUT_MS,
	});
	if (!start.ok) throw new Error(`Meta device authorization failed with status ${start.status}${detail(start.json)}`);
	const deviceCode = nonEmptyString(start.json?.device_code);
	const userCode = nonEmptyString(start.json?.user_code);
	const verificationUri = trustedUrl(start.json?.verification_uri_complete) ?? trustedUrl(start.json?.verification_uri);
	if (!deviceCode || !userCode || !verificationUri)
		throw new Error(
			"Invalid Meta device authorization response: needs device_code, user_code and an http(s) verification_uri",
		);
	const intervalSeconds = positiveNumber(start.json?.interval);
	const expiresInSeconds = positiveNumber(start.json?.expires_in);
	const code = { userCode, verificationUri, intervalSeconds, expiresInSeconds };
	const identityToken = await showCodeAndPoll<string>(deps, interaction, code, async () => {
		const reply = await requestJson(deps, META_DEVICE_TOKEN_URL, {
			headers: HEADERS,
			form: {
				grant_type: "urn:ietf:params:oauth:grant-type:device_code",
				device_code: deviceCode,
				client_id: META_CLIENT_ID,
			},
			signal,
			timeoutMs: TIMEOUT_MS,
		});
		const token = nonEmptyString(reply.json?.access_token);
		if (reply.ok && token) return { status: "complete", value: token };
		const standard = standardPoll(reply.json);
		if (standard) return standard;
		if (reply.json?.error === "access_denied") return { status: "failed", message: "Meta login was denied." };
		if (reply.json?.error === "expired_token")
			return { status: "failed", message: "Meta device authorization expired. Please restart login." };
		return {
			status: "failed",
			message: `Meta device token request failed with status ${reply.status}${detail(reply.json)}`,
		};
	});
	interaction.notify({ type: "progress", message: "Enabling Meta Model API access..." });
	return mintApiKey(deps, identityToken, signal);
}

async function login(deps: ResolvedDeps, interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	try {
		return await signIn(deps, interaction);
	} catch (error) {
		if (interaction.signal.aborted) throw new Error(LOGIN_CANCELLED);
		throw error;
	}
}

/** The Meta login; `deps` replaces fetch, the clock or the environment (tests). */
export function createMetaOAuth(deps?: DeviceLoginDeps): OAuthAuth {
	const resolved = resolveDeps(deps);
	return {
		name: "Meta (Muse subscription)",
		isSubscription: true,
		loginLabel: "Sign in with Meta",
		login: (interaction) => login(resolved, interaction),
		refresh: (credential, signal) => mintApiKey(resolved, credential.refresh, signal),
		toAuth: async (credential) => ({ apiKey: credential.access }),
	};
}

export const metaOAuth: OAuthAuth = createMetaOAuth();
