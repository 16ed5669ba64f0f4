/**
 * llama.cpp in the compiled binary, against the loopback router stand-in (test/support/llama-router.ts), with
 * PI_OFFLINE=1 (the pty helper's default: `/llama` still asks the router, as pi documents):
 * - `/llama` in a pseudo-terminal: the router's models with state and context, loading one while keeping the other
 *   loaded (live progress), "Download model…" through a Hugging Face search, a download stopped with Escape and
 *   resumed, an unreachable router offering Retry/Close, then `/model` and a chat turn through the router;
 * - `/login llama.cpp` storing the URL and key after checking the router;
 * - `pi -p` against a loaded model from the cached catalogue, with the key sent and never printed.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runPiAsync } from "../helpers/binary.ts";
import { reply, settle, submit, turnDone } from "../helpers/interactive-scenarios.ts";
import { editorBox } from "../helpers/interactive-scenarios-screen.ts";
import { ourAppStarter, type PtyApp } from "../helpers/pty-app.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { type LlamaRouterStandIn, startLlamaRouter } from "../support/llama-router.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const start = ourAppStarter();
const routers: LlamaRouterStandIn[] = [];
afterAll(() => {
	for (const r of routers.splice(0)) r.stop();
});

const KEY = "router-secret-7f3a";
const HF_TOKEN = "hf_secret_token_91";

function router(): LlamaRouterStandIn {
	const r = startLlamaRouter({
		apiKey: KEY,
		models: [
			{ id: "alpha", state: "loaded", nCtx: 8192 },
			{ id: "beta", nCtx: 32768 },
		],
		loadStepMs: 250,
		downloadStepMs: 120,
		downloadBytes: 12 * 1024 * 1024,
		hub: [
			{
				id: "org/Qwen-GGUF",
				downloads: 12_345,
				files: [
					{ name: "qwen-Q4_K_M.gguf", size: 4 * 1024 ** 3 },
					{ name: "qwen-Q8_0.gguf", size: 8 * 1024 ** 3 },
				],
			},
		],
	});
	routers.push(r);
	return r;
}

const authEntry = (r: LlamaRouterStandIn) =>
	JSON.stringify({ "llama.cpp": { type: "api_key", key: KEY, env: { LLAMA_BASE_URL: r.url } } });

async function command(app: PtyApp, text: string): Promise<void> {
	app.type(text);
	await app.waitFor((lines) => editorBox(lines).some((line) => line.includes(text.slice(-10))));
	await settle(app, 150);
	for (let i = 0; i < 3; i++) {
		await app.press("enter");
		const gone = await app
			.waitFor((lines) => !editorBox(lines).some((line) => line.includes(text)), 1500)
			.catch(() => undefined);
		if (gone) return;
	}
	throw new Error(`${text} was not submitted`);
}

/** The highlighted row of a list (`→ …`). */
const selected = (text: string) => (lines: string[]) => lines.some((l) => l.startsWith("→") && l.includes(text));

