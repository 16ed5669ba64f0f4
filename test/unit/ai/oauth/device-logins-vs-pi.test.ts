/**
 * The four device-code logins side by side with pi-ai 0.87.1's own flows (its `auth/oauth/*.js` under Node 22 from
 * the conformance cache). pi-ai's flows take no endpoint override, so under Node `fetch` is wrapped to send each
 * request to a stand-in (same path and query); ours go through `PI_OAUTH_TEST_ORIGIN`. Both sides meet stand-ins
 * scripted alike (pending, slow_down, success) and issuing the same tokens; the requests (method, path, body, the
 * headers each flow sets), the prompts and notifications, the stored credential and `toAuth` must be equal.
 * pi-ai really waits (1 s per poll), so the four of it run at once. Without the cache the test skips, saying why.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { DeviceLoginDeps } from "../../../../src/ai/auth/oauth/device-http.ts";
import { createGitHubCopilotOAuth } from "../../../../src/ai/auth/oauth/github-copilot.ts";
import { createKimiCodingOAuth } from "../../../../src/ai/auth/oauth/kimi-coding.ts";
import { createMetaOAuth } from "../../../../src/ai/auth/oauth/meta.ts";
import { createXaiOAuth } from "../../../../src/ai/auth/oauth/xai.ts";
import type { OAuthAuth } from "../../../../src/ai/auth/provider-auth-types.ts";
import { runInPi, runnablePi } from "../../../helpers/side-by-side.ts";
import {
	type OAuthDeviceServer,
	type RecordedRequest,
	scriptedInteraction,
	startOAuthDeviceServer,
	virtualClock,
} from "../../../support/oauth-device-server.ts";

const PROVIDERS = ["xai", "kimi", "meta", "copilot"] as const;
type Provider = (typeof PROVIDERS)[number];
const PI_EXPORTS: Record<Provider, string> = {
	xai: "loadXaiOAuth",
	kimi: "loadKimiCodingOAuth",
	meta: "loadMetaOAuth",
	copilot: "loadGitHubCopilotOAuth",
};
const OURS: Record<Provider, (deps: DeviceLoginDeps) => OAuthAuth> = {
	xai: createXaiOAuth,
	kimi: createKimiCodingOAuth,
	meta: createMetaOAuth,
	copilot: createGitHubCopilotOAuth,
};
/** Headers a flow sets itself (runtimes add their own accept/user-agent defaults, which are not compared). */
const SET_HEADERS = [
	"authorization",
	"content-type",
	"editor-version",
	"editor-plugin-version",
	"copilot-integration-id",
	"x-github-api-version",
	"openai-intent",
	"x-interaction-type",
	"x-api-version",
];

const servers: OAuthDeviceServer[] = [];
afterAll(() => {
	for (const server of servers) server.stop();
});

function standIn(steps: Steps): OAuthDeviceServer {
	const server = startOAuthDeviceServer({ device: { interval: 1 }, salt: "same" });
	server.script(steps);
	servers.push(server);
	return server;
}

function comparable(requests: RecordedRequest[]) {
	return requests.map((r) => {
		const headers: Record<string, string> = {};
		for (const name of SET_HEADERS) if (r.headers[name] !== undefined) headers[name] = r.headers[name];
		if (r.headers.accept === "application/json") headers.accept = r.headers.accept;
		if (r.headers["user-agent"]?.startsWith("GitHubCopilotChat")) headers["user-agent"] = r.headers["user-agent"];
		return { method: r.method, path: r.path, body: r.body, headers };
	});
}

/** `expires` relative to the end of the login, to the nearest 10 s (Copilot's comes from the server: kept). */
function normalized(provider: Provider, credential: Record<string, unknown>, end: number) {
	if (provider === "copilot") return credential;
	return { ...credential, expires: Math.round(((credential.expires as number) - end) / 10_000) * 10_000 };
}

