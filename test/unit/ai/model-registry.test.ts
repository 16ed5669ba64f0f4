// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use the literal ${NAME} syntax on purpose
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuthStorage } from "../../../src/ai/auth/credential-store.ts";
import { clearValueCache } from "../../../src/ai/auth/resolve-value.ts";
import { ModelRegistry, type ProviderConfig } from "../../../src/ai/model-registry/index.ts";
import { getModels, getProviders } from "../../../src/ai/models/index.ts";
import { getApiProvider, resetApiProviders } from "../../../src/ai/registry.ts";
import { failedStream } from "../../../src/ai/stream.ts";
import type { Model } from "../../../src/ai/types.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

function builtin(provider: string, id: string, extra: Partial<Model> = {}): Model {
	return {
		id,
		name: `Built-in ${id}`,
		api: "openai-responses",
		provider,
		baseUrl: `https://${provider}.example/v1`,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.5 },
		contextWindow: 200_000,
		maxTokens: 32_000,
		...extra,
	};
}

const BUILTINS: Model[] = [
	builtin("openai", "gpt-a"),
	builtin("openai", "gpt-b", { compat: { supportsStore: true, supportsDeveloperRole: true } }),
	builtin("anthropic", "claude-a", { api: "anthropic-messages", headers: { "anthropic-beta": "x" } }),
];

interface Setup {
	registry: ModelRegistry;
	auth: AuthStorage;
	path: string;
	dir: string;
}

function setup(json?: unknown, env: Record<string, string> = {}, auth: Record<string, unknown> = {}): Setup {
	const dir = makeTempDir("pi-models-");
	const path = join(dir, "models.json");
	if (json !== undefined) writeFileSync(path, typeof json === "string" ? json : JSON.stringify(json));
	writeFileSync(join(dir, "auth.json"), JSON.stringify(auth));
	const authStorage = new AuthStorage(join(dir, "auth.json"), { env });
	const registry = ModelRegistry.create({ modelsJsonPath: path, authStorage, builtinModels: () => BUILTINS, env });
	return { registry, auth: authStorage, path, dir };
}

const ids = (models: Model[]) => models.map((m) => `${m.provider}/${m.id}`);

afterEach(() => {
	resetApiProviders();
	clearValueCache();
});

describe("built-in catalogue", () => {
	test("without models.json: exactly the built-ins, no errors", () => {
		const { registry } = setup();
		expect(registry.getAll()).toEqual(BUILTINS);
		expect(registry.getErrors()).toEqual([]);
		expect(registry.find("openai", "gpt-b")).toEqual(BUILTINS[1] as Model);
		expect(registry.find("openai", "nope")).toBeUndefined();
		expect(registry.getProviders()).toEqual(["openai", "anthropic"]);
	});

	test("defaults to src/ai/models (whatever the catalogue holds)", () => {
		const dir = makeTempDir();
		const registry = new ModelRegistry({ authStorage: new AuthStorage(join(dir, "auth.json")) });
		expect(registry.getAll()).toEqual(getModels());
		expect(new Set(registry.getProviders())).toEqual(new Set(getProviders().filter((p) => getModels(p).length > 0)));
	});
});