describe("/llama (ours, in a pseudo-terminal)", () => {
	test("lists, loads with progress, downloads (stopped and resumed), survives a disconnect, then chats", async () => {
		const r = router();
		const app = await start({
			homeFiles: { ".pi/agent/auth.json": authEntry(r) },
			env: { HF_ENDPOINT: r.url, HF_TOKEN },
			mock: [reply("llama says hi")],
		});
		r.setChatUpstream(app.mock.url);
		await command(app, "/llama");
		const list = await app.waitFor("Download model…");
		const text = list.join("\n");
		expect(text).toContain("llama.cpp models");
		expect(text).toContain(r.url);
		expect(list.find((l) => l.includes("alpha"))).toContain("loaded · 8k context");
		expect(text).toContain("Hugging Face owner/repository[:quant]");

		// Load beta, keeping alpha: asked first, then live progress, then the list again with beta loaded.
		await app.press("down");
		await app.waitFor(selected("beta"));
		await app.press("enter");
		await app.waitFor("1 model is loaded");
		expect((await app.screen()).join("\n")).toContain("Unload all and load");
		await app.press("down", "enter");
		await app.waitFor("Loading model");
		await app.waitFor(/Loading (load tensors|warmup|chat template|ready)/);
		await app.waitFor("Loaded beta", 15_000);
		await app.waitFor((lines) => lines.some((l) => l.includes("beta") && l.includes("loaded · 33k context")));
		expect(r.requests.filter((q) => q.path === "/models/unload")).toEqual([]);

		// Download: search, pick the quantization, stop with Escape (asked first), then resume by exact name.
		await app.press("down", "down");
		await app.waitFor(selected("Download model…"));
		await app.press("enter");
		await app.waitFor("Model name or owner/repository[:quant]");
		app.type("qwen");
		await app.waitFor("12.3k downloads", 10_000);
		await app.press("enter");
		await app.waitFor("Select quantization");
		expect((await app.screen()).join("\n")).toContain("Q4_K_M · 4.00 GiB · recommended");
		await app.press("enter");
		await app.waitFor("Downloading model");
		await app.waitFor(/MiB \/ 12\.0 MiB/, 10_000);
		await app.press("escape");
		await app.waitFor("Stop download?");
		await app.press("enter"); // Yes
		await app.waitFor("Download model…");
		expect(r.requests.some((q) => q.path === "/models/unload" && JSON.stringify(q.body).includes("Qwen"))).toBe(true);
		await app.press("down", "down");
		await app.waitFor(selected("Download model…"));
		await app.press("enter");
		await app.waitFor("Model name or owner/repository[:quant]");
		app.type("org/Qwen-GGUF:Q4_K_M");
		await settle(app, 150);
		await app.press("enter");
		await app.waitFor("Downloaded org/Qwen-GGUF:Q4_K_M", 20_000);
		expect(r.downloadStarts.map((s) => [s.model, s.from > 0])).toEqual([
			["org/Qwen-GGUF:Q4_K_M", false],
			["org/Qwen-GGUF:Q4_K_M", true],
		]);
		const hubCalls = r.requests.filter((q) => q.path.startsWith("/api/"));
		expect(hubCalls.length).toBeGreaterThan(0);
		expect(hubCalls.every((q) => q.authorization === `Bearer ${HF_TOKEN}`)).toBe(true);

		// The router goes away: Retry/Close; Retry once it is back shows the list again.
		await app.waitFor(selected("alpha"));
		r.disconnect();
		await app.press("enter");
		await app.waitFor("Unload model?");
		await app.press("enter"); // Yes
		await app.waitFor("llama.cpp unavailable", 20_000);
		expect((await app.screen()).join("\n")).toContain("Could not connect to the server.");
		r.reconnect();
		await app.press("enter"); // Retry
		await app.waitFor("Download model…");
		await app.press("escape");
		await app.waitFor((lines) => !lines.some((l) => l.includes("llama.cpp models")));

		// beta is a llama.cpp model now, with the router's context window; a turn goes through the router.
		await command(app, "/model llama.cpp/beta");
		await app.waitFor("Model: beta");
		await submit(app, "hello llama");
		await turnDone(app, 1, "llama says hi");
		const chat = r.requests.find((q) => q.path === "/v1/chat/completions");
		expect(chat?.authorization).toBe(`Bearer ${KEY}`);
		expect(chat?.body).toMatchObject({ model: "beta", stream: true });
		const store = JSON.parse(readFileSync(join(app.home, ".pi/agent/models-store.json"), "utf8"));
		const cached = store["llama.cpp"].models.map((m: { id: string; contextWindow: number }) => [m.id, m.contextWindow]);
		expect(cached).toEqual([
			["alpha", 8192],
			["beta", 32768],
		]);
		expect(app.output()).not.toContain(KEY);
		expect(app.output()).not.toContain(HF_TOKEN);
	}, 120_000);

	test("/login llama.cpp checks the router, then stores the URL and key; a wrong key stores nothing", async () => {
		const r = router();
		const app = await start();
		await command(app, "/login llama.cpp");
		await app.waitFor("Login to llama.cpp");
		await app.waitFor("e.g., http://127.0.0.1:8080");
		app.type(r.url);
		await app.press("enter");
		await app.waitFor("API key (optional)");
		app.type("wrong-key");
		await app.press("enter");
		await app.waitFor("Failed to save API key for llama.cpp: Invalid API Key");
		const authPath = join(app.home, ".pi/agent/auth.json");
		expect(() => readFileSync(authPath, "utf8")).toThrow();

		await command(app, "/login llama.cpp");
		await app.waitFor("llama.cpp server URL");
		app.type(`${r.url}/v1`);
		await app.press("enter");
		await app.waitFor("API key (optional)");
		app.type(KEY);
		await app.waitFor("•".repeat(KEY.length));
		await app.press("enter");
		await app.waitFor("Saved API key for llama.cpp");
		expect(JSON.parse(readFileSync(authPath, "utf8"))["llama.cpp"]).toEqual({
			type: "api_key",
			key: KEY,
			env: { LLAMA_BASE_URL: r.url },
		});
		expect(statSync(authPath).mode & 0o777).toBe(0o600);
		await command(app, "/model llama.cpp/alpha");
		await app.waitFor("Model: alpha");
		expect(app.output()).not.toContain(KEY);
	}, 60_000);
});

