/**
 * A loopback stand-in for the device-code authorization servers pi logs in to (GitHub + Copilot, Kimi, Meta, xAI),
 * reached through `PI_OAUTH_TEST_ORIGIN` (or a login's `env`). It speaks each provider's paths, answers the token
 * polls from a script (`authorization_pending`, `slow_down`, `expired_token`, `access_denied`, then success),
 * issues distinct tokens, refreshes them (rotating refresh tokens), refuses revoked ones, and records every request
 * (method, path, headers, form or JSON body) so tests can check what a login sent.
 */

export type PollStep =
	| { error: "authorization_pending" | "expired_token" | "access_denied" | "authorization_denied" }
	| { error: "slow_down"; interval?: number }
	| { error: string; error_description?: string; status?: number }
	| "success";

export interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	/** Form fields or the JSON body. */
	body: Record<string, unknown>;
}

export interface DeviceServerOptions {
	/** Fields merged into every device authorization reply (e.g. `{ interval: 0 }`, `{ expires_in: 30 }`). */
	device?: Record<string, unknown>;
	/** Fields merged into every successful token reply. */
	token?: Record<string, unknown>;
	/** Copilot's `/models` data (default: two picker models and one unconfigured known model). */
	copilotModels?: unknown[];
	/** The `proxy-ep` field of issued Copilot tokens (where requests then go); default Copilot's individual proxy. */
	copilotProxyEp?: string;
	/** Makes the issued tokens repeatable across servers (side-by-side runs); default random. */
	salt?: string;
}

export interface OAuthDeviceServer {
	origin: string;
	requests: RecordedRequest[];
	/** Every token the server handed out (access, refresh, identity, API keys), for secret greps. */
	issued: string[];
	/** Replies to the next token polls, in order; once used up, polls succeed. */
	script(steps: PollStep[]): void;
	revoke(token: string): void;
	/** Off: a refresh answers only `access_token` (no new refresh token, no expires_in) and keeps the old one valid. */
	rotateRefreshTokens(on: boolean): void;
	requestsTo(path: string): RecordedRequest[];
	/** The next `times` requests to `path` get `status` with an error body. */
	failNext(path: string, status: number, times?: number): void;
	/** OpenRouter: the user approves in the "browser"; returns the code the callback receives for `challenge`. */
	approveOpenRouter(challenge: string): string;
	stop(): void;
}

const DEVICE_CODE = "dev-code-123";
export const USER_CODE = "WDJB-MJHT";

const DEFAULT_MODELS = [
	{ id: "gpt-5.4", model_picker_enabled: true, policy: { state: "enabled" }, capabilities: { supports: {} } },
	{ id: "gpt-5-mini", model_picker_enabled: true, policy: { state: "enabled" } },
	{ id: "claude-sonnet-4.6", model_picker_enabled: true, policy: { state: "unconfigured" } },
	{ id: "not-in-catalogue", model_picker_enabled: true, policy: { state: "unconfigured" } },
	{ id: "grok-4.5", model_picker_enabled: true, policy: { state: "disabled" } },
	{ id: "text-embedding", model_picker_enabled: true, capabilities: { supports: { tool_calls: false } } },
];

