// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use the literal ${NAME} syntax on purpose
import { beforeEach, describe, expect, test } from "bun:test";
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmdirSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { AuthStorage, type ConfiguredKeyResolver, type Credential } from "../../../src/ai/auth/credential-store.ts";
import { clearValueCache } from "../../../src/ai/auth/resolve-value.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

function authPath(): string {
	return join(makeTempDir("pi-auth-"), "agent", "auth.json");
}

function readJson(path: string): Record<string, unknown> {
	return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

const apiKey = (key: string): Credential => ({ type: "api_key", key });

beforeEach(() => clearValueCache());

describe("auth.json storage", () => {
	test("a missing file is empty and not an error", () => {
		const store = new AuthStorage(authPath());
		expect(store.list()).toEqual([]);
		expect(store.getErrors()).toEqual([]);
		expect(store.get("openai")).toBeUndefined();
	});

	test("set writes the entry with mode 0600, creating the folder; get/list/remove", async () => {
		const path = authPath();
		const store = new AuthStorage(path);
		await store.set("openai", apiKey("sk-1"));
		await store.set("anthropic", { type: "oauth", refresh: "r", access: "a", expires: 123, accountId: "x" });
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(readJson(path)).toEqual({
			openai: { type: "api_key", key: "sk-1" },
			anthropic: { type: "oauth", refresh: "r", access: "a", expires: 123, accountId: "x" },
		});
		expect(store.list().sort()).toEqual(["anthropic", "openai"]);
		expect(store.get("openai")).toEqual({ type: "api_key", key: "sk-1" });
		await store.remove("openai");
		expect(readJson(path)).toEqual({
			anthropic: { type: "oauth", refresh: "r", access: "a", expires: 123, accountId: "x" },
		});
		expect(store.has("openai")).toBe(false);
		expect(new AuthStorage(path).list()).toEqual(["anthropic"]);
	});

	test("an existing file with a wider mode ends up 0600 after a write", async () => {
		const path = authPath();
		mkdirSync(resolve(path, ".."), { recursive: true });
		writeFileSync(path, "{}", { mode: 0o644 });
		await new AuthStorage(path).set("openai", apiKey("k"));
		expect(statSync(path).mode & 0o777).toBe(0o600);
	});

	test("get returns a copy", () => {
		const path = authPath();
		mkdirSync(resolve(path, ".."), { recursive: true });
		writeFileSync(path, JSON.stringify({ openai: apiKey("k") }));
		const store = new AuthStorage(path);
		const got = store.get("openai") as { key: string };
		got.key = "changed";
		expect(store.get("openai")).toEqual(apiKey("k"));
	});

	test("a write keeps entries written meanwhile by someone else and unknown entries/fields", async () => {
		const path = authPath();
		const store = new AuthStorage(path);
		await store.set("openai", apiKey("sk-1"));
		writeFileSync(
			path,
			JSON.stringify({ openai: apiKey("sk-1"), other: { type: "api_key", key: "o", note: 1 }, weird: { type: "x" } }),
		);
		await store.set("groq", apiKey("g"));
		expect(readJson(path)).toEqual({
			openai: apiKey("sk-1"),
			other: { type: "api_key", key: "o", note: 1 },
			weird: { type: "x" },
			groq: apiKey("g"),
		});
		expect(store.list().sort()).toEqual(["groq", "openai", "other"]);
		expect(store.getErrors()).toEqual([
			`${path}: entry "weird" ignored: unknown "type" "x" (expected "api_key" or "oauth")`,
		]);
	});

	test("invalid entries are reported and skipped", () => {
		const path = authPath();
		mkdirSync(resolve(path, ".."), { recursive: true });
		writeFileSync(
			path,
			JSON.stringify({
				a: 5,
				b: { type: "api_key", key: 5 },
				c: { type: "oauth", access: "x", refresh: "r" },
				d: apiKey("ok"),
			}),
		);
		const store = new AuthStorage(path);
		expect(store.list()).toEqual(["d"]);
		expect(store.getErrors()).toEqual([
			`${path}: entry "a" ignored: expected an object`,
			`${path}: entry "b" ignored: "key" must be a string`,
			`${path}: entry "c" ignored: "expires" must be a number (ms since the epoch)`,
		]);
	});

	test("set rejects a malformed credential", async () => {
		const store = new AuthStorage(authPath());
		await expect(store.set("x", { type: "api_key", key: 5 } as unknown as Credential)).rejects.toThrow(
			'Cannot store credential for "x": "key" must be a string',
		);
	});

	test("no temp files are left behind", async () => {
		const path = authPath();
		const store = new AuthStorage(path);
		for (let i = 0; i < 5; i++) await store.set(`p${i}`, apiKey(String(i)));
		expect(readdirSync(resolve(path, ".."))).toEqual(["auth.json"]);
	});
});

describe("invalid auth.json", () => {
	for (const [label, content, reason] of [
		["broken JSON", '{"openai": {"type": "api_key", "key": "sk-', "invalid JSON"],
		["a JSON array", "[1, 2]", "expected a JSON object of provider entries"],
	] as const) {
		test(`${label}: one diagnostic, treated as empty, never overwritten`, async () => {
			const path = authPath();
			mkdirSync(resolve(path, ".."), { recursive: true });
			writeFileSync(path, content);
			const store = new AuthStorage(path);
			expect(store.list()).toEqual([]);
			const errors = store.getErrors();
			expect(errors).toHaveLength(1);
			expect(errors[0]).toStartWith(`${path}: ${reason}`);
			expect(store.getApiKey("openai")).toBeUndefined();
			await expect(store.set("openai", apiKey("new"))).rejects.toThrow(`Refusing to write ${path}: ${reason}`);
			await expect(store.remove("openai")).rejects.toThrow("The file was left unchanged");
			expect(readFileSync(path, "utf8")).toBe(content);
			expect(existsSync(`${path}.lock`)).toBe(false);
		});
	}

	test("an unreadable file (a directory here) is reported and left alone", async () => {
		const path = authPath();
		mkdirSync(path, { recursive: true });
		const store = new AuthStorage(path);
		expect(store.getErrors()).toHaveLength(1);
		expect(store.getErrors()[0]).toStartWith(`${path}: cannot read:`);
		await expect(store.set("openai", apiKey("k"))).rejects.toThrow(`Refusing to write ${path}: cannot read`);
		expect(statSync(path).isDirectory()).toBe(true);
	});

	test("after the user fixes the file, reload and writes work again", async () => {
		const path = authPath();
		mkdirSync(resolve(path, ".."), { recursive: true });
		writeFileSync(path, "not json");
		const store = new AuthStorage(path);
		writeFileSync(path, JSON.stringify({ openai: apiKey("k") }));
		store.reload();
		expect(store.getErrors()).toEqual([]);
		await store.set("groq", apiKey("g"));
		expect(Object.keys(readJson(path)).sort()).toEqual(["groq", "openai"]);
	});

	test("an empty file counts as empty", async () => {
		const path = authPath();
		mkdirSync(resolve(path, ".."), { recursive: true });
		writeFileSync(path, "");
		const store = new AuthStorage(path);
		expect(store.getErrors()).toEqual([]);
		await store.set("openai", apiKey("k"));
		expect(readJson(path)).toEqual({ openai: apiKey("k") });
	});
});

describe("locking", () => {
	test("20 concurrent set() calls from two instances lose nothing", async () => {
		const path = authPath();
		const a = new AuthStorage(path);
		const b = new AuthStorage(path);
		await Promise.all(
			Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).set(`provider-${i}`, apiKey(`key-${i}`))),
		);
		const data = readJson(path);
		expect(Object.keys(data)).toHaveLength(20);
		for (let i = 0; i < 20; i++) expect(data[`provider-${i}`]).toEqual(apiKey(`key-${i}`));
		expect(existsSync(`${path}.lock`)).toBe(false);
	});

	test("writers in two processes lose nothing", async () => {
		const path = authPath();
		mkdirSync(resolve(path, ".."), { recursive: true });
		const module = resolve(import.meta.dir, "../../../src/ai/auth/credential-store.ts");
		const script = join(resolve(path, ".."), "writer.ts");
		const ready = join(resolve(path, ".."), "ready");
		writeFileSync(
			script,
			`import { writeFileSync } from "node:fs";
import { AuthStorage } from ${JSON.stringify(module)};
const store = new AuthStorage(${JSON.stringify(path)});
writeFileSync(${JSON.stringify(ready)}, "");
for (let i = 0; i < 30; i++) await store.set("child-" + i, { type: "api_key", key: "c" + i });
`,
		);
		const child = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "pipe" });
		while (!existsSync(ready)) await Bun.sleep(5);
		const store = new AuthStorage(path);
		for (let i = 0; i < 30; i++) await store.set(`parent-${i}`, apiKey(`p${i}`));
		expect(await child.exited).toBe(0);
		const data = readJson(path);
		expect(Object.keys(data)).toHaveLength(60);
		for (let i = 0; i < 30; i++) {
			expect(data[`child-${i}`]).toEqual(apiKey(`c${i}`));
			expect(data[`parent-${i}`]).toEqual(apiKey(`p${i}`));
		}
	});

	test("a stale lock left behind is taken over", async () => {
		const path = authPath();
		const lockDir = `${path}.lock`;
		mkdirSync(lockDir, { recursive: true });
		const old = new Date(Date.now() - 60_000);
		utimesSync(lockDir, old, old);
		await new AuthStorage(path).set("openai", apiKey("k"));
		expect(readJson(path)).toEqual({ openai: apiKey("k") });
		expect(existsSync(lockDir)).toBe(false);
	});

	test("a fresh lock held elsewhere is waited for", async () => {
		const path = authPath();
		const lockDir = `${path}.lock`;
		mkdirSync(lockDir, { recursive: true });
		const pending = new AuthStorage(path).set("openai", apiKey("k"));
		let done = false;
		void pending.then(() => {
			done = true;
		});
		await Bun.sleep(150);
		expect(done).toBe(false);
		expect(existsSync(path)).toBe(false);
		rmdirSync(lockDir);
		await pending;
		expect(readJson(path)).toEqual({ openai: apiKey("k") });
	});
});