describe("models.json semantics", () => {
	test("a custom provider gets pi's defaults and inherits api/baseUrl from the provider", () => {
		const { registry } = setup({
			providers: {
				ollama: {
					baseUrl: "http://localhost:11434/v1",
					api: "openai-completions",
					models: [
						{ id: "qwen2.5-coder:7b" },
						{ id: "custom", api: "anthropic-messages", baseUrl: "http://x", cost: { input: 3 } },
					],
				},
			},
		});
		expect(registry.getErrors()).toEqual([]);
		expect(registry.find("ollama", "qwen2.5-coder:7b")).toEqual({
			id: "qwen2.5-coder:7b",
			name: "qwen2.5-coder:7b",
			api: "openai-completions",
			provider: "ollama",
			baseUrl: "http://localhost:11434/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128_000,
			maxTokens: 16_384,
		});
		const custom = registry.find("ollama", "custom");
		expect(custom?.api).toBe("anthropic-messages");
		expect(custom?.baseUrl).toBe("http://x");
		expect(custom?.cost).toEqual({ input: 3, output: 0, cacheRead: 0, cacheWrite: 0 });
		expect(ids(registry.getAll())).toEqual([...ids(BUILTINS), "ollama/qwen2.5-coder:7b", "ollama/custom"]);
	});

	test("all model fields are taken over", () => {
		const { registry } = setup({
			providers: {
				lab: {
					baseUrl: "http://lab",
					api: "openai-completions",
					models: [
						{
							id: "m",
							name: "Lab M",
							reasoning: true,
							thinkingLevelMap: { off: null, high: "max" },
							input: ["text", "image"],
							contextWindow: 64_000,
							maxTokens: 4_096,
							cost: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 },
						},
					],
				},
			},
		});
		expect(registry.find("lab", "m")).toMatchObject({
			name: "Lab M",
			reasoning: true,
			thinkingLevelMap: { off: null, high: "max" },
			input: ["text", "image"],
			contextWindow: 64_000,
			maxTokens: 4_096,
			cost: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 },
		});
	});

	test("baseUrl alone re-points the built-in provider's models", () => {
		const { registry } = setup({ providers: { openai: { baseUrl: "https://proxy.local/v1" } } });
		expect(registry.getErrors()).toEqual([]);
		expect(registry.getAll().map((m) => m.baseUrl)).toEqual([
			"https://proxy.local/v1",
			"https://proxy.local/v1",
			"https://anthropic.example/v1",
		]);
		expect(registry.find("openai", "gpt-a")?.name).toBe("Built-in gpt-a");
	});

	test("models upsert into a built-in provider: same id replaces, new ids are added with inherited api/baseUrl", () => {
		const { registry } = setup({
			providers: { openai: { models: [{ id: "gpt-b", name: "Mine" }, { id: "gpt-new" }] } },
		});
		expect(registry.getErrors()).toEqual([]);
		expect(ids(registry.getAll())).toEqual(["openai/gpt-a", "openai/gpt-b", "openai/gpt-new", "anthropic/claude-a"]);
		const replaced = registry.find("openai", "gpt-b");
		expect(replaced).toMatchObject({ name: "Mine", reasoning: false, contextWindow: 128_000, input: ["text"] });
		expect(replaced?.api).toBe("openai-responses");
		expect(replaced?.baseUrl).toBe("https://openai.example/v1");
		expect(registry.find("openai", "gpt-new")).toMatchObject({
			api: "openai-responses",
			baseUrl: "https://openai.example/v1",
			name: "gpt-new",
		});
	});

	test("modelOverrides patch existing models; cost and compat merge; unknown ids are ignored", () => {
		const { registry } = setup({
			providers: {
				openai: {
					modelOverrides: {
						"gpt-b": { name: "Patched", cost: { output: 9 }, compat: { supportsStore: false }, maxTokens: 1000 },
						"does-not-exist": { name: "ghost" },
					},
				},
			},
		});
		expect(registry.getErrors()).toEqual([]);
		expect(registry.find("openai", "gpt-b")).toEqual({
			...(BUILTINS[1] as Model),
			name: "Patched",
			cost: { input: 1, output: 9, cacheRead: 0.1, cacheWrite: 1.5 },
			compat: { supportsStore: false, supportsDeveloperRole: true },
			maxTokens: 1000,
		});
		expect(registry.find("openai", "gpt-a")).toEqual(BUILTINS[0] as Model);
		expect(registry.find("openai", "does-not-exist")).toBeUndefined();
		expect(registry.getAll()).toHaveLength(BUILTINS.length);
	});

	test("provider compat is merged under model compat (and over built-in compat)", () => {
		const { registry } = setup({
			providers: {
				lab: {
					baseUrl: "http://lab",
					api: "openai-completions",
					compat: { supportsStore: false, maxTokensField: "max_tokens" },
					models: [{ id: "a" }, { id: "b", compat: { maxTokensField: "max_completion_tokens", zaiToolStream: true } }],
				},
				openai: { compat: { supportsDeveloperRole: false } },
			},
		});
		expect(registry.getErrors()).toEqual([]);
		expect(registry.find("lab", "a")?.compat).toEqual({ supportsStore: false, maxTokensField: "max_tokens" });
		expect(registry.find("lab", "b")?.compat).toEqual({
			supportsStore: false,
			maxTokensField: "max_completion_tokens",
			zaiToolStream: true,
		});
		expect(registry.find("openai", "gpt-b")?.compat).toEqual({ supportsStore: true, supportsDeveloperRole: false });
		expect(registry.find("openai", "gpt-a")?.compat).toEqual({ supportsDeveloperRole: false });
	});

	test("comments and a BOM are accepted; unknown fields are ignored", () => {
		const { registry } = setup(
			'\uFEFF{\n  // local server\n  "providers": { /* block */ "ollama": { "baseUrl": "http://h//x", "api": "openai-completions",' +
				' "models": [{ "id": "m", "promptCache": { "short": 300 } }], "futureField": 1 } }\n}',
		);
		expect(registry.getErrors()).toEqual([]);
		expect(registry.find("ollama", "m")?.baseUrl).toBe("http://h//x");
	});

	test("refresh() re-reads the file", () => {
		const { registry, path } = setup({ providers: { openai: { baseUrl: "http://one" } } });
		expect(registry.find("openai", "gpt-a")?.baseUrl).toBe("http://one");
		writeFileSync(path, JSON.stringify({ providers: { openai: { baseUrl: "http://two" } } }));
		registry.refresh();
		expect(registry.find("openai", "gpt-a")?.baseUrl).toBe("http://two");
		writeFileSync(path, "{ broken");
		registry.refresh();
		expect(registry.find("openai", "gpt-a")?.baseUrl).toBe("https://openai.example/v1");
		expect(registry.getErrors()[0]).toStartWith(`${path}: invalid JSON`);
	});
});

