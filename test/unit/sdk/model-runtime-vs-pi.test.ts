/** `ModelRuntime` and `new ModelRegistry(runtime)`: the same script against ours and pi 0.87.1's. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";

const pi = piReference("model-runtime-vs-pi");

const SCRIPT = `
const fs = await import("node:fs");
const path = await import("node:path");
const dir = args.dir;
const authPath = path.join(dir, "auth.json");
const modelsPath = path.join(dir, "models.json");
fs.writeFileSync(authPath, JSON.stringify({ anthropic: { type: "api_key", key: "sk-stored" } }));
fs.writeFileSync(modelsPath, JSON.stringify({ providers: { local: {
	name: "Local LLM", baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "local-key",
	headers: { "X-Team": "blue" },
	models: [{ id: "small", name: "Small", contextWindow: 8192, maxTokens: 1024, input: ["text"], reasoning: false,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }],
} } }));
const runtime = await pi.ModelRuntime.create({ authPath, modelsPath });
const model = (m) => m && { id: m.id, provider: m.provider, api: m.api, baseUrl: m.baseUrl, contextWindow: m.contextWindow, maxTokens: m.maxTokens };
const local = runtime.getModel("local", "small");
const seen = {
	local: model(local),
	localModels: runtime.getModels("local").map(model),
	unknown: runtime.getModel("local", "nope") ?? null,
	anthropicListed: runtime.getModels("anthropic").length > 0,
	availableProviders: [...new Set((await runtime.getAvailable()).map((m) => m.provider))].filter((p) => ["local", "anthropic", "openai"].includes(p)).sort(),
	availableLocal: (await runtime.getAvailable("local")).map((m) => m.id),
	configured: ["anthropic", "local", "openai"].map((p) => runtime.hasConfiguredAuth(p)),
	oauth: runtime.isUsingOAuth("anthropic"),
	auth: (await runtime.getAuth("anthropic"))?.auth.apiKey,
	localAuth: (await runtime.getAuth(local))?.auth,
	missingAuth: (await runtime.getAuth("openai")) ?? null,
	error: runtime.getError() ?? null,
};
await runtime.setRuntimeApiKey("openai", "sk-runtime");
seen.runtimeKey = (await runtime.getAuth("openai"))?.auth.apiKey;
seen.runtimeStatus = runtime.getProviderAuthStatus("openai");
await runtime.removeRuntimeApiKey("openai");
seen.removed = (await runtime.getAuth("openai")) ?? null;
const registry = new pi.ModelRegistry(runtime);
seen.registry = {
	find: model(registry.find("local", "small")),
	all: registry.getAll().some((m) => m.provider === "local"),
	available: registry.getAvailable().filter((m) => m.provider === "local").map((m) => m.id),
	headers: await registry.getApiKeyAndHeaders(local),
	key: await registry.getApiKeyForProvider("anthropic"),
	noKey: (await registry.getApiKeyForProvider("openai")) ?? null,
	name: [registry.getProviderDisplayName("local"), registry.getProviderDisplayName("nobody")],
	configured: registry.hasConfiguredAuth(local),
	oauth: registry.isUsingOAuth(local),
	providerAuth: (await registry.getProviderAuth("anthropic"))?.auth.apiKey,
};
fs.writeFileSync(modelsPath, "{ broken");
const broken = await pi.ModelRuntime.create({ authPath, modelsPath });
seen.brokenHasError = typeof broken.getError() === "string";
seen.brokenKeepsBuiltins = broken.getModels("anthropic").length > 0 && broken.getModel("local", "small") === undefined;
const none = await pi.ModelRuntime.create({ authPath: path.join(dir, "none.json"), modelsPath: null });
seen.noneConfigured = none.hasConfiguredAuth("anthropic");
return seen;
`;

const CLEAN_ENV = ["ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "OPENAI_API_KEY"];

describe("ModelRuntime", () => {
	(pi ? test : test.skip)(
		"models, availability, auth and the registry view match pi 0.87.1",
		async () => {
			const mine = mkdtempSync(join(tmpdir(), "pi-mr-ours-"));
			const theirs = mkdtempSync(join(tmpdir(), "pi-mr-theirs-"));
			const saved = { ...process.env };
			try {
				const env: Record<string, string> = { HOME: theirs, PI_OFFLINE: "1" };
				for (const key of CLEAN_ENV) env[key] = "";
				const expected = pi?.run(SCRIPT, { dir: theirs }, env);
				for (const key of CLEAN_ENV) delete process.env[key];
				process.env.HOME = mine;
				const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
				const actual = await new AsyncFunction("pi", "args", SCRIPT)(ours, { dir: mine });
				if (process.env.SHOW) console.log(JSON.stringify(actual));
				expect(JSON.parse(JSON.stringify(actual))).toEqual(expected as never);
			} finally {
				process.env = saved;
				rmSync(mine, { recursive: true, force: true });
				rmSync(theirs, { recursive: true, force: true });
			}
		},
		60_000,
	);
});
