/**
 * GitHub Copilot's login against the loopback stand-in: the enterprise prompt, GitHub's device flow, the Copilot
 * token exchange, the account's model list (and switching on unconfigured models), the auth.json shape, the
 * request auth (`toAuth`: key and the base URL from the token's proxy-ep), refresh, and the per-request headers.
 * Expected values are facts read from pi-ai 0.87.1 (dist/auth/oauth/github-copilot.js,
 * dist/api/github-copilot-headers.js, providers/github-copilot.js), not a side-by-side run: pi-ai's flow has no
 * endpoint override to point it at the stand-in.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
	createGitHubCopilotOAuth,
	filterCopilotModels,
	normalizeEnterpriseDomain,
} from "../../../../src/ai/auth/oauth/github-copilot.ts";
import { copilotBaseUrl } from "../../../../src/ai/auth/oauth/github-copilot-models.ts";
import { copilotRequestHeaders } from "../../../../src/ai/providers/github-copilot-headers.ts";
import type { Message } from "../../../../src/ai/types.ts";
import {
	type OAuthDeviceServer,
	scriptedInteraction,
	startOAuthDeviceServer,
	USER_CODE,
	virtualClock,
} from "../../../support/oauth-device-server.ts";

const CLIENT_ID = "Iv1.b507a08c87ecfe98";
const COPILOT_HEADERS = {
	"user-agent": "GitHubCopilotChat/0.35.0",
	"editor-version": "vscode/1.107.0",
	"editor-plugin-version": "copilot-chat/0.35.0",
	"copilot-integration-id": "vscode-chat",
};
let server: OAuthDeviceServer;
let clock: ReturnType<typeof virtualClock>;
const deps = () => ({ env: { PI_OAUTH_TEST_ORIGIN: server.origin }, clock });

beforeEach(() => {
	server = startOAuthDeviceServer();
	clock = virtualClock();
});
afterEach(() => server.stop());

describe("GitHub Copilot login", () => {
	test("github.com: device flow, Copilot token, models; auth.json shape and request auth", async () => {
		server.script([
			{ error: "authorization_pending" },
			{ error: "authorization_pending" },
			{ error: "slow_down", interval: 10 },
		]);
		const run = scriptedInteraction([""]);
		const auth = createGitHubCopilotOAuth(deps());
		const credential = await auth.login(run.interaction);
		expect(run.prompts).toEqual([
			{ type: "text", message: "GitHub Enterprise URL/domain (blank for github.com)", placeholder: "company.ghe.com" },
		]);
		const [device] = server.requestsTo("/login/device/code");
		expect(device?.body).toEqual({ client_id: CLIENT_ID, scope: "read:user" });
		expect(device?.headers["user-agent"]).toBe("GitHubCopilotChat/0.35.0");
		const polls = server.requestsTo("/login/oauth/access_token");
		expect(polls).toHaveLength(4);
		expect(polls[0]?.body).toEqual({
			client_id: CLIENT_ID,
			device_code: "dev-code-123",
			grant_type: "urn:ietf:params:oauth:grant-type:device_code",
		});
		expect(clock.sleeps).toEqual([5000, 5000, 5000, 10000]);
		const [exchange] = server.requestsTo("/copilot_internal/v2/token");
		expect(exchange?.method).toBe("GET");
		expect(exchange?.headers).toMatchObject({ ...COPILOT_HEADERS, authorization: `Bearer ${credential.refresh}` });
		const [models] = server.requestsTo("/models");
		expect(models?.headers).toMatchObject({
			...COPILOT_HEADERS,
			authorization: `Bearer ${credential.access}`,
			"x-github-api-version": "2026-06-01",
		});
		const policies = server.requests.filter((r) => r.path.endsWith("/policy"));
		expect(policies.map((r) => r.path)).toEqual(["/models/claude-sonnet-4.6/policy"]);
		expect(policies[0]?.body).toEqual({ state: "enabled" });
		expect(policies[0]?.headers).toMatchObject({ "openai-intent": "chat-policy", "x-interaction-type": "chat-policy" });
		expect(run.events).toEqual([
			{
				type: "device_code",
				userCode: USER_CODE,
				verificationUri: "https://github.com/login/device",
				intervalSeconds: 5,
				expiresInSeconds: 900,
			},
			{ type: "progress", message: "Enabling models..." },
		]);
		expect(Object.keys(credential).sort()).toEqual(["access", "availableModelIds", "expires", "refresh", "type"]);
		expect(credential.refresh).toStartWith("gho-");
		expect(credential.access).toContain("proxy-ep=proxy.individual.githubcopilot.com");
		expect(credential.expires).toBe(1_999_999_999_000 - 300_000);
		expect(credential.availableModelIds).toEqual(["gpt-5.4", "gpt-5-mini", "claude-sonnet-4.6", "not-in-catalogue"]);
		expect(await auth.toAuth(credential)).toEqual({
			apiKey: credential.access,
			baseUrl: "https://api.individual.githubcopilot.com",
		});
	});

	test("enterprise domain: requests go to <domain> and api.<domain>; stored as enterpriseUrl", async () => {
		const hosts: string[] = [];
		const routed = (url: string, init: RequestInit) => {
			const target = new URL(url);
			hosts.push(`${target.host}${target.pathname}`);
			return fetch(`${server.origin}${target.pathname}${target.search}`, init);
		};
		const run = scriptedInteraction(["https://company.ghe.com/some/path"]);
		const auth = createGitHubCopilotOAuth({ env: {}, clock, fetch: routed });
		const credential = await auth.login(run.interaction);
		expect(hosts.slice(0, 3)).toEqual([
			"company.ghe.com/login/device/code",
			"company.ghe.com/login/oauth/access_token",
			"api.company.ghe.com/copilot_internal/v2/token",
		]);
		// the token's proxy-ep names the API host
		expect(hosts[3]).toBe("api.individual.githubcopilot.com/models");
		expect(credential.enterpriseUrl).toBe("company.ghe.com");
		const tokenWithoutProxy = { ...credential, access: "tid=1;exp=2" };
		expect((await auth.toAuth(tokenWithoutProxy)).baseUrl).toBe("https://copilot-api.company.ghe.com");
	});

	test("a bad enterprise domain, a denied or expired device code", async () => {
		const auth = createGitHubCopilotOAuth(deps());
		await expect(auth.login(scriptedInteraction(["http://"]).interaction)).rejects.toThrow(
			"Invalid GitHub Enterprise URL/domain",
		);
		server.script([{ error: "access_denied", error_description: "The user has denied your application access." }]);
		await expect(auth.login(scriptedInteraction([""]).interaction)).rejects.toThrow(
			"Device flow failed: access_denied: The user has denied your application access.",
		);
		server.script([{ error: "expired_token" }]);
		await expect(auth.login(scriptedInteraction([""]).interaction)).rejects.toThrow(
			"Device flow failed: expired_token",
		);
	});

	test("cancelled at the enterprise prompt or while waiting for approval: 'Login cancelled', no token request", async () => {
		const atPrompt = scriptedInteraction([""]);
		const prompt = atPrompt.interaction.prompt;
		atPrompt.interaction.prompt = async (p) => {
			atPrompt.controller.abort();
			return prompt(p);
		};
		await expect(createGitHubCopilotOAuth(deps()).login(atPrompt.interaction)).rejects.toThrow("Login cancelled");
		expect(server.requests).toHaveLength(0);
		server.script(Array.from({ length: 20 }, () => ({ error: "authorization_pending" })));
		const waiting = scriptedInteraction([""]);
		const sleep = clock.sleep;
		const cancelling = {
			now: clock.now,
			sleep: (ms: number, signal: AbortSignal) => {
				if (server.requestsTo("/login/oauth/access_token").length === 1) waiting.controller.abort();
				return sleep(ms, signal);
			},
		};
		await expect(createGitHubCopilotOAuth({ ...deps(), clock: cancelling }).login(waiting.interaction)).rejects.toThrow(
			"Login cancelled",
		);
		expect(server.requestsTo("/login/oauth/access_token")).toHaveLength(1);
		expect(server.requestsTo("/copilot_internal/v2/token")).toHaveLength(0);
	});

	test("refresh exchanges the GitHub token again and re-reads the models; a revoked GitHub token fails", async () => {
		const auth = createGitHubCopilotOAuth(deps());
		const credential = await auth.login(scriptedInteraction([""]).interaction);
		const next = await auth.refresh(credential, new AbortController().signal);
		expect(next.refresh).toBe(credential.refresh);
		expect(next.access).not.toBe(credential.access);
		expect(next.availableModelIds).toEqual(["gpt-5.4", "gpt-5-mini", "claude-sonnet-4.6", "not-in-catalogue"]);
		server.revoke(credential.refresh);
		const error = await auth.refresh(next, new AbortController().signal).catch((e: Error) => e);
		expect(String(error)).toContain("401");
		expect(String(error)).not.toContain(credential.refresh);
	});
});

describe("GitHub Copilot helpers", () => {
	test("enterprise input, base URL from the token, model filter", () => {
		expect(normalizeEnterpriseDomain("  ")).toBeUndefined();
		expect(normalizeEnterpriseDomain("company.ghe.com")).toBe("company.ghe.com");
		expect(normalizeEnterpriseDomain("https://Company.GHE.com:8443/x")).toBe("company.ghe.com");
		expect(copilotBaseUrl("tid=1;proxy-ep=proxy.business.githubcopilot.com;x=1")).toBe(
			"https://api.business.githubcopilot.com",
		);
		expect(copilotBaseUrl("tid=1")).toBe("https://api.individual.githubcopilot.com");
		const models = [{ id: "a" }, { id: "b" }];
		expect(filterCopilotModels(models, { type: "oauth", availableModelIds: ["b"] })).toEqual([{ id: "b" }]);
		expect(filterCopilotModels(models, { type: "oauth" })).toEqual(models);
		expect(filterCopilotModels(models, { type: "api_key", availableModelIds: ["b"] })).toEqual(models);
	});

	test("per-request headers: X-Initiator, Openai-Intent, Copilot-Vision-Request", () => {
		const model = { provider: "github-copilot" };
		const user: Message = { role: "user", content: "hi", timestamp: 0 };
		const image: Message = {
			role: "user",
			content: [{ type: "image", data: "AA==", mimeType: "image/png" }],
			timestamp: 0,
		};
		const result: Message = {
			role: "toolResult",
			toolCallId: "1",
			toolName: "read",
			content: [{ type: "image", data: "AA==", mimeType: "image/png" }],
			isError: false,
			timestamp: 0,
		};
		expect(copilotRequestHeaders(model, [user])).toEqual({
			"X-Initiator": "user",
			"Openai-Intent": "conversation-edits",
		});
		expect(copilotRequestHeaders(model, [image, result])).toEqual({
			"X-Initiator": "agent",
			"Openai-Intent": "conversation-edits",
			"Copilot-Vision-Request": "true",
		});
		expect(copilotRequestHeaders(model, [])).toEqual({ "X-Initiator": "user", "Openai-Intent": "conversation-edits" });
		expect(copilotRequestHeaders({ provider: "openai" }, [image])).toEqual({});
	});
});