describe("models.json validation", () => {
	const cases: Array<[string, unknown, string]> = [
		[
			"contextWindow not a number",
			{ providers: { ollama: { models: [{ id: "m", contextWindow: "big" }] } } },
			"providers.ollama.models[0].contextWindow: expected a number",
		],
		[
			"contextWindow zero",
			{ providers: { ollama: { models: [{ id: "m", contextWindow: 0 }] } } },
			"providers.ollama.models[0].contextWindow: expected a number greater than 0",
		],
		[
			"maxTokens negative in an override",
			{ providers: { openai: { modelOverrides: { "gpt-a": { maxTokens: -1 } } } } },
			"providers.openai.modelOverrides.gpt-a.maxTokens: expected a number greater than 0",
		],
		[
			"model id missing",
			{ providers: { ollama: { models: [{ name: "x" }] } } },
			"providers.ollama.models[0].id: required field is missing",
		],
		[
			"model id empty",
			{ providers: { ollama: { models: [{ id: "" }] } } },
			"providers.ollama.models[0].id: must not be empty",
		],
		[
			"input with an unknown kind",
			{ providers: { ollama: { models: [{ id: "m", input: ["text", "audio"] }] } } },
			'providers.ollama.models[0].input[1]: expected "text" or "image"',
		],
		[
			"reasoning not a boolean",
			{ providers: { ollama: { models: [{ id: "m", reasoning: "yes" }] } } },
			"providers.ollama.models[0].reasoning: expected true or false",
		],
		[
			"cost field not a number",
			{ providers: { ollama: { models: [{ id: "m", cost: { input: "1" } }] } } },
			"providers.ollama.models[0].cost.input: expected a number",
		],
		[
			"thinkingLevelMap value",
			{ providers: { ollama: { models: [{ id: "m", thinkingLevelMap: { high: 3 } }] } } },
			"providers.ollama.models[0].thinkingLevelMap.high: expected a string or null",
		],
		[
			"compat enum",
			{ providers: { ollama: { compat: { maxTokensField: "tokens" } } } },
			'providers.ollama.compat.maxTokensField: expected "max_completion_tokens" or "max_tokens"',
		],
		[
			"header value not a string",
			{ providers: { ollama: { headers: { "X-Num": 1 } } } },
			"providers.ollama.headers.X-Num: expected a string",
		],
		[
			"authHeader not a boolean",
			{ providers: { ollama: { authHeader: "yes" } } },
			"providers.ollama.authHeader: expected true or false",
		],
		["models not an array", { providers: { ollama: { models: {} } } }, "providers.ollama.models: expected an array"],
		["apiKey empty", { providers: { ollama: { apiKey: "" } } }, "providers.ollama.apiKey: must not be empty"],
		[
			"override key that is not a plain name",
			{ providers: { openai: { modelOverrides: { "gpt-4.1:mini": { input: "text" } } } } },
			'providers.openai.modelOverrides["gpt-4.1:mini"].input: expected an array',
		],
		["provider not an object", { providers: { "my.proxy": 5 } }, 'providers["my.proxy"]: expected an object'],
		["providers missing", {}, "providers: required field is missing"],
		["root not an object", [1], "(root): expected an object"],
		[
			"custom provider without api",
			{ providers: { local: { baseUrl: "http://l", models: [{ id: "m" }] } } },
			'providers.local.api: required for custom provider "local" (it has no built-in models to inherit from); set it on the provider or on each model',
		],
		[
			"custom provider without baseUrl",
			{ providers: { local: { api: "openai-completions", models: [{ id: "m" }, { id: "n" }] } } },
			'providers.local.baseUrl: required for custom provider "local" (it has no built-in models to inherit from); set it on the provider or on each model',
		],
		[
			"entry that changes nothing",
			{ providers: { openai: { name: "Only a name" } } },
			'providers.openai: nothing to apply; set "baseUrl", "headers", "compat", "apiKey", "authHeader", "models" or "modelOverrides"',
		],
	];
	for (const [label, json, message] of cases) {
		test(label, () => {
			const { registry, path } = setup(json);
			const errors = registry.getErrors();
			expect(errors[0]).toBe(`${path}: ${message}`);
			expect(errors).toHaveLength(2);
			expect(errors[1]).toBe(`${path}: custom models are ignored until these problems are fixed`);
			expect(registry.getAll()).toEqual(BUILTINS);
		});
	}

	test("invalid JSON: one line naming the file; built-ins stay", () => {
		const { registry, path } = setup('{"providers": {');
		expect(registry.getErrors()).toHaveLength(2);
		expect(registry.getErrors()[0]).toStartWith(`${path}: invalid JSON: `);
		expect(registry.getAll()).toEqual(BUILTINS);
	});

	test("every problem is reported, and one broken entry voids the whole file", () => {
		const { registry, path } = setup({
			providers: {
				good: { baseUrl: "http://g", api: "openai-completions", models: [{ id: "ok" }] },
				openai: { baseUrl: "http://proxy" },
				bad: { models: [{ id: "m", maxTokens: "many", contextWindow: false }] },
			},
		});
		expect(registry.getErrors()).toEqual([
			`${path}: providers.bad.models[0].contextWindow: expected a number`,
			`${path}: providers.bad.models[0].maxTokens: expected a number`,
			`${path}: custom models are ignored until these problems are fixed`,
		]);
		expect(registry.getAll()).toEqual(BUILTINS);
	});

	test("an unreadable file is reported", () => {
		const dir = makeTempDir();
		const path = join(dir, "models.json");
		mkdirSync(path);
		const registry = new ModelRegistry({
			modelsJsonPath: path,
			authStorage: new AuthStorage(join(dir, "auth.json")),
			builtinModels: () => BUILTINS,
		});
		expect(registry.getErrors()[0]).toStartWith(`${path}: cannot read:`);
		expect(registry.getAll()).toEqual(BUILTINS);
	});
});

