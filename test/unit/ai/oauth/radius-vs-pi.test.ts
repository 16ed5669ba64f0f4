/**
 * The Radius sign-in side by side with pi-ai 0.87.1's `loadRadiusOAuth` (Node 22, conformance cache). Each side
 * gets its own loopback gateway (pi-ai's gateway option points at it directly; ours goes through the same option),
 * issuing the same tokens in the same order. For the browser method and the device-code method (one pending poll)
 * the gateway requests (random PKCE/state values replaced), the method prompt, the notifications, the stored
 * credential, `toAuth`, a refresh and a revoked refresh's message must be equal. Both bind port 1456 in turn.
 * Our login also offers pasting the redirect URL (a `manual_code` prompt pi-ai's Radius flow lacks): not compared.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createRadiusOAuth } from "../../../../src/ai/auth/oauth/radius.ts";
import type { AuthEvent, AuthPrompt } from "../../../../src/ai/index.ts";
import { runInPi, runnablePi } from "../../../helpers/side-by-side.ts";

interface Recorded {
	method: string;
	path: string;
	body: Record<string, string>;
}

const servers: { stop(force?: boolean): void }[] = [];
afterAll(() => {
	for (const server of servers) server.stop(true);
});

async function s256(verifier: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
	return Buffer.from(digest).toString("base64url");
}

/** A Radius gateway stand-in: discovery, authorize approval (test hook), device start, every grant on /token. */
function gateway() {
	const requests: Recorded[] = [];
	const codes = new Map<string, { challenge: string; redirect: string }>();
	const refreshTokens = new Set<string>();
	let n = 0;
	let polls = 0;
	const pair = () => {
		n++;
		refreshTokens.add(`rt-${n}`);
		return { access_token: `at-${n}`, refresh_token: `rt-${n}`, expires_in: 3600, scope: "gateway offline_access" };
	};
	const error = (code: string, description?: string) =>
		Response.json({ error: code, ...(description ? { error_description: description } : {}) }, { status: 400 });
	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		async fetch(request) {
			const url = new URL(request.url);
			if (url.pathname === "/test/approve") {
				const authorize = new URL(url.searchParams.get("url") ?? "");
				const code = `code-${codes.size + 1}`;
				codes.set(code, {
					challenge: authorize.searchParams.get("code_challenge") ?? "",
					redirect: authorize.searchParams.get("redirect_uri") ?? "",
				});
				const back = new URL(authorize.searchParams.get("redirect_uri") ?? "");
				back.searchParams.set("code", code);
				back.searchParams.set("state", authorize.searchParams.get("state") ?? "");
				return Response.json({ redirect: back.toString() });
			}
			const text = await request.text();
			const body = Object.fromEntries(new URLSearchParams(text));
			requests.push({ method: request.method, path: url.pathname, body });
			if (url.pathname === "/v1/oauth" && request.method === "GET")
				return Response.json({ authorizationEndpoint: `${origin}/authorize` });
			if (url.pathname === "/v1/oauth/device")
				return Response.json({
					device_code: "dc-1",
					user_code: "RAD-0001",
					verification_uri: "https://radius.pi.dev/device",
					expires_in: 60,
					interval: 1,
				});
			if (url.pathname === "/v1/oauth/token") {
				if (body.grant_type === "authorization_code") {
					const grant = codes.get(body.code ?? "");
					if (!grant || grant.redirect !== body.redirect_uri) return error("invalid_grant", "bad code");
					if ((await s256(body.code_verifier ?? "")) !== grant.challenge) return error("invalid_grant", "PKCE");
					return Response.json(pair());
				}
				if (body.grant_type === "urn:ietf:params:oauth:grant-type:device_code") {
					if (polls++ === 0) return error("authorization_pending");
					return Response.json(pair());
				}
				if (body.grant_type === "refresh_token") {
					if (!refreshTokens.delete(body.refresh_token ?? "")) return error("invalid_grant", "refresh token revoked");
					return Response.json(pair());
				}
				return error("unsupported_grant_type");
			}
			return Response.json({ error: "not_found" }, { status: 404 });
		},
	});
	servers.push(server);
	const origin: string = `http://127.0.0.1:${server.port}`;
	return { origin, requests };
}

