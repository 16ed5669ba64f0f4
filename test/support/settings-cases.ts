/**
 * The settings and auth.json fault cases (issue 23 item 2), shared by `test/reliability/settings-*.test.ts` and
 * the reliability bench (`scripts/bench/reliability/settings.ts`). Each writer is a separate OS process: our code
 * through `settings-writer.ts` under Bun, our binary (`pi install <dir>` writes settings.json), or pi 0.87.1's own
 * SettingsManager and AuthStorage through `pi-settings-writer.mjs` under Node 22.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunnablePi } from "../../scripts/conformance-cache.ts";
import { AuthStorage } from "../../src/ai/index.ts";
import { SettingsStore, updateJsonFile } from "../../src/config/index.ts";
import { makeTempDir } from "../helpers/tmp.ts";

const writer = join(import.meta.dir, "settings-writer.ts");
const piWriter = join(import.meta.dir, "pi-settings-writer.mjs");

/** ours-store: SettingsStore (the binary's code); ours-manager: pi's SettingsManager API; binary: `pi install`. */
export type WriterKind = "ours-store" | "ours-manager" | "ours-auth" | "binary" | "pi-settings" | "pi-auth";

export interface WritersOutcome {
	expected: number;
	lost: number;
	/** Writer processes that exited non-zero or printed an error. */
	failed: number;
	/** What the writers printed on stderr (first lines). */
	errors: string;
	ms: number;
	/** What is left beside the file besides itself (lock dirs, owner records, temp files). */
	leftovers: string[];
}

async function run(cmd: string[], env?: Record<string, string>): Promise<{ code: number; stderr: string }> {
	const child = Bun.spawn(cmd, { stdout: "ignore", stderr: "pipe", ...(env ? { env } : {}) });
	const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
	return { code, stderr };
}

/** One `pi install` after another, each a new binary process; stops at the first failure. */
async function installLoop(bin: string, home: string, cwd: string, dirs: string[]) {
	const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") };
	for (const dir of dirs) {
		const child = Bun.spawn([bin, "install", dir], { cwd, env, stdout: "ignore", stderr: "pipe" });
		const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
		if (code !== 0) return { code, stderr };
	}
	return { code: 0, stderr: "" };
}

/** `processes` writers at once, each making `updates` changes of its own: how many changes the file lacks after. */
export async function concurrentWriters(
	kind: WriterKind,
	processes: number,
	updates: number,
	tools: { bin?: string; pi?: RunnablePi | null } = {},
): Promise<WritersOutcome> {
	const agentDir = makeTempDir("pi-rel-agent-");
	const cwd = makeTempDir("pi-rel-cwd-");
	const auth = kind === "ours-auth" || kind === "pi-auth";
	const file = join(agentDir, auth ? "auth.json" : "settings.json");
	const started = performance.now();
	const results = await Promise.all(
		Array.from({ length: processes }, (_, p) => {
			const prefix = `p${p}k`;
			const count = String(updates);
			switch (kind) {
				case "ours-store":
					return run([process.execPath, writer, "write", agentDir, cwd, prefix, count]);
				case "ours-manager":
					return run([process.execPath, writer, "manager", agentDir, cwd, prefix, count]);
				case "ours-auth":
					return run([process.execPath, writer, "auth", file, prefix, count]);
				case "pi-settings":
				case "pi-auth": {
					const pi = tools.pi;
					if (!pi) throw new Error("pi 0.87.1 is not available");
					const args = kind === "pi-auth" ? ["auth", file, prefix, count] : ["write", agentDir, cwd, prefix, count];
					return run([pi.node, piWriter, pi.modules, ...args]);
				}
				case "binary": {
					const home = join(agentDir, "home");
					const dirs = Array.from({ length: updates }, (_, i) => {
						const dir = join(cwd, "pkgs", `${prefix}${i}`);
						mkdirSync(dir, { recursive: true });
						writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `${prefix}${i}`, version: "1.0.0" }));
						return dir;
					});
					return installLoop(tools.bin ?? "dist/pi", home, cwd, dirs);
				}
				default:
					throw new Error(`unknown writer ${kind satisfies never}`);
			}
		}),
	);
	const ms = performance.now() - started;
	const expected = processes * updates;
	const target = kind === "binary" ? join(agentDir, "home", ".pi", "agent", "settings.json") : file;
	let present = 0;
	try {
		const data = JSON.parse(readFileSync(target, "utf8")) as Record<string, unknown>;
		if (kind === "binary") {
			const entries = (data.packages ?? []) as unknown[];
			const names = new Set(entries.map((e) => String(typeof e === "string" ? e : (e as { source?: string }).source)));
			for (let p = 0; p < processes; p++)
				for (let i = 0; i < updates; i++) if ([...names].some((n) => n.endsWith(`/p${p}k${i}`))) present++;
		} else {
			for (let p = 0; p < processes; p++) for (let i = 0; i < updates; i++) if (`p${p}k${i}` in data) present++;
		}
	} catch {
		// An unreadable file: everything is lost.
	}
	const dir = join(target, "..");
	const base = target.slice(dir.length + 1);
	return {
		expected,
		lost: expected - present,
		failed: results.filter((r) => r.code !== 0 || r.stderr.trim() !== "").length,
		errors: results
			.map((r) => r.stderr.trim().split("\n").slice(0, 2).join(" | "))
			.filter(Boolean)
			.slice(0, 3)
			.join(" || "),
		ms,
		leftovers: readdirSync(dir).filter((f) => (f.startsWith(base) && f !== base) || f.startsWith(`.${base}`)),
	};
}

