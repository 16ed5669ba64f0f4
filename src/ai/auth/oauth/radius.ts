/**
 * Radius gateway sign-in (pi-ai 0.87.1's `createRadiusOAuth`). The gateway (default https://radius.pi.dev) hosts the
 * OAuth client endpoints itself: `GET /v1/oauth` names the browser's authorization endpoint, `POST /v1/oauth/token`
 * takes every grant (form-encoded) and `POST /v1/oauth/device` starts a device-code login. The user picks one of two
 * methods: the browser (authorization code with PKCE, callback on `http://127.0.0.1:1456/oauth/callback`; a pasted
 * redirect URL works too) or a device code (RFC 8628, polled at once and then every interval). auth.json keeps
 * `{type:"oauth", access, refresh, expires, scope}` with `expires` one minute before the token's real expiry; the
 * access token is the request's API key.
 */
import type { ModelAuth, OAuthAuth, ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import { waitForAuthorizationCode } from "./browser-login.ts";
import { pollDeviceAuthorization } from "./device-code.ts";
import { type DeviceLoginDeps, type JsonReply, type ResolvedDeps, requestJson, resolveDeps } from "./device-http.ts";
import { oauthEndpoint } from "./endpoints.ts";
import { createPkce, randomState } from "./pkce.ts";
import { DEFAULT_RADIUS_GATEWAY, normalizeRadiusGatewayUrl } from "./radius-gateway.ts";
import { OAuthTokenError } from "./token-request.ts";

export { DEFAULT_RADIUS_GATEWAY, normalizeRadiusGatewayUrl } from "./radius-gateway.ts";
export const RADIUS_CLIENT_ID = "pi-gateway";
export const RADIUS_SCOPE = "gateway offline_access";
export const RADIUS_CALLBACK_PORT = 1456;
const CALLBACK_PATH = "/oauth/callback";
const REDIRECT_URI = `http://127.0.0.1:${RADIUS_CALLBACK_PORT}${CALLBACK_PATH}`;
const EXPIRY_SKEW_MS = 60_000;
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const REQUEST_TIMEOUT_MS = 30_000;

export interface RadiusOAuthOptions {
	/** The provider's display name (the prompts name it). */
	name: string;
	/** The gateway: a host or an http(s) URL. */
	gateway: string;
}

function clip(text: string, max = 200): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** The error of a refused OAuth request: `<what>: <error>[: <description>]` (pi's shape), or the status. */
function refusal(reply: JsonReply, what: string): OAuthTokenError {
	const code = typeof reply.json?.error === "string" ? reply.json.error : undefined;
	const description =
		typeof reply.json?.error_description === "string" ? clip(reply.json.error_description) : undefined;
	const detail = code ? (description ? `${code}: ${description}` : code) : (description ?? `HTTP ${reply.status}`);
	return new OAuthTokenError(`${what}: ${detail}`, { status: reply.status, ...(code ? { oauthError: code } : {}) });
}

function credentialFrom(reply: JsonReply, previous?: OAuthCredential): OAuthCredential {
	const body = reply.json;
	const access = body?.access_token;
	const expiresIn = body?.expires_in;
	if (typeof access !== "string" || !access || typeof expiresIn !== "number" || !Number.isFinite(expiresIn)) {
		throw new OAuthTokenError("Radius OAuth token answer has no access_token/expires_in", { status: reply.status });
	}
	const refresh =
		typeof body?.refresh_token === "string" && body.refresh_token ? body.refresh_token : previous?.refresh;
	if (!refresh) throw new OAuthTokenError("Radius OAuth token answer has no refresh_token", { status: reply.status });
	return {
		type: "oauth",
		access,
		refresh,
		expires: Date.now() + expiresIn * 1000 - EXPIRY_SKEW_MS,
		...(typeof body?.scope === "string" ? { scope: body.scope } : {}),
	};
}

/** The Radius OAuth methods against one gateway. `deps` replaces fetch, the clock and the environment in tests. */
export function createRadiusOAuth(options: RadiusOAuthOptions, deps?: DeviceLoginDeps): OAuthAuth {
	const gateway = normalizeRadiusGatewayUrl(options.gateway);
	const { name } = options;
	const resolved: ResolvedDeps = resolveDeps(deps);
	const at = (path: string) => new URL(path, gateway).toString();

	const tokenRequest = async (form: Record<string, string>, signal: AbortSignal): Promise<JsonReply> => {
		let reply: JsonReply;
		try {
			reply = await requestJson(resolved, at("/v1/oauth/token"), {
				headers: { Accept: "application/json" },
				form,
				signal,
				timeoutMs: REQUEST_TIMEOUT_MS,
			});
		} catch (error) {
			if (signal.aborted) throw error;
			throw new OAuthTokenError(`Radius OAuth token request: cannot reach ${new URL(gateway).host}`, { cause: error });
		}
		if (!reply.ok) throw refusal(reply, "Radius OAuth token request failed");
		return reply;
	};

	const browserLogin = async (interaction: ProviderAuthInteraction): Promise<OAuthCredential> => {
		const { signal } = interaction;
		const discovery = await requestJson(resolved, at("/v1/oauth"), {
			headers: { Accept: "application/json" },
			signal,
			timeoutMs: REQUEST_TIMEOUT_MS,
		});
		if (!discovery.ok) {
			throw new Error(`Could not load Radius OAuth config from ${gateway}: HTTP ${discovery.status}`);
		}
		const endpoint = discovery.json?.authorizationEndpoint;
		let authorize: URL;
		try {
			if (typeof endpoint !== "string") throw new Error("no authorizationEndpoint");
			authorize = new URL(oauthEndpoint(endpoint, resolved.env));
			if (authorize.protocol !== "https:" && authorize.protocol !== "http:") throw new Error("not http(s)");
		} catch {
			throw new Error(`Invalid Radius OAuth config from ${gateway}`);
		}
		const { verifier, challenge } = await createPkce();
		const state = randomState();
		const params: Record<string, string> = {
			response_type: "code",
			client_id: RADIUS_CLIENT_ID,
			redirect_uri: REDIRECT_URI,
			scope: RADIUS_SCOPE,
			code_challenge: challenge,
			code_challenge_method: "S256",
			handoff: "url",
			state,
		};
		authorize.search = new URLSearchParams(params).toString();
		interaction.notify({ type: "progress", message: `Listening for OAuth callback on ${REDIRECT_URI}` });
		const code = await waitForAuthorizationCode(interaction, {
			providerName: name,
			authorizeUrl: () => authorize.toString(),
			redirectUri: REDIRECT_URI,
			port: RADIUS_CALLBACK_PORT,
			path: CALLBACK_PATH,
			state,
			instructions: "Continue in your browser.",
			env: resolved.env,
		});
		const reply = await tokenRequest(
			{
				grant_type: "authorization_code",
				client_id: RADIUS_CLIENT_ID,
				redirect_uri: REDIRECT_URI,
				code: code.code,
				code_verifier: verifier,
			},
			signal,
		);
		return credentialFrom(reply);
	};

	const deviceLogin = async (interaction: ProviderAuthInteraction): Promise<OAuthCredential> => {
		const { signal } = interaction;
		const start = await requestJson(resolved, at("/v1/oauth/device"), {
			headers: { Accept: "application/json" },
			form: { client_id: RADIUS_CLIENT_ID, scope: RADIUS_SCOPE },
			signal,
			timeoutMs: REQUEST_TIMEOUT_MS,
		});
		if (!start.ok) throw refusal(start, "Radius OAuth device authorization failed");
		const device = start.json ?? {};
		const { device_code: deviceCode, user_code: userCode, verification_uri: verificationUri } = device;
		const expiresIn = device.expires_in;
		const interval = typeof device.interval === "number" && device.interval > 0 ? device.interval : undefined;
		if (
			typeof deviceCode !== "string" ||
			!deviceCode ||
			typeof userCode !== "string" ||
			!userCode ||
			typeof verificationUri !== "string" ||
			!/^https?:\/\//i.test(verificationUri) ||
			typeof expiresIn !== "number" ||
			!(expiresIn > 0)
		) {
			throw new Error("Radius OAuth device authorization response is missing required fields");
		}
		interaction.notify({
			type: "device_code",
			userCode,
			verificationUri,
			...(interval !== undefined ? { intervalSeconds: interval } : {}),
			expiresInSeconds: expiresIn,
		});
		return pollDeviceAuthorization<OAuthCredential>({
			...(interval !== undefined ? { intervalSeconds: interval } : {}),
			expiresInSeconds: expiresIn,
			signal,
			clock: resolved.clock,
			poll: async () => {
				try {
					const reply = await tokenRequest(
						{ grant_type: DEVICE_GRANT, client_id: RADIUS_CLIENT_ID, device_code: deviceCode },
						signal,
					);
					return { status: "complete", value: credentialFrom(reply) };
				} catch (error) {
					const code = error instanceof OAuthTokenError ? error.oauthError : undefined;
					if (code === "authorization_pending") return { status: "pending" };
					if (code === "slow_down") return { status: "slow_down" };
					if (code === "expired_token") return { status: "failed", message: "Device authorization expired." };
					if (code === "access_denied") return { status: "failed", message: "Device authorization was denied." };
					throw error;
				}
			},
		});
	};

	return {
		name,
		async login(interaction) {
			const method = await interaction.prompt({
				type: "select",
				message: `Sign in to ${name}:`,
				options: [
					{ id: "browser", label: "Sign in with browser (recommended)" },
					{ id: "device-code", label: "Sign in with device code (when signing in from another device)" },
				],
				signal: interaction.signal,
			});
			if (method === "device-code") return deviceLogin(interaction);
			if (method === "browser") return browserLogin(interaction);
			throw new Error(`Unknown ${name} sign-in method: ${method}`);
		},
		async refresh(current, signal) {
			const reply = await tokenRequest(
				{ grant_type: "refresh_token", client_id: RADIUS_CLIENT_ID, refresh_token: current.refresh },
				signal,
			);
			return credentialFrom(reply, current);
		},
		async toAuth(credential: OAuthCredential): Promise<ModelAuth> {
			return { apiKey: credential.access };
		},
	};
}

/** The built-in `radius` provider's sign-in (the default gateway). */
export const radiusOAuth: OAuthAuth = createRadiusOAuth({ name: "Radius", gateway: DEFAULT_RADIUS_GATEWAY });