const PI_BODY = `async (mod, input) => {
	const oauth = await mod.loadRadiusOAuth({ name: "Radius", gateway: input.gateway });
	const prompts = [];
	const events = [];
	const interaction = {
		signal: new AbortController().signal,
		prompt: async (p) => { prompts.push({ type: p.type, message: p.message, options: p.options }); return input.method; },
		notify: (e) => {
			events.push(e);
			if (e.type === "auth_url") {
				(async () => {
					const approved = await (await fetch(input.gateway + "/test/approve?url=" + encodeURIComponent(e.url))).json();
					await fetch(approved.redirect);
				})();
			}
		},
	};
	const signal = new AbortController().signal;
	try {
		const credential = await oauth.login(interaction);
		const end = Date.now();
		const refreshed = await oauth.refresh(credential, signal);
		const refreshEnd = Date.now();
		const revoked = await oauth.refresh({ ...credential, refresh: "revoked-token" }, signal).then(() => "no error", (e) => String(e.message));
		return { credential, end, prompts, events, auth: await oauth.toAuth(credential), refreshed, refreshEnd, revoked };
	} catch (error) {
		return { error: String(error.message), prompts, events };
	}
}`;

async function ours(gatewayOrigin: string, method: string) {
	const oauth = createRadiusOAuth({ name: "Radius", gateway: gatewayOrigin }, { env: {} });
	const prompts: unknown[] = [];
	const events: AuthEvent[] = [];
	const signal = new AbortController().signal;
	const interaction = {
		signal,
		prompt: (p: AuthPrompt) => {
			if (p.type !== "select")
				return new Promise<string>((_resolve, reject) =>
					p.signal?.addEventListener("abort", () => reject(new Error("withdrawn")), { once: true }),
				);
			prompts.push({ type: p.type, message: p.message, options: p.options });
			return Promise.resolve(method);
		},
		notify: (e: AuthEvent) => {
			events.push(e);
			if (e.type === "auth_url") {
				void (async () => {
					const approved = (await (
						await fetch(`${gatewayOrigin}/test/approve?url=${encodeURIComponent(e.url)}`)
					).json()) as { redirect: string };
					await fetch(approved.redirect);
				})();
			}
		},
	};
	try {
		const credential = await oauth.login(interaction);
		const end = Date.now();
		const refreshed = await oauth.refresh(credential, signal);
		const refreshEnd = Date.now();
		const revoked = await oauth.refresh({ ...credential, refresh: "revoked-token" }, signal).then(
			() => "no error",
			(e: Error) => e.message,
		);
		return { credential, end, prompts, events, auth: await oauth.toAuth(credential), refreshed, refreshEnd, revoked };
	} catch (error) {
		return { error: (error as Error).message, prompts, events };
	}
}

/** Random values and the gateway's port replaced, `expires` relative to the end of the step (nearest 10 s). */
function view(result: Record<string, any>, origin: string) {
	const scrub = (value: unknown) =>
		JSON.parse(
			JSON.stringify(value)
				.replaceAll(origin, "<gateway>")
				.replace(/(code_challenge|state)=[^&"]+/g, "$1=<random>"),
		);
	const rel = (credential: Record<string, unknown>, end: number) => ({
		...credential,
		expires: Math.round(((credential.expires as number) - end) / 10_000) * 10_000,
	});
	if (result.error !== undefined) return scrub(result);
	return scrub({
		credential: rel(result.credential, result.end),
		prompts: result.prompts,
		events: result.events,
		auth: result.auth,
		refreshed: rel(result.refreshed, result.refreshEnd),
		revoked: result.revoked,
	});
}

function requestsView(requests: Recorded[]) {
	return requests.map((r) => {
		const body = { ...r.body };
		for (const random of ["code_verifier"]) if (body[random]) body[random] = "<random>";
		return { ...r, body };
	});
}

const pi = runnablePi();
const skip = "error" in pi ? pi.error : undefined;
if (skip) console.log(`skipping Radius login vs pi-ai: ${skip}`);

describe.skipIf(!!skip)("Radius login vs pi-ai 0.87.1", () => {
	for (const method of ["browser", "device-code"]) {
		test(`${method}: same requests, prompt, notifications, credential, auth, refreshes`, async () => {
			const theirsGateway = gateway();
			const theirs = await runInPi(
				"@earendil-works/pi-ai/dist/auth/oauth/load.js",
				{ gateway: theirsGateway.origin, method },
				PI_BODY,
			);
			const oursGateway = gateway();
			const mine = await ours(oursGateway.origin, method);
			expect(theirs.error).toBeUndefined();
			expect(view(mine, oursGateway.origin)).toEqual(view(theirs, theirsGateway.origin));
			expect(requestsView(oursGateway.requests)).toEqual(requestsView(theirsGateway.requests));
		}, 20_000);
	}
});