describe("key resolution", () => {
	function storeWith(data: Record<string, unknown>, env: Record<string, string> = {}, now = 1_000) {
		const path = authPath();
		mkdirSync(resolve(path, ".."), { recursive: true });
		writeFileSync(path, JSON.stringify(data));
		return new AuthStorage(path, { env, now: () => now });
	}

	const configured = (key: string | undefined, source: "models_json_key" | "fallback" = "models_json_key") =>
		({
			status: () => (key === undefined ? undefined : { configured: true, source }),
			resolve: () => (key === undefined ? undefined : { apiKey: key, source }),
		}) satisfies ConfiguredKeyResolver;

	test("order: runtime → auth.json → environment → configured key", () => {
		const store = storeWith({ openai: apiKey("stored") }, { OPENAI_API_KEY: "env" });
		store.setConfiguredKeyResolver(configured("from-models-json"));
		store.setRuntimeApiKey("openai", "runtime");
		expect(store.resolveApiKey("openai")).toEqual({ apiKey: "runtime", source: "runtime" });
		expect(store.getAuthStatus("openai")).toEqual({ configured: true, source: "runtime" });
		store.removeRuntimeApiKey("openai");
		expect(store.resolveApiKey("openai")).toEqual({ apiKey: "stored", source: "stored" });
		expect(store.getAuthStatus("openai")).toEqual({ configured: true, source: "stored" });
		const noStored = storeWith({}, { OPENAI_API_KEY: "env" });
		noStored.setConfiguredKeyResolver(configured("from-models-json"));
		expect(noStored.resolveApiKey("openai")).toEqual({ apiKey: "env", source: "environment" });
		expect(noStored.getAuthStatus("openai")).toEqual({ configured: true, source: "environment" });
		const noEnv = storeWith({}, {});
		noEnv.setConfiguredKeyResolver(configured("from-models-json"));
		expect(noEnv.resolveApiKey("openai")).toEqual({ apiKey: "from-models-json", source: "models_json_key" });
		expect(noEnv.getAuthStatus("openai")).toEqual({ configured: true, source: "models_json_key" });
		noStored.setConfiguredKeyResolver(undefined);
		expect(noStored.getApiKey("groq")).toBeUndefined();
		expect(noStored.getAuthStatus("groq")).toEqual({ configured: false });
	});

	test("environment lookup uses the provider's variables in order", () => {
		const store = storeWith({}, { ANTHROPIC_API_KEY: "api", ANTHROPIC_OAUTH_TOKEN: "oauth" });
		expect(store.getApiKey("anthropic")).toBe("oauth");
	});

	test("stored keys are value-resolved: $NAME, a bare variable name, the credential's env, !command", () => {
		const store = storeWith(
			{
				a: apiKey("$SECRET_A"),
				b: apiKey("SECRET_A"),
				c: { type: "api_key", key: "${OWN}", env: { OWN: "from-credential-env" } },
				d: apiKey("!printf cmd-key"),
				e: apiKey("$NOT_SET_HERE"),
				f: apiKey("!exit 7"),
			},
			{ SECRET_A: "secret-a" },
		);
		expect(store.getApiKey("a")).toBe("secret-a");
		expect(store.getApiKey("b")).toBe("secret-a");
		expect(store.getApiKey("c")).toBe("from-credential-env");
		expect(store.getApiKey("d")).toBe("cmd-key");
		expect(store.resolveApiKey("e")).toEqual({
			source: "stored",
			error: `${store.path}: key for "e": environment variable NOT_SET_HERE is not set`,
		});
		const failed = store.resolveApiKey("f");
		expect(failed.apiKey).toBeUndefined();
		expect(failed.error).toContain('command "!exit 7" failed with exit code 7');
	});

	test("stored !command keys run once per process", () => {
		const dir = makeTempDir();
		const counter = join(dir, "n");
		const store = storeWith({ a: apiKey(`!echo x >> ${counter}; printf key`) });
		expect(store.getApiKey("a")).toBe("key");
		expect(store.getApiKey("a")).toBe("key");
		expect(readFileSync(counter, "utf8")).toBe("x\n");
	});

	test("oauth: the access token until it expires, then no key with a reason", () => {
		const oauth = { type: "oauth", refresh: "r", access: "tok", expires: 5_000 };
		expect(storeWith({ anthropic: oauth }, {}, 4_999).resolveApiKey("anthropic")).toEqual({
			apiKey: "tok",
			source: "stored",
		});
		const expired = storeWith({ anthropic: oauth }, { ANTHROPIC_API_KEY: "env" }, 5_000).resolveApiKey("anthropic");
		expect(expired.apiKey).toBeUndefined();
		expect(expired.error).toContain('OAuth token for "anthropic"');
		expect(expired.error).toContain("expired at 1970-01-01T00:00:05.000Z");
	});

	test("a configured key that fails reports its error instead of falling through", () => {
		const store = storeWith({}, {});
		store.setConfiguredKeyResolver({
			status: () => ({ configured: true, source: "models_json_command" }),
			resolve: () => ({ error: "models.json: apiKey: boom" }),
		});
		expect(store.resolveApiKey("openai")).toEqual({ error: "models.json: apiKey: boom" });
	});

	test("runtime keys are never written", async () => {
		const path = authPath();
		const store = new AuthStorage(path);
		store.setRuntimeApiKey("openai", "secret-runtime");
		await store.set("groq", apiKey("g"));
		expect(readFileSync(path, "utf8")).not.toContain("secret-runtime");
	});
});