describe("auth through the registry", () => {
	const ollama = (extra: Record<string, unknown> = {}) => ({
		baseUrl: "http://localhost:11434/v1",
		api: "openai-completions",
		models: [{ id: "m" }],
		...extra,
	});

	test("models.json apiKey: literal, $VAR, bare variable name, and their sources", () => {
		const env = { LAB_KEY: "lab-secret" };
		const { registry } = setup(
			{
				providers: {
					a: ollama({ apiKey: "literal-key" }),
					b: ollama({ apiKey: "$LAB_KEY" }),
					c: ollama({ apiKey: "LAB_KEY" }),
					d: ollama({ apiKey: "${UNSET_VAR}" }),
				},
			},
			env,
		);
		expect(registry.getApiKey({ provider: "a" })).toBe("literal-key");
		expect(registry.getAuthStatus("a")).toEqual({ configured: true, source: "models_json_key" });
		expect(registry.getApiKey({ provider: "b" })).toBe("lab-secret");
		expect(registry.getAuthStatus("b")).toEqual({ configured: true, source: "environment" });
		expect(registry.getApiKey({ provider: "c" })).toBe("lab-secret");
		expect(registry.getAuthStatus("d")).toEqual({ configured: false });
		expect(registry.resolveApiKey({ provider: "d" }).error).toContain("environment variable UNSET_VAR is not set");
	});

	test("models.json !command apiKey runs on every request", () => {
		const dir = makeTempDir();
		const counter = join(dir, "n");
		const { registry } = setup({ providers: { a: ollama({ apiKey: `!echo x >> ${counter}; wc -l < ${counter}` }) } });
		expect(registry.getAuthStatus("a")).toEqual({ configured: true, source: "models_json_command" });
		expect(registry.getApiKey({ provider: "a" })).toBe("1");
		expect(registry.getApiKey({ provider: "a" })).toBe("2");
	});

	test("order: runtime → auth.json → environment → models.json apiKey", () => {
		const { registry, auth } = setup(
			{ providers: { openai: { apiKey: "from-models-json" } } },
			{ OPENAI_API_KEY: "from-env" },
			{ openai: { type: "api_key", key: "from-auth-json" } },
		);
		auth.setRuntimeApiKey("openai", "from-runtime");
		expect(registry.getApiKey({ provider: "openai" })).toBe("from-runtime");
		auth.removeRuntimeApiKey("openai");
		expect(registry.getApiKey({ provider: "openai" })).toBe("from-auth-json");
		const second = setup({ providers: { openai: { apiKey: "from-models-json" } } }, { OPENAI_API_KEY: "from-env" });
		expect(second.registry.getApiKey({ provider: "openai" })).toBe("from-env");
		const third = setup({ providers: { openai: { apiKey: "from-models-json" } } }, {});
		expect(third.registry.getApiKey({ provider: "openai" })).toBe("from-models-json");
	});

	test("getAvailable: providers with a key, plus custom providers that configure none", () => {
		const { registry } = setup(
			{
				providers: {
					keyless: ollama(),
					needsEnv: ollama({ apiKey: "$NOT_SET_FOR_TEST" }),
					withKey: ollama({ apiKey: "k" }),
				},
			},
			{ OPENAI_API_KEY: "sk" },
		);
		expect(ids(registry.getAvailable())).toEqual(["openai/gpt-a", "openai/gpt-b", "keyless/m", "withKey/m"]);
	});

	test("a stored credential makes a provider available", () => {
		const { registry } = setup(undefined, {}, { anthropic: { type: "api_key", key: "k" } });
		expect(ids(registry.getAvailable())).toEqual(["anthropic/claude-a"]);
	});

	test("headers are resolved per request; model headers win; authHeader adds the bearer key", () => {
		const dir = makeTempDir();
		const counter = join(dir, "n");
		const { registry } = setup(
			{
				providers: {
					lab: {
						...ollama({ apiKey: "$LAB_KEY", authHeader: true }),
						headers: { "X-Team": "$TEAM", "X-Call": `!echo x >> ${counter}; wc -l < ${counter}`, "X-Both": "provider" },
						models: [{ id: "m", headers: { "X-Both": "model" } }],
					},
					anthropic: { modelOverrides: { "claude-a": { headers: { "X-Extra": "literal" } } } },
				},
			},
			{ LAB_KEY: "secret", TEAM: "core" },
		);
		const model = registry.find("lab", "m") as Model;
		expect(model.headers).toBeUndefined();
		expect(registry.getRequestHeaders(model)).toEqual({
			"X-Team": "core",
			"X-Call": "1",
			"X-Both": "model",
			Authorization: "Bearer secret",
		});
		expect(registry.getRequestHeaders(model)["X-Call"]).toBe("2");
		expect(registry.getRequestHeaders(registry.find("anthropic", "claude-a") as Model)).toEqual({
			"anthropic-beta": "x",
			"X-Extra": "literal",
		});
		expect(registry.getRequestHeaders(registry.find("openai", "gpt-a") as Model)).toEqual({});
	});

	test("header and authHeader failures are clear errors", () => {
		const { registry } = setup({
			providers: {
				h: ollama({ headers: { "X-Token": "$MISSING_TOKEN" } }),
				k: ollama({ authHeader: true }),
			},
		});
		expect(() => registry.getRequestHeaders(registry.find("h", "m") as Model)).toThrow(
			'model "h/m" header "X-Token": environment variable MISSING_TOKEN is not set',
		);
		expect(() => registry.getRequestHeaders(registry.find("k", "m") as Model)).toThrow(
			'Provider "k" sets authHeader but no API key is available',
		);
	});
});