const PI_BODY = `async (mod, input) => {
	const realFetch = globalThis.fetch;
	const route = (url) => {
		const target = new URL(url);
		for (const [prefix, origin] of input.routes) if (target.pathname.startsWith(prefix)) return origin + target.pathname + target.search;
		throw new Error("unrouted " + url);
	};
	globalThis.fetch = (url, init) => realFetch(route(String(url)), init);
	const run = async (provider) => {
		const oauth = await mod[input.exports[provider]]();
		const prompts = [];
		const events = [];
		const interaction = {
			signal: new AbortController().signal,
			prompt: async (p) => { prompts.push({ type: p.type, message: p.message, placeholder: p.placeholder }); return ""; },
			notify: (e) => events.push(e),
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
	};
	const out = {};
	await Promise.all(input.providers.map(async (p) => { out[p] = await run(p); }));
	return out;
}`;

const pi = runnablePi();
const skip = "error" in pi ? pi.error : undefined;
if (skip) console.log(`skipping device logins vs pi-ai: ${skip}`);

type Steps = Parameters<OAuthDeviceServer["script"]>[0];
const SCENARIOS: Record<string, Steps> = {
	approved: [{ error: "authorization_pending" }, { error: "slow_down", interval: 1 }],
	expired: [{ error: "expired_token" }],
	denied: [{ error: "access_denied", error_description: "user said no" }],
};

/** pi-ai's four logins at once, each against its own stand-in. */
async function piRun(steps: Steps) {
	const piServers = Object.fromEntries(PROVIDERS.map((p) => [p, standIn(steps)])) as Record<
		Provider,
		OAuthDeviceServer
	>;
	const routes = [
		["/oauth2/", piServers.xai.origin],
		["/api/oauth/", piServers.kimi.origin],
		["/oidc/", piServers.meta.origin],
		["/muse-code/", piServers.meta.origin],
		["/login/", piServers.copilot.origin],
		["/copilot_internal/", piServers.copilot.origin],
		["/models", piServers.copilot.origin],
	];
	const input = { routes, exports: PI_EXPORTS, providers: PROVIDERS };
	const results = await runInPi("@earendil-works/pi-ai/dist/auth/oauth/load.js", input, PI_BODY);
	return { servers: piServers, results };
}

async function ourRun(provider: Provider, steps: Steps) {
	const server = standIn(steps);
	const clock = virtualClock();
	const run = scriptedInteraction([""]);
	const oauth = OURS[provider]({ env: { PI_OAUTH_TEST_ORIGIN: server.origin }, clock });
	const signal = new AbortController().signal;
	try {
		const credential = await oauth.login(run.interaction);
		const end = clock.now();
		const refreshed = await oauth.refresh(credential, signal);
		const revoked = await oauth.refresh({ ...credential, refresh: "revoked-token" }, signal).then(
			() => "no error",
			(e: Error) => e.message,
		);
		const auth = await oauth.toAuth(credential);
		return {
			server,
			result: {
				credential,
				end,
				prompts: run.prompts,
				events: run.events,
				auth,
				refreshed,
				refreshEnd: clock.now(),
				revoked,
			},
		};
	} catch (error) {
		return { server, result: { error: (error as Error).message, prompts: run.prompts, events: run.events } };
	}
}

function view(provider: Provider, result: Record<string, any>) {
	if (result.error !== undefined) return result;
	return {
		credential: normalized(provider, result.credential, result.end),
		prompts: result.prompts,
		events: result.events,
		auth: result.auth,
		refreshed: normalized(provider, result.refreshed, result.refreshEnd),
		revoked: result.revoked,
	};
}

describe.skipIf(!!skip)("device-code logins vs pi-ai 0.87.1", () => {
	for (const [scenario, steps] of Object.entries(SCENARIOS)) {
		test(`${scenario}: same requests, notifications, credential, request auth, refreshes / error`, async () => {
			const theirs = await piRun(steps);
			for (const provider of PROVIDERS) {
				const mine = await ourRun(provider, steps);
				expect({ provider, ...view(provider, mine.result) }).toEqual({
					provider,
					...view(provider, theirs.results[provider]),
				});
				expect(comparable(mine.server.requests)).toEqual(comparable(theirs.servers[provider].requests));
			}
		}, 60_000);
	}
});