describe("pi -p with a llama.cpp model", () => {
	test("a loaded model from the cached catalogue answers through the router; the key is sent and never shown", async () => {
		const r = router();
		const mock = startMockLlm({ steps: [reply("local answer")] });
		r.setChatUpstream(mock.url);
		const home = makeTempDir("pi-llama-print-");
		const storeModel = {
			id: "alpha",
			name: "alpha",
			api: "openai-completions",
			provider: "llama.cpp",
			baseUrl: `${r.url}/v1`,
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 8192,
			maxTokens: 8192,
			compat: { supportsDeveloperRole: false, supportsUsageInStreaming: true, maxTokensField: "max_tokens" },
		};
		writeTree(home, {
			".pi/agent/auth.json": authEntry(r),
			".pi/agent/models-store.json": JSON.stringify({ "llama.cpp": { models: [storeModel], checkedAt: 1 } }),
		});
		const result = await runPiAsync(["-p", "--model", "llama.cpp/alpha", "hi there"], {
			home,
			env: { PI_CODING_AGENT_DIR: join(home, ".pi/agent"), PI_OFFLINE: "1" },
		});
		mock.stop();
		expect(result.stderr).toBe("");
		expect(result.stdout.trim()).toBe("local answer");
		const chat = r.requests.filter((q) => q.path === "/v1/chat/completions");
		expect(chat.length).toBe(1);
		expect(chat[0]?.authorization).toBe(`Bearer ${KEY}`);
		expect(chat[0]?.body).toMatchObject({ model: "alpha" });
		// Start-up never asks the router (the catalogue comes from the cache).
		expect(r.requests.filter((q) => q.path.startsWith("/models"))).toEqual([]);
		const sessions = join(home, ".pi/agent/sessions");
		const files = readdirSync(sessions, { recursive: true })
			.map(String)
			.filter((f) => f.endsWith(".jsonl"));
		for (const file of files) expect(readFileSync(join(sessions, file), "utf8")).not.toContain(KEY);
		expect(result.stdout + result.stderr).not.toContain(KEY);

		// As in pi, /llama belongs to the terminal UI: in print mode it does nothing (and asks no model).
		const slash = await runPiAsync(["-p", "--model", "llama.cpp/alpha", "/llama"], {
			home,
			env: { PI_CODING_AGENT_DIR: join(home, ".pi/agent"), PI_OFFLINE: "1" },
		});
		expect([slash.exitCode, slash.stdout, slash.stderr]).toEqual([0, "", ""]);
		expect(r.requests.filter((q) => q.path === "/v1/chat/completions").length).toBe(1);
	}, 60_000);
});

describe("RPC mode with a llama.cpp router", () => {
	test("not offline: the router's loaded models are refreshed in the background and offered", async () => {
		const r = router();
		const home = makeTempDir("pi-llama-rpc-");
		writeTree(home, { ".pi/agent/auth.json": authEntry(r) });
		const env: Record<string, string> = {};
		for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("PI_")) env[k] = v;
		Object.assign(env, {
			HOME: home,
			PI_CODING_AGENT_DIR: join(home, ".pi/agent"),
			HTTP_PROXY: "http://127.0.0.1:9",
			HTTPS_PROXY: "http://127.0.0.1:9",
			NO_PROXY: "127.0.0.1,localhost",
		});
		const proc = Bun.spawn([ensureBinary(), "--mode", "rpc", "--no-session"], {
			cwd: home,
			env,
			stdin: "pipe",
			stdout: "pipe",
			stderr: "pipe",
		});
		try {
			const deadline = Date.now() + 15_000;
			while (!r.requests.some((q) => q.path.startsWith("/props?model=alpha"))) {
				if (Date.now() > deadline) throw new Error(`no refresh; router saw ${JSON.stringify(r.requests)}`);
				await Bun.sleep(50);
			}
			await Bun.sleep(200);
			proc.stdin.write(`${JSON.stringify({ id: "1", type: "get_available_models" })}\n`);
			proc.stdin.flush();
			const reader = proc.stdout.getReader();
			let text = "";
			while (!text.includes('"id":"1"')) {
				const chunk = await reader.read();
				if (chunk.done) break;
				text += new TextDecoder().decode(chunk.value);
			}
			const line = text.split("\n").find((l) => l.includes('"id":"1"')) ?? "{}";
			const models = (JSON.parse(line).data?.models ?? []) as { provider: string; id: string; contextWindow: number }[];
			expect(models.filter((m) => m.provider === "llama.cpp").map((m) => [m.id, m.contextWindow])).toEqual([
				["alpha", 8192],
			]);
			expect(text).not.toContain(KEY);
		} finally {
			proc.kill();
			await proc.exited;
		}
	}, 60_000);
});