describe("registerProvider / unregisterProvider", () => {
	const streamSimple = (model: Model) => failedStream(model, "custom stream");

	test("a new provider with models and streamSimple; unregister removes both", () => {
		const { registry } = setup(undefined, {});
		const config: ProviderConfig = {
			name: "My Corp",
			baseUrl: "https://corp.example",
			apiKey: "corp-key",
			api: "corp-api",
			models: [{ id: "corp-1", contextWindow: 50_000 }],
			streamSimple,
		};
		registry.registerProvider("corp", config);
		expect(registry.find("corp", "corp-1")).toMatchObject({
			api: "corp-api",
			baseUrl: "https://corp.example",
			name: "corp-1",
			contextWindow: 50_000,
			maxTokens: 16_384,
		});
		expect(registry.getProviderName("corp")).toBe("My Corp");
		expect(getApiProvider("corp-api")?.streamSimple).toBe(streamSimple);
		expect(registry.getApiKey({ provider: "corp" })).toBe("corp-key");
		expect(registry.getAuthStatus("corp")).toEqual({ configured: true, source: "fallback" });
		expect(ids(registry.getAvailable())).toEqual(["corp/corp-1"]);
		registry.unregisterProvider("corp");
		expect(registry.find("corp", "corp-1")).toBeUndefined();
		expect(getApiProvider("corp-api")).toBeUndefined();
		expect(registry.getAuthStatus("corp")).toEqual({ configured: false });
		expect(registry.getAll()).toEqual(BUILTINS);
	});

	test("overriding a built-in API implementation is undone by unregister", () => {
		const { registry } = setup();
		const before = getApiProvider("openai-responses");
		registry.registerProvider("openai", { api: "openai-responses", streamSimple });
		expect(getApiProvider("openai-responses")?.streamSimple).toBe(streamSimple);
		registry.unregisterProvider("openai");
		expect(getApiProvider("openai-responses")).toBe(before);
	});

	test("baseUrl alone re-points a built-in provider; unregister restores it", () => {
		const { registry } = setup();
		registry.registerProvider("openai", { baseUrl: "https://ext.proxy" });
		expect(registry.find("openai", "gpt-a")?.baseUrl).toBe("https://ext.proxy");
		expect(registry.find("anthropic", "claude-a")?.baseUrl).toBe("https://anthropic.example/v1");
		registry.unregisterProvider("openai");
		expect(registry.getAll()).toEqual(BUILTINS);
	});

	test("models replace a built-in provider's list and inherit its api/baseUrl; modelOverrides still apply", () => {
		const { registry } = setup({ providers: { openai: { modelOverrides: { "ext-1": { name: "Overridden" } } } } });
		registry.registerProvider("openai", { models: [{ id: "ext-1" }], headers: { "X-Ext": "1" } });
		expect(ids(registry.getAll())).toEqual(["openai/ext-1", "anthropic/claude-a"]);
		const model = registry.find("openai", "ext-1") as Model;
		expect(model).toMatchObject({ api: "openai-responses", baseUrl: "https://openai.example/v1", name: "Overridden" });
		expect(registry.getRequestHeaders(model)).toEqual({ "X-Ext": "1" });
		registry.unregisterProvider("openai");
		expect(registry.getAll()).toEqual(BUILTINS);
	});

	test("registration beats models.json for the same provider and survives refresh()", () => {
		const { registry } = setup({ providers: { openai: { baseUrl: "http://json", apiKey: "json-key" } } });
		registry.registerProvider("openai", { baseUrl: "http://ext", apiKey: "ext-key" });
		registry.refresh();
		expect(registry.find("openai", "gpt-a")?.baseUrl).toBe("http://ext");
		expect(registry.getApiKey({ provider: "openai" })).toBe("ext-key");
		registry.unregisterProvider("openai");
		expect(registry.find("openai", "gpt-a")?.baseUrl).toBe("http://json");
		expect(registry.getApiKey({ provider: "openai" })).toBe("json-key");
	});

	test("invalid registrations throw and change nothing", () => {
		const { registry } = setup();
		expect(() => registry.registerProvider("x", { streamSimple })).toThrow(
			'registerProvider("x"): "api" is required with streamSimple',
		);
		expect(() => registry.registerProvider("y", { baseUrl: "http://y", models: [{ id: "m" }] })).toThrow(
			'registerProvider("y"): models[0] ("m"): no "api"; set it on the model or on the provider config',
		);
		expect(() => registry.registerProvider("z", { api: "openai-completions", models: [{ id: "m" }] })).toThrow(
			'registerProvider("z"): models[0] ("m"): no "baseUrl"',
		);
		expect(registry.getAll()).toEqual(BUILTINS);
	});
});

