/**
 * What a stored login changes about a request besides its key, as pi 0.87.1 applies it: a built-in OAuth login's
 * derived base URL (GitHub Copilot: the token's `proxy-ep`) re-points the model, a Copilot login offers only the
 * account's `availableModelIds`, and an API-key entry's `env` (Bedrock's AWS_PROFILE, Vertex's project) reaches
 * the provider's stream. Checked through the registry and through an agent session's request.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuthStorage } from "../../../src/ai/auth/credential-store.ts";
import { createGitHubCopilotOAuth } from "../../../src/ai/auth/oauth/github-copilot.ts";
import { ModelRegistry } from "../../../src/ai/model-registry/index.ts";
import { registerApiProvider, resetApiProviders } from "../../../src/ai/registry.ts";
import { failedStream } from "../../../src/ai/stream.ts";
import type { Model, SimpleStreamOptions } from "../../../src/ai/types.ts";
import { createAgentSession } from "../../../src/runtime/create-session.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

function model(provider: string, id: string, api = "openai-completions"): Model {
	return {
		id,
		name: id,
		api,
		provider,
		baseUrl: `https://${provider}.catalogue.example/v1`,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 4_000,
	};
}

const BUILTINS = [
	model("github-copilot", "gpt-5.4"),
	model("github-copilot", "gpt-5-mini"),
	model("github-copilot", "claude-sonnet-4.6"),
	model("amazon-bedrock", "claude-b", "bedrock-converse-stream"),
];
const TOKEN = "tid=secret-copilot;exp=9999999999;proxy-ep=proxy.copilot.mock.test:8443;sku=x";
const LATER = Date.now() + 3_600_000;

function setup(auth: Record<string, unknown>): ModelRegistry {
	const dir = makeTempDir("pi-glue-");
	writeFileSync(join(dir, "auth.json"), JSON.stringify(auth));
	const copilot = createGitHubCopilotOAuth();
	const authStorage = new AuthStorage(join(dir, "auth.json"), {
		env: {},
		oauthProviders: (provider) => (provider === "github-copilot" ? copilot : undefined),
	});
	return ModelRegistry.create({ modelsJsonPath: undefined, authStorage, builtinModels: () => BUILTINS, env: {} });
}

const copilotLogin = (extra: Record<string, unknown> = {}) => ({
	"github-copilot": { type: "oauth", refresh: "ghu_x", access: TOKEN, expires: LATER, ...extra },
});

afterEach(() => resetApiProviders());

describe("GitHub Copilot login", () => {
	test("only the account's availableModelIds are offered", () => {
		const registry = setup(copilotLogin({ availableModelIds: ["gpt-5-mini", "claude-sonnet-4.6"] }));
		expect(registry.getAvailable().map((m) => m.id)).toEqual(["gpt-5-mini", "claude-sonnet-4.6"]);
		// Every model stays known (pi filters only the available list).
		expect(registry.getAll().filter((m) => m.provider === "github-copilot")).toHaveLength(3);
	});

	test("a login without the list offers every model", () => {
		expect(
			setup(copilotLogin())
				.getAvailable()
				.map((m) => m.id),
		).toEqual(["gpt-5.4", "gpt-5-mini", "claude-sonnet-4.6"]);
	});

	test("requests go to the base URL the token's proxy-ep names", async () => {
		const registry = setup(copilotLogin());
		const copilot = registry.find("github-copilot", "gpt-5.4") as Model;
		expect(await registry.getApiKeyForRequest(copilot)).toBe(TOKEN);
		expect(registry.requestTarget(copilot).model.baseUrl).toBe("https://api.copilot.mock.test:8443");
		const auth = await registry.getApiKeyAndHeaders(copilot);
		expect(auth).toMatchObject({ ok: true, apiKey: TOKEN, baseUrl: "https://api.copilot.mock.test:8443" });
		expect((await registry.getProviderAuth("github-copilot"))?.auth.baseUrl).toBe("https://api.copilot.mock.test:8443");
	});

	test("registry.stream sends the request to that base URL", async () => {
		const registry = setup(copilotLogin());
		const seen: { baseUrl: string; apiKey?: string }[] = [];
		const capture = (m: Model, _c: unknown, o?: SimpleStreamOptions) => {
			seen.push({ baseUrl: m.baseUrl, ...(o?.apiKey ? { apiKey: o.apiKey } : {}) });
			return failedStream(m, "captured");
		};
		registerApiProvider({ api: "openai-completions", stream: capture, streamSimple: capture });
		const copilot = registry.find("github-copilot", "gpt-5.4") as Model;
		await registry.getApiKeyForRequest(copilot);
		await registry.streamSimple(copilot, { messages: [] }).result();
		expect(seen).toEqual([{ baseUrl: "https://api.copilot.mock.test:8443", apiKey: TOKEN }]);
	});

	test("a --api-key for the process replaces the login: the catalogue's base URL", async () => {
		const registry = setup(copilotLogin());
		const copilot = registry.find("github-copilot", "gpt-5.4") as Model;
		await registry.getApiKeyForRequest(copilot);
		registry.authStorage.setRuntimeApiKey("github-copilot", "runtime-key");
		expect(registry.requestTarget(copilot)).toEqual({ model: copilot });
	});
});

describe("stored env", () => {
	const bedrockProfile = { "amazon-bedrock": { type: "api_key", env: { AWS_PROFILE: "work" } } };

	test("a key-less entry's env is the request's env", async () => {
		const registry = setup(bedrockProfile);
		const bedrock = registry.find("amazon-bedrock", "claude-b") as Model;
		expect(registry.requestTarget(bedrock)).toEqual({ model: bedrock, env: { AWS_PROFILE: "work" } });
		expect(await registry.getApiKeyAndHeaders(bedrock)).toEqual({ ok: true, env: { AWS_PROFILE: "work" } });
		registry.authStorage.setRuntimeApiKey("amazon-bedrock", "bearer");
		expect(registry.requestTarget(bedrock)).toEqual({ model: bedrock });
	});

	test("registry.stream passes the env on, the caller's own env winning", async () => {
		const registry = setup(bedrockProfile);
		const seen: unknown[] = [];
		const capture = (m: Model, _c: unknown, o?: SimpleStreamOptions) => {
			seen.push(o?.env);
			return failedStream(m, "captured");
		};
		registerApiProvider({ api: "bedrock-converse-stream", stream: capture, streamSimple: capture });
		const bedrock = registry.find("amazon-bedrock", "claude-b") as Model;
		await registry.streamSimple(bedrock, { messages: [] }).result();
		await registry.streamSimple(bedrock, { messages: [] }, { env: { AWS_PROFILE: "mine", X: "1" } }).result();
		expect(seen).toEqual([{ AWS_PROFILE: "work" }, { AWS_PROFILE: "mine", X: "1" }]);
	});

	test("an agent session hands the login's model and env to its stream", async () => {
		const registry = setup({ ...bedrockProfile, ...copilotLogin() });
		const seen: { provider: string; baseUrl: string; env?: unknown }[] = [];
		for (const [provider, id] of [
			["amazon-bedrock", "claude-b"],
			["github-copilot", "gpt-5.4"],
		] as const) {
			const session = createAgentSession({
				model: registry.find(provider, id) as Model,
				thinkingLevel: "off",
				tools: [],
				getApiKey: (m) => registry.getApiKeyForRequest(m),
				prepareRequest: (m) => registry.requestTarget(m),
				streamFn: (m, _c, o) => {
					seen.push({ provider: m.provider, baseUrl: m.baseUrl, ...(o?.env ? { env: o.env } : {}) });
					return failedStream(m, "captured");
				},
			});
			await session.prompt("hi");
		}
		expect(seen).toEqual([
			{
				provider: "amazon-bedrock",
				baseUrl: "https://amazon-bedrock.catalogue.example/v1",
				env: { AWS_PROFILE: "work" },
			},
			{ provider: "github-copilot", baseUrl: "https://api.copilot.mock.test:8443" },
		]);
	});
});
