/**
 * A loopback OAuth 2 authorization server for login tests (point `PI_OAUTH_TEST_ORIGIN` at `url`). It speaks what
 * the built-in logins use: authorization code with PKCE (S256 checked against the verifier), refresh grants with
 * rotating refresh tokens, revoked refresh tokens (`invalid_grant`), JSON or form bodies on any `…/token` path.
 * Everything is recorded; `refreshCount()` counts refresh requests. Further endpoints (a device-code flow) plug in
 * with `route(method, path, handler)`, answered before the built-in ones.
 */

export interface OAuthServerOptions {
	/** Access token for grant number `n` (default `sk-ant-oat01-test-<n>`). */
	accessToken?: (n: number, clientId: string | undefined) => string;
	/** Lifetime of issued access tokens, seconds (default 3600). */
	expiresIn?: number;
	/** Delay before answering a refresh grant, ms (widens races in tests). */
	refreshDelayMs?: number;
}

export interface AuthorizationRequest {
	clientId: string;
	redirectUri: string;
	challenge: string;
	method: string;
	state: string | undefined;
	scope: string | undefined;
	params: Record<string, string>;
}

export interface RecordedOAuthRequest {
	method: string;
	path: string;
	contentType: string;
	fields: Record<string, string>;
}

export type RouteHandler = (request: Request, fields: Record<string, string>) => Response | Promise<Response>;

export interface OAuthTestServer {
	url: string;
	requests: RecordedOAuthRequest[];
	/** Issues a code for the authorize URL a login printed; the redirect URL the browser would be sent to. */
	approve(authorizeUrl: string): string;
	/** The `error=access_denied` redirect a refusing user would cause. */
	deny(authorizeUrl: string): string;
	/** Makes a refresh token unusable (the next refresh with it gets `invalid_grant`). */
	revoke(refreshToken: string): void;
	/** A refresh token the server accepts (for tests that write auth.json themselves). */
	issueRefreshToken(): string;
	refreshCount(): number;
	route(method: string, path: string, handler: RouteHandler): void;
	stop(): void;
}

async function readFields(request: Request): Promise<Record<string, string>> {
	const type = request.headers.get("content-type") ?? "";
	const text = await request.text();
	if (!text) return {};
	if (type.includes("application/json")) {
		const parsed = JSON.parse(text) as Record<string, unknown>;
		return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
	}
	return Object.fromEntries(new URLSearchParams(text));
}

async function s256(verifier: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
	return Buffer.from(digest).toString("base64url");
}

function json(status: number, body: unknown): Response {
	return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function startOAuthServer(options: OAuthServerOptions = {}): OAuthTestServer {
	const requests: RecordedOAuthRequest[] = [];
	const codes = new Map<string, AuthorizationRequest>();
	const refreshTokens = new Map<string, { clientId: string | undefined }>();
	const revoked = new Set<string>();
	const routes = new Map<string, RouteHandler>();
	let grants = 0;
	let refreshes = 0;
	const accessToken = options.accessToken ?? ((n: number) => `sk-ant-oat01-test-${n}`);

	const issue = (clientId: string | undefined) => {
		grants++;
		const refresh = `rt-${grants}-${Math.random().toString(36).slice(2)}`;
		refreshTokens.set(refresh, { clientId });
		return {
			token_type: "Bearer",
			access_token: accessToken(grants, clientId),
			refresh_token: refresh,
			expires_in: options.expiresIn ?? 3600,
		};
	};

	const token = async (fields: Record<string, string>): Promise<Response> => {
		if (fields.grant_type === "authorization_code") {
			const grant = codes.get(fields.code ?? "");
			if (!grant) return json(400, { error: "invalid_grant", error_description: "unknown or used code" });
			codes.delete(fields.code ?? "");
			if (fields.client_id !== grant.clientId) return json(400, { error: "invalid_client" });
			if (fields.redirect_uri !== grant.redirectUri)
				return json(400, { error: "invalid_grant", error_description: "redirect_uri" });
			if (!fields.code_verifier || (await s256(fields.code_verifier)) !== grant.challenge) {
				return json(400, { error: "invalid_grant", error_description: "PKCE verification failed" });
			}
			return json(200, issue(grant.clientId));
		}
		if (fields.grant_type === "refresh_token") {
			refreshes++;
			if (options.refreshDelayMs) await Bun.sleep(options.refreshDelayMs);
			const refresh = fields.refresh_token ?? "";
			if (revoked.has(refresh) || !refreshTokens.has(refresh)) {
				return json(400, { error: "invalid_grant", error_description: "refresh token revoked" });
			}
			// Rotation: a refresh token works once.
			refreshTokens.delete(refresh);
			revoked.add(refresh);
			return json(200, issue(fields.client_id));
		}
		return json(400, { error: "unsupported_grant_type" });
	};

	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		async fetch(request) {
			const url = new URL(request.url);
			const fields = request.method === "GET" ? Object.fromEntries(url.searchParams) : await readFields(request);
			requests.push({
				method: request.method,
				path: url.pathname,
				contentType: request.headers.get("content-type") ?? "",
				fields,
			});
			const custom = routes.get(`${request.method} ${url.pathname}`);
			if (custom) return custom(request, fields);
			if (request.method === "POST" && url.pathname.endsWith("/token")) return token(fields);
			return json(404, { error: "not_found" });
		},
	});

	const authorization = (authorizeUrl: string): AuthorizationRequest => {
		const url = new URL(authorizeUrl);
		const params = Object.fromEntries(url.searchParams);
		if (!params.client_id || !params.redirect_uri || !params.code_challenge) {
			throw new Error(`authorize URL lacks client_id, redirect_uri or code_challenge: ${authorizeUrl}`);
		}
		if (params.code_challenge_method !== "S256") throw new Error("authorize URL does not ask for S256");
		return {
			clientId: params.client_id,
			redirectUri: params.redirect_uri,
			challenge: params.code_challenge,
			method: params.code_challenge_method,
			state: params.state,
			scope: params.scope,
			params,
		};
	};

	return {
		url: `http://127.0.0.1:${server.port}`,
		requests,
		approve(authorizeUrl) {
			const grant = authorization(authorizeUrl);
			const code = `code-${Math.random().toString(36).slice(2)}`;
			codes.set(code, grant);
			const back = new URL(grant.redirectUri);
			back.searchParams.set("code", code);
			if (grant.state !== undefined) back.searchParams.set("state", grant.state);
			return back.toString();
		},
		deny(authorizeUrl) {
			const grant = authorization(authorizeUrl);
			const back = new URL(grant.redirectUri);
			back.searchParams.set("error", "access_denied");
			if (grant.state !== undefined) back.searchParams.set("state", grant.state);
			return back.toString();
		},
		revoke(refreshToken) {
			revoked.add(refreshToken);
		},
		issueRefreshToken() {
			return issue(undefined).refresh_token;
		},
		refreshCount: () => refreshes,
		route(method, path, handler) {
			routes.set(`${method.toUpperCase()} ${path}`, handler);
		},
		stop() {
			server.stop(true);
		},
	};
}