describe("registerProvider with oauth", () => {
	const oauthProvider = (refreshed: { calls: number }, fail = false): ProviderConfig => ({
		baseUrl: "https://oauth.example",
		api: "openai-responses",
		models: [{ id: "o-1" }],
		oauth: {
			name: "OAuth Corp",
			login: async () => ({ refresh: "r0", access: "a0", expires: 0 }),
			refreshToken: async (credentials) => {
				refreshed.calls++;
				if (fail) throw new Error("token endpoint said no");
				return { refresh: `${credentials.refresh}+`, access: "fresh-access", expires: Date.now() + 3_600_000 };
			},
			getApiKey: (credentials) => `key:${credentials.access}`,
		},
	});

	test("stored tokens become keys through getApiKey; expired ones are refreshed and stored before a request", async () => {
		const expired = { type: "oauth", refresh: "r1", access: "old-access", expires: Date.now() - 1000 };
		const { registry, auth, dir } = setup(undefined, {}, { corp: expired });
		const refreshed = { calls: 0 };
		registry.registerProvider("corp", oauthProvider(refreshed));
		expect(registry.getOAuthProvider("corp")?.name).toBe("OAuth Corp");
		expect(registry.getApiKey({ provider: "corp" })).toBeUndefined();
		expect(auth.canRefresh("corp")).toBe(true);
		expect(await registry.getApiKeyForRequest({ provider: "corp" })).toBe("key:fresh-access");
		expect(refreshed.calls).toBe(1);
		const stored = JSON.parse(readFileSync(join(dir, "auth.json"), "utf8")).corp;
		expect(stored).toMatchObject({ type: "oauth", refresh: "r1+", access: "fresh-access" });
		// Still valid: no second refresh.
		expect(await registry.getApiKeyForRequest({ provider: "corp" })).toBe("key:fresh-access");
		expect(refreshed.calls).toBe(1);
		registry.unregisterProvider("corp");
		expect(auth.canRefresh("corp")).toBe(false);
	});

	test("a failed refresh rejects with one line and leaves the stored tokens untouched", async () => {
		const expired = { type: "oauth", refresh: "r1", access: "old-access", expires: 5 };
		const { registry, dir } = setup(undefined, {}, { corp: expired });
		registry.registerProvider("corp", oauthProvider({ calls: 0 }, true));
		await expect(registry.getApiKeyForRequest({ provider: "corp" })).rejects.toThrow(
			'OAuth token refresh for "corp" failed: token endpoint said no',
		);
		expect(JSON.parse(readFileSync(join(dir, "auth.json"), "utf8")).corp).toEqual(expired);
	});
});