/** Everything a child prints on a stream, as it comes; `until` waits for a line. */
function watch(stream: ReadableStream<Uint8Array>) {
	let text = "";
	const decoder = new TextDecoder();
	const done = (async () => {
		for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
	})();
	return {
		text: () => text,
		done,
		async until(expected: string, ms = 10_000): Promise<void> {
			const deadline = Date.now() + ms;
			while (!text.includes(expected)) {
				if (Date.now() > deadline) throw new Error(`no "${expected}" within ${ms} ms (got "${text.slice(-200)}")`);
				await Bun.sleep(2);
			}
		},
	};
}

/** auth.json with an OAuth login for `provider` that has expired (so the next request refreshes it). */
export function expiredLogin(authPath: string, provider: string): void {
	const expired = { type: "oauth", refresh: "old-refresh", access: "old-access", expires: Date.now() - 60_000 };
	writeFileSync(authPath, JSON.stringify({ [provider]: expired }), { mode: 0o600 });
}

/**
 * A writer holds the lock (settings: inside its locked section; auth: during an OAuth refresh) and is killed with
 * SIGKILL; then a write is made in this process. Returns the time that write took, in ms.
 */
export async function staleLockTakeover(kind: "settings" | "auth"): Promise<{ ms: number; landed: boolean }> {
	const agentDir = makeTempDir("pi-rel-agent-");
	const file = join(agentDir, kind === "auth" ? "auth.json" : "settings.json");
	if (kind === "auth") expiredLogin(file, "acme");
	const args = kind === "auth" ? ["refresh", file, "acme", "never"] : ["hold", file];
	const holder = Bun.spawn([process.execPath, writer, ...args], { stdout: "pipe", stderr: "pipe" });
	await watch(holder.stdout).until("locked");
	if (!existsSync(`${file}.lock`)) throw new Error("the holder has no lock");
	holder.kill("SIGKILL");
	await holder.exited;
	const started = performance.now();
	if (kind === "auth") {
		const auth = new AuthStorage(file);
		await auth.set("other", { type: "api_key", key: "k" });
		const ms = performance.now() - started;
		return { ms, landed: new AuthStorage(file).get("other")?.type === "api_key" };
	}
	const store = new SettingsStore({ agentDir, cwd: agentDir, projectTrusted: false });
	await store.set("global", "theme", "light");
	const ms = performance.now() - started;
	return { ms, landed: JSON.parse(readFileSync(file, "utf8")).theme === "light" };
}