function json(body: unknown, status = 200): Response {
	return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

async function readBody(request: Request): Promise<Record<string, unknown>> {
	const text = await request.text();
	if (!text) return {};
	if ((request.headers.get("content-type") ?? "").includes("json")) return JSON.parse(text);
	return Object.fromEntries(new URLSearchParams(text));
}

export function startOAuthDeviceServer(options: DeviceServerOptions = {}): OAuthDeviceServer {
	const requests: RecordedRequest[] = [];
	const issued: string[] = [];
	const revoked = new Set<string>();
	const refreshTokens = new Set<string>();
	let steps: PollStep[] = [];
	let counter = 0;
	let rotate = true;
	const salt = options.salt ?? Math.random().toString(36).slice(2, 10);
	const mint = (kind: string) => {
		const token = `${kind}-${++counter}-${salt}`;
		issued.push(token);
		return token;
	};
	let origin = "";
	const openRouterCodes = new Map<string, string>();
	const failures = new Map<string, { status: number; times: number }>();
	const approveOpenRouter = (challenge: string) => {
		const code = mint("or-code");
		openRouterCodes.set(code, challenge);
		return code;
	};
	const s256 = async (verifier: string) => {
		const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
		return Buffer.from(digest).toString("base64url");
	};

	const deviceReply = (verification: string) =>
		json({
			device_code: DEVICE_CODE,
			user_code: USER_CODE,
			verification_uri: verification,
			verification_uri_complete: `${verification}?user_code=${USER_CODE}`,
			expires_in: 900,
			interval: 5,
			...options.device,
		});

	const tokenPair = () => {
		const refresh = mint("rt");
		refreshTokens.add(refresh);
		return {
			access_token: mint("at"),
			refresh_token: refresh,
			expires_in: 3600,
			token_type: "Bearer",
			...options.token,
		};
	};

	/** The next scripted poll reply; `errorStatus` is the HTTP status of an error (GitHub answers 200). */
	const poll = (body: Record<string, unknown>, success: () => unknown, errorStatus = 400): Response => {
		if (body.device_code !== DEVICE_CODE) return json({ error: "invalid_grant" }, errorStatus);
		const step = steps.shift() ?? "success";
		if (step === "success") return json(success());
		const { status, ...reply } = step as { status?: number };
		return json(reply, status ?? errorStatus);
	};

	const refresh = (body: Record<string, unknown>): Response => {
		const token = String(body.refresh_token ?? "");
		if (!refreshTokens.has(token) || revoked.has(token))
			return json({ error: "invalid_grant", error_description: "refresh token revoked" }, 400);
		if (!rotate) return json({ access_token: mint("at"), token_type: "Bearer" });
		refreshTokens.delete(token);
		return json(tokenPair());
	};

	const bearer = (request: Request) => (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");

	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		async fetch(request) {
			const url = new URL(request.url);
			const body = await readBody(request);
			requests.push({
				method: request.method,
				path: url.pathname,
				headers: Object.fromEntries(request.headers),
				body,
			});
			const path = url.pathname;
			const failure = failures.get(path);
			if (failure && failure.times > 0) {
				failure.times--;
				return json({ error: "server_error", error_description: "try again" }, failure.status);
			}
			// xAI
			if (path === "/oauth2/device/code") return deviceReply("https://accounts.x.ai/device");
			if (path === "/oauth2/token") return body.grant_type === "refresh_token" ? refresh(body) : poll(body, tokenPair);
			// Kimi
			if (path === "/api/oauth/device_authorization") return deviceReply("https://www.kimi.com/code/authorize_device");
			if (path === "/api/oauth/token")
				return body.grant_type === "refresh_token" ? refresh(body) : poll(body, tokenPair);
			// Meta
			if (path === "/oidc/device/authorization/") return deviceReply("https://auth.meta.com/device");
			if (path === "/oidc/device/token/") return poll(body, () => ({ access_token: mint("meta-identity") }));
			if (path === "/muse-code/key") {
				const identity = bearer(request);
				if (!issued.includes(identity) || revoked.has(identity)) return json({ detail: "invalid identity token" }, 401);
				return json({ api_key: mint("meta-key") });
			}
			// OpenRouter (and a hook for a browser stand-in in another process)
			if (path === "/test/approve-openrouter")
				return json({ code: approveOpenRouter(url.searchParams.get("challenge") ?? "") });
			if (path === "/api/v1/auth/keys") {
				const challenge = openRouterCodes.get(String(body.code));
				if (!challenge || body.code_challenge_method !== "S256")
					return json({ error: { message: "Invalid authorization code", code: 400 } }, 400);
				if ((await s256(String(body.code_verifier))) !== challenge)
					return json({ error: { message: "Invalid code verifier", code: 403 } }, 403);
				openRouterCodes.delete(String(body.code));
				return json({ key: mint("sk-or-v1"), user_id: "user_1" });
			}
			// GitHub + Copilot
			if (path === "/login/device/code") return deviceReply("https://github.com/login/device");
			if (path === "/login/oauth/access_token")
				return poll(body, () => ({ access_token: mint("gho"), token_type: "bearer", scope: "read:user" }), 200);
			if (path === "/copilot_internal/v2/token") {
				const github = bearer(request);
				if (!issued.includes(github) || revoked.has(github)) return json({ message: "Bad credentials" }, 401);
				const token = `tid=${mint("tid")};exp=1999999999;sku=copilot_individual;proxy-ep=${options.copilotProxyEp ?? "proxy.individual.githubcopilot.com"};8kp=1`;
				issued.push(token);
				return json({ token, expires_at: 1_999_999_999, refresh_in: 1500 });
			}
			if (path === "/models" && request.method === "GET")
				return json({ data: options.copilotModels ?? DEFAULT_MODELS, object: "list" });
			if (/^\/models\/[^/]+\/policy$/.test(path)) return json({ state: "enabled" });
			return json({ error: "not_found", path }, 404);
		},
	});
	origin = `http://127.0.0.1:${server.port}`;
	return {
		origin,
		requests,
		issued,
		script: (next) => {
			steps = [...next];
		},
		revoke: (token) => revoked.add(token),
		rotateRefreshTokens: (on) => {
			rotate = on;
		},
		requestsTo: (path) => requests.filter((r) => r.path === path),
		approveOpenRouter,
		failNext: (path, status, times = 1) => {
			failures.set(path, { status, times });
		},
		stop: () => server.stop(true),
	};
}

/** A clock whose `sleep` returns at once and moves time on, recording each wait (ms). */
export function virtualClock(start = 1_800_000_000_000) {
	let now = start;
	const sleeps: number[] = [];
	return {
		sleeps,
		now: () => now,
		advance: (ms: number) => {
			now += ms;
		},
		sleep: async (ms: number, signal: AbortSignal) => {
			if (signal.aborted) throw new Error("Login cancelled");
			sleeps.push(ms);
			now += ms;
			await Promise.resolve();
			if (signal.aborted) throw new Error("Login cancelled");
		},
	};
}

export interface ScriptedEvent {
	type: string;
	[field: string]: unknown;
}

/** An `AuthInteraction` that answers prompts from a list and records prompts and notifications. */
export function scriptedInteraction(answers: string[] = [], controller = new AbortController()) {
	const prompts: { type: string; message: string; placeholder?: string }[] = [];
	const events: ScriptedEvent[] = [];
	return {
		controller,
		prompts,
		events,
		interaction: {
			signal: controller.signal,
			prompt: async (prompt: { type: string; message: string; placeholder?: string }) => {
				prompts.push({ type: prompt.type, message: prompt.message, placeholder: prompt.placeholder });
				return answers.shift() ?? "";
			},
			notify: (event: ScriptedEvent) => {
				events.push(event);
			},
		},
	};
}
