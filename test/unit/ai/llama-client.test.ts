/**
 * The llama.cpp router client against the loopback stand-in (test/support/llama-router.ts): the catalogue and
 * its errors, load and unload with progress, a failing load, a download interrupted and resumed from its bytes,
 * Hugging Face search and details (through `HF_ENDPOINT`) with the token lookup order, the models `/model` offers
 * (context window from the router's n_ctx), the models-store.json cache and the login.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuthStorage, attachLlamaProvider, loadLlama, ModelRegistry } from "../../../src/ai/index.ts";
import { makeTempDir } from "../../helpers/tmp.ts";
import { type LlamaRouterStandIn, startLlamaRouter } from "../../support/llama-router.ts";

const llama = await loadLlama();
const routers: LlamaRouterStandIn[] = [];
afterEach(() => {
	for (const router of routers.splice(0)) router.stop();
});
function router(options: Parameters<typeof startLlamaRouter>[0] = {}): LlamaRouterStandIn {
	const r = startLlamaRouter({ loadStepMs: 40, downloadStepMs: 30, ...options });
	routers.push(r);
	return r;
}

describe("router client", () => {
	test("lists models with their states and sends the key; a wrong key and a non-router server are errors", async () => {
		const r = router({
			apiKey: "sekrit",
			models: [{ id: "a", state: "loaded", nCtx: 4096 }, { id: "b" }],
		});
		const client = new llama.RouterClient(`${r.url}/v1/`, "sekrit");
		expect(client.serverUrl).toBe(r.url);
		const list = await client.list();
		expect(list.map((m) => [m.id, m.status.value])).toEqual([
			["a", "loaded"],
			["b", "unloaded"],
		]);
		expect(r.requests.at(-1)?.authorization).toBe("Bearer sekrit");
		await expect(new llama.RouterClient(r.url, "wrong").list()).rejects.toThrow("Invalid API Key");
		const plain = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ data: [{ id: "x" }] }) });
		try {
			await expect(new llama.RouterClient(`http://127.0.0.1:${plain.port}`).list()).rejects.toThrow(
				"Server is not running in llama.cpp router mode",
			);
		} finally {
			plain.stop(true);
		}
		expect(() => new llama.RouterClient("ftp://x")).toThrow("Server URL must use http or https");
	});

	test("loads with staged progress, unloads, and reports a model that fails to load", async () => {
		const r = router({
			models: [
				{ id: "m", nCtx: 8192 },
				{ id: "bad", failsToLoad: true },
			],
		});
		const client = new llama.RouterClient(r.url);
		const seen: { message: string; ratio?: number }[] = [];
		const entry = await llama.loadAndWait(client, "m", (p) => seen.push(p));
		expect(entry.status.value).toBe("loaded");
		expect(entry.meta?.n_ctx).toBe(8192);
		expect(seen[0]?.message).toBe("Loading model");
		expect(seen.some((p) => p.message === "Loading load tensors" && p.ratio !== undefined)).toBe(true);
		expect(seen.some((p) => p.message === "Loading warmup")).toBe(true);
		await llama.unloadAndWait(client, "m");
		expect((await client.list()).find((m) => m.id === "m")?.status.value).toBe("unloaded");
		await expect(llama.loadAndWait(client, "bad", () => {})).rejects.toThrow("Model exited with code 1");
	});

	test("a download reports bytes, stops when cancelled and resumes from where it was", async () => {
		const r = router({ downloadStepMs: 40, downloadBytes: 10 * 1024 * 1024 });
		const client = new llama.RouterClient(r.url);
		const controller = new AbortController();
		const details: string[] = [];
		const first = llama.downloadAndWait(
			client,
			"org/repo:Q4_K_M",
			(p) => {
				if (p.detail) details.push(p.detail);
				if (p.ratio !== undefined && p.ratio >= 0.3) controller.abort(new Error("Cancelled"));
			},
			controller.signal,
		);
		await expect(first).rejects.toThrow("Cancelled");
		await client.unload("org/repo:Q4_K_M");
		expect(details.at(-1)).toMatch(/ MiB \/ 10\.0 MiB$/);
		const resumed: number[] = [];
		const catalog = await llama.downloadAndWait(client, "org/repo:Q4_K_M", (p) => {
			if (p.ratio !== undefined) resumed.push(p.ratio);
		});
		expect(catalog.find((m) => m.id === "org/repo:Q4_K_M")?.status.value).toBe("unloaded");
		expect(r.downloadStarts.map((s) => s.from > 0)).toEqual([false, true]);
		expect(resumed[0]).toBeGreaterThanOrEqual(0.3);
		expect(r.requests.some((q) => q.path === "/models?reload=1")).toBe(true);
	});

	test("progress parsing: load stages and summed download files", () => {
		expect(llama.loadProgress({ progress: { current: "warmup", stages: ["a", "warmup"], value: 0.5 } })).toEqual({
			message: "Loading warmup",
			ratio: 0.75,
		});
		expect(llama.downloadProgress({ a: { done: 512, total: 1024 }, b: { done: 0, total: 1024 } })).toEqual({
			message: "Downloading model",
			ratio: 0.25,
			detail: "512 B / 2.00 KiB",
		});
		expect(llama.downloadProgress({})).toBeUndefined();
		expect(llama.formatBytes(5 * 1024 ** 3)).toBe("5.00 GiB");
	});
});

describe("Hugging Face", () => {
	test("search and details through HF_ENDPOINT; quantizations Q4_K_M first then by size; gated flag", async () => {
		const r = router({
			hub: [
				{
					id: "org/Qwen-GGUF",
					downloads: 1200,
					gated: "auto",
					files: [
						{ name: "Qwen-Q8_0.gguf", size: 800 },
						{ name: "Qwen-Q4_K_M-00001-of-00002.gguf", size: 300 },
						{ name: "Qwen-Q4_K_M-00002-of-00002.gguf", size: 300 },
						{ name: "Qwen-Q2_K.gguf", size: 200 },
						{ name: "mmproj-F16.gguf", size: 50 },
						{ name: "README.md", size: 1 },
					],
				},
				{ id: "other/llama", downloads: 5, files: [] },
			],
		});
		const hub = new llama.HubClient("hf_token_123", llama.hubUrl({ HF_ENDPOINT: `${r.url}/` }));
		expect(await hub.search("qwen")).toEqual([{ id: "org/Qwen-GGUF", downloads: 1200 }]);
		const search = r.requests.at(-1);
		expect(search?.path).toBe("/api/models?search=qwen&filter=gguf&sort=downloads&direction=-1&limit=20");
		expect(search?.authorization).toBe("Bearer hf_token_123");
		expect(await hub.details("org/Qwen-GGUF")).toEqual({
			id: "org/Qwen-GGUF",
			gated: "auto",
			quantizations: [
				{ name: "Q4_K_M", size: 600 },
				{ name: "Q2_K", size: 200 },
				{ name: "Q8_0", size: 800 },
			],
		});
		await expect(hub.details("nobody/none")).rejects.toThrow("Repository not found");
		expect(llama.hubUrl({})).toBe("https://huggingface.co");
		expect(llama.parseHubReference("org/repo:Q4_K_M")).toEqual({ repository: "org/repo", quantization: "Q4_K_M" });
	});

	test("token order: HF_TOKEN, HF_TOKEN_PATH, HF_HOME, XDG_CACHE_HOME, ~/.cache", async () => {
		const dir = makeTempDir("hf-token");
		const file = (path: string, text: string) => {
			mkdirSync(join(dir, path, ".."), { recursive: true });
			writeFileSync(join(dir, path), text);
		};
		file("home/.cache/huggingface/token", "from-home\n");
		const env: Record<string, string> = { HOME: join(dir, "home") };
		expect(await llama.findHubToken(env)).toBe("from-home");
		file("xdg/huggingface/token", "from-xdg");
		env.XDG_CACHE_HOME = join(dir, "xdg");
		expect(await llama.findHubToken(env)).toBe("from-xdg");
		file("hfhome/token", "from-hf-home");
		env.HF_HOME = join(dir, "hfhome");
		expect(await llama.findHubToken(env)).toBe("from-hf-home");
		file("explicit", "from-path");
		env.HF_TOKEN_PATH = join(dir, "explicit");
		expect(await llama.findHubToken(env)).toBe("from-path");
		env.HF_TOKEN = " from-env ";
		expect(await llama.findHubToken(env)).toBe("from-env");
		expect(await llama.findHubToken({ HOME: join(dir, "none") })).toBeUndefined();
	});
});

describe("catalogue, cache and login", () => {
	test("/model offers loaded and sleeping models (autoload presets too) with the router's context window", async () => {
		const r = router({
			autoload: true,
			models: [
				{ id: "loaded", state: "loaded", nCtx: 16384, chatTemplate: "{% if enable_thinking %}" },
				{ id: "asleep", state: "sleeping", nCtx: 4096 },
				{ id: "preset", source: "preset" },
				{ id: "plain" },
			],
		});
		const client = new llama.RouterClient(r.url);
		const models = await llama.selectableModels(client, await client.list());
		expect(models.map((m) => [m.id, m.contextWindow, m.maxTokens, m.reasoning])).toEqual([
			["loaded", 16384, 16384, true],
			["asleep", 4096, 4096, false],
			["preset", 128000, 128000, false],
		]);
		expect(models[0]).toMatchObject({
			provider: "llama.cpp",
			api: "openai-completions",
			baseUrl: `${r.url}/v1`,
			compat: { maxTokensField: "max_tokens", thinkingFormat: "qwen-chat-template", supportsDeveloperRole: false },
		});
		expect(r.requests.some((q) => q.path === "/props?model=asleep&autoload=false")).toBe(false);
	});

	test("login checks the router and stores pi's entry; start-up offers the cached models; nothing without a router", async () => {
		const r = router({ apiKey: "k-123", models: [{ id: "m1", state: "loaded", nCtx: 2048 }] });
		const dir = makeTempDir("llama-login");
		const auth = new AuthStorage(join(dir, "auth.json"));
		await expect(llama.loginLlama(auth, { url: r.url, key: "wrong" }, { env: {} })).rejects.toThrow("Invalid API Key");
		expect(auth.has("llama.cpp")).toBe(false);
		const { serverUrl, catalog } = await llama.loginLlama(auth, { url: `${r.url}/v1`, key: " k-123 " }, { env: {} });
		expect(serverUrl).toBe(r.url);
		expect(JSON.parse(readFileSync(join(dir, "auth.json"), "utf8"))["llama.cpp"]).toEqual({
			type: "api_key",
			key: "k-123",
			env: { LLAMA_BASE_URL: r.url },
		});
		const registry = new ModelRegistry({ authStorage: auth, builtinModels: () => [] });
		const connection = llama.llamaConnection(auth, {});
		expect(connection).toEqual({ serverUrl: r.url, apiKey: "k-123", source: "stored credential" });
		if (!connection) throw new Error("no connection");
		await llama.refreshLlamaModels(registry, new llama.RouterClient(r.url, "k-123"), connection, {
			agentDir: dir,
			catalog,
			env: {},
		});
		expect(registry.getAvailable().map((m) => `${m.provider}/${m.id}:${m.contextWindow}`)).toEqual([
			"llama.cpp/m1:2048",
		]);
		const stored = JSON.parse(readFileSync(join(dir, "models-store.json"), "utf8"));
		expect(stored["llama.cpp"].models[0]).toMatchObject({ id: "m1", contextWindow: 2048 });

		// A new process: the models come from the cache, without asking the router.
		const before = r.requests.length;
		const next = new ModelRegistry({ authStorage: new AuthStorage(join(dir, "auth.json")), builtinModels: () => [] });
		expect(attachLlamaProvider(next, next.authStorage, dir, {})).toEqual([]);
		expect(next.find("llama.cpp", "m1")?.contextWindow).toBe(2048);
		expect(next.getApiKey({ provider: "llama.cpp" })).toBe("k-123");
		expect(r.requests.length).toBe(before);

		// Without a key: "local", or LLAMA_API_KEY; no router configured: nothing is read or offered.
		const keyless = new AuthStorage(join(dir, "auth2.json"));
		await llama.loginLlama(keyless, { url: r.url, key: "" }, { env: {} }).catch(() => {});
		const env = { LLAMA_BASE_URL: r.url };
		expect(llama.llamaConnection(new AuthStorage(join(dir, "none.json")), env)?.apiKey).toBe("local");
		expect(llama.llamaConnection(new AuthStorage(join(dir, "none.json")), { ...env, LLAMA_API_KEY: "e" })?.apiKey).toBe(
			"e",
		);
		const empty = new ModelRegistry({ authStorage: new AuthStorage(join(dir, "none.json")), builtinModels: () => [] });
		expect(attachLlamaProvider(empty, empty.authStorage, dir, {})).toEqual([]);
		expect(empty.getModels("llama.cpp")).toEqual([]);
	});

	test("a key-less stored entry (as pi writes it) is accepted and requests use LLAMA_API_KEY or 'local'", async () => {
		const dir = makeTempDir("llama-keyless");
		writeFileSync(
			join(dir, "auth.json"),
			JSON.stringify({ "llama.cpp": { type: "api_key", env: { LLAMA_BASE_URL: "http://127.0.0.1:9/" } } }),
		);
		writeFileSync(
			join(dir, "models-store.json"),
			JSON.stringify({
				other: { models: [] },
				"llama.cpp": { models: [{ id: "x", provider: "llama.cpp", api: "openai-completions", contextWindow: 1000 }] },
			}),
		);
		const auth = new AuthStorage(join(dir, "auth.json"));
		expect(auth.getErrors()).toEqual([]);
		const registry = new ModelRegistry({ authStorage: auth, builtinModels: () => [] });
		attachLlamaProvider(registry, auth, dir, {});
		expect(registry.getApiKey({ provider: "llama.cpp" })).toBe("local");
		expect(registry.find("llama.cpp", "x")?.baseUrl).toBe("http://127.0.0.1:9/v1");
		await llama.writeStoredModels(join(dir, "models-store.json"), []);
		const after = JSON.parse(readFileSync(join(dir, "models-store.json"), "utf8"));
		expect(after.other).toEqual({ models: [] });
		expect(after["llama.cpp"].models).toEqual([]);
		writeFileSync(join(dir, "models-store.json"), "{ broken");
		expect(attachLlamaProvider(registry, auth, dir, {})[0]).toContain("models-store.json");
	});
});