export interface LostLockOutcome {
	/** The refreshing writer's exit code and what it printed. */
	code: number;
	stdout: string;
	stderr: string;
	/** auth.json afterwards. */
	file: Record<string, { access?: string; key?: string }>;
}

/**
 * A writer holds the auth.json lock during an OAuth refresh of `refreshMs`; meanwhile the lock is taken from it:
 * `removed` deletes the lock directory (another program, or a writer that judged it stale) and this process then
 * stores another key; `mtime` changes the lock's mtime (what a clock jump or a takeover looks like to
 * proper-lockfile, whose check then reports the lock compromised).
 */
export async function lockLostWhileHeld(how: "removed" | "mtime", refreshMs: number): Promise<LostLockOutcome> {
	const agentDir = makeTempDir("pi-rel-agent-");
	const file = join(agentDir, "auth.json");
	expiredLogin(file, "acme");
	const child = Bun.spawn([process.execPath, writer, "refresh", file, "acme", String(refreshMs)], {
		stdout: "pipe",
		stderr: "pipe",
	});
	const out = watch(child.stdout);
	const err = watch(child.stderr);
	await out.until("locked");
	if (how === "removed") {
		rmSync(`${file}.lock`, { recursive: true, force: true });
		await new AuthStorage(file).set("other", { type: "api_key", key: "meanwhile" });
	} else {
		const { utimesSync } = await import("node:fs");
		const past = new Date(Date.now() - 1000);
		utimesSync(`${file}.lock`, past, past);
	}
	const code = await child.exited;
	await Promise.all([out.done, err.done]);
	return { code, stdout: out.text(), stderr: err.text(), file: JSON.parse(readFileSync(file, "utf8")) };
}

export interface KillOutcome {
	kills: number;
	/** Kills after which the file did not parse as a JSON object. */
	torn: number;
	/** Temp files left beside the file after all the kills and one more write (ours only). */
	temps: number;
}

/**
 * Kills a writer that rewrites the file (one value of `bytes` characters) with SIGKILL at a random moment,
 * `kills` times, and checks after each that the file is a complete JSON object (the old or the new one).
 */
export async function killDuringWrite(
	kind: "settings" | "auth",
	kills: number,
	bytes: number,
	pi?: RunnablePi | null,
): Promise<KillOutcome> {
	const agentDir = makeTempDir("pi-rel-agent-");
	const file = join(agentDir, kind === "auth" ? "auth.json" : "settings.json");
	let torn = 0;
	for (let k = 0; k < kills; k++) {
		const cmd = pi
			? [pi.node, piWriter, pi.modules, "churn", kind, file, String(bytes)]
			: [process.execPath, writer, "churn", kind, file, String(bytes)];
		const child = Bun.spawn(cmd, { stdout: "pipe", stderr: "ignore" });
		await watch(child.stdout).until("round 2", 20_000);
		await Bun.sleep(Math.random() * 30);
		child.kill("SIGKILL");
		await child.exited;
		try {
			const data = JSON.parse(readFileSync(file, "utf8"));
			if (typeof data !== "object" || data === null || Array.isArray(data)) torn++;
		} catch {
			torn++;
			// Start the next writer from a good file, as a user would after restoring it.
			writeFileSync(file, "{}");
		}
	}
	// The next writer (ours) takes the last killed writer's lock over and tidies what it left mid-write.
	if (!pi && kind === "auth") await new AuthStorage(file).set("after", { type: "api_key", key: "k" });
	if (!pi && kind === "settings") {
		await updateJsonFile(file, (data) => {
			data.after = true;
		});
	}
	const temps = readdirSync(agentDir).filter((f) => f.endsWith(".tmp")).length;
	return { kills, torn, temps };
}
