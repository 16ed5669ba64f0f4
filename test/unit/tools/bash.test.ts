import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { AgentToolResult } from "../../../src/agent/index.ts";
import { OutputCollector } from "../../../src/tools/bash-output.ts";
import {
	type BashOperations,
	createBashTool,
	killProcessTree,
	resolveShell,
	sanitizeOutput,
} from "../../../src/tools/index.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const cwd = makeTempDir("pi-bash-test-");
const spilled: string[] = [];
const background: number[] = [];
afterAll(() => {
	for (const path of spilled) rmSync(path, { force: true });
	for (const pid of background) killProcessTree(pid);
});

function textOf(result: AgentToolResult): string {
	const block = result.content[0];
	return block?.type === "text" ? block.text : "";
}

async function run(command: string, extra: { timeout?: number; signal?: AbortSignal } = {}) {
	const tool = createBashTool(cwd);
	const result = await tool.execute("call", { command, timeout: extra.timeout }, extra.signal);
	if (result.details?.fullOutputPath) spilled.push(result.details.fullOutputPath);
	return result;
}

async function failure(promise: Promise<unknown>): Promise<string> {
	try {
		await promise;
	} catch (err) {
		return (err as Error).message;
	}
	throw new Error("expected a rejection");
}

/** Alive and not a zombie (an orphaned zombie may linger when PID 1 does not reap). */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
	} catch {
		// No /proc (macOS): kill(0) succeeding is all we know.
		return true;
	}
}

async function waitUntilDead(pid: number, ms = 2000): Promise<boolean> {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (!isAlive(pid)) return true;
		await Bun.sleep(25);
	}
	return !isAlive(pid);
}

describe("bash tool", () => {
	test("returns combined stdout and stderr", async () => {
		const result = await run("echo out; echo err >&2");
		expect(textOf(result)).toContain("out\n");
		expect(textOf(result)).toContain("err\n");
		expect(result.details).toBeUndefined();
	});

	test("empty output reads (no output)", async () => {
		expect(textOf(await run("true"))).toBe("(no output)");
	});

	test("non-zero exit throws with the output and the code", async () => {
		const message = await failure(run("echo partial; echo oops >&2; exit 3"));
		expect(message).toContain("partial");
		expect(message).toContain("oops");
		expect(message.endsWith("\n\nCommand exited with code 3")).toBe(true);
		expect(await failure(run("exit 1"))).toBe("(no output)\n\nCommand exited with code 1");
	});

	test("missing cwd is reported", async () => {
		const missing = join(cwd, "does-not-exist");
		const tool = createBashTool(missing);
		expect(await failure(tool.execute("c", { command: "echo hi" }))).toBe(
			`Working directory does not exist: ${missing}`,
		);
	});

	test("runs in cwd with env, command prefix and spawn hook", async () => {
		const tool = createBashTool(cwd, {
			env: { PI_TEST_VALUE: "from-env" },
			commandPrefix: "PREFIXED=yes",
			spawnHook: (ctx) => ({ ...ctx, env: { ...ctx.env, HOOKED: "1" } }),
		});
		const result = await tool.execute("c", { command: 'echo "$PWD|$PI_TEST_VALUE|$PREFIXED|$HOOKED"' });
		expect(textOf(result).trim()).toBe(`${cwd}|from-env|yes|1`);
	});

	test("timeout kills the whole tree, even children ignoring SIGTERM", async () => {
		const pidFile = join(cwd, "grandchild.pid");
		const command = `trap '' TERM; echo before; bash -c 'trap "" TERM; sleep 60 & echo $! > ${pidFile}; wait' ; sleep 60`;
		const started = Date.now();
		const message = await failure(run(command, { timeout: 1 }));
		expect(Date.now() - started).toBeLessThan(3000);
		expect(message).toBe("before\n\n\nCommand timed out after 1 seconds");
		const grandchild = Number(readFileSync(pidFile, "utf8").trim());
		expect(grandchild).toBeGreaterThan(0);
		expect(await waitUntilDead(grandchild)).toBe(true);
	});

	test("abort mid-run kills the command", async () => {
		const controller = new AbortController();
		const pidFile = join(cwd, "aborted.pid");
		setTimeout(() => controller.abort(), 300);
		const started = Date.now();
		const message = await failure(run(`sleep 60 & echo $! > ${pidFile}; wait`, { signal: controller.signal }));
		expect(message).toBe("Command aborted");
		expect(Date.now() - started).toBeLessThan(2000);
		expect(await waitUntilDead(Number(readFileSync(pidFile, "utf8").trim()))).toBe(true);
	});

	test("an already aborted signal rejects at once", async () => {
		const controller = new AbortController();
		controller.abort();
		expect(await failure(run("echo never", { signal: controller.signal }))).toBe("Command aborted");
	});

	test("a background child holding stdout does not block the result", async () => {
		const started = Date.now();
		const result = await run("sleep 30 & echo $!");
		background.push(Number(textOf(result).trim()));
		expect(Date.now() - started).toBeLessThan(2000);
	});

	test("streams throttled updates, the first one empty", async () => {
		const updates: AgentToolResult[] = [];
		const tool = createBashTool(cwd);
		const result = await tool.execute(
			"c",
			{ command: "for i in 1 2 3 4; do echo line$i; sleep 0.15; done" },
			undefined,
			(partial) => updates.push(partial),
		);
		expect(textOf(result)).toBe("line1\nline2\nline3\nline4\n");
		expect(updates[0]).toEqual({ content: [], details: undefined });
		const texts = updates.slice(1).map(textOf);
		expect(texts.length).toBeGreaterThanOrEqual(2);
		expect(texts.length).toBeLessThanOrEqual(8);
		expect(texts[0]).toContain("line1");
	});

	test("many lines: keeps the last 2000 and spills the full output", async () => {
		const result = await run("seq 1 3000");
		const text = textOf(result);
		const path = result.details?.fullOutputPath as string;
		expect(path).toMatch(/pi-bash-[0-9a-f]{16}\.log$/);
		expect(text.startsWith("1001\n")).toBe(true);
		expect(text.endsWith(`3000\n\n[Showing lines 1001-3000 of 3000. Full output: ${path}]`)).toBe(true);
		expect(result.details?.truncation?.truncatedBy).toBe("lines");
		expect(readFileSync(path, "utf8").split("\n").length).toBe(3001);
	});

	test("byte limit and partial last line notices", async () => {
		const wide = await run("for i in $(seq 1 100); do printf '%01000d\\n' $i; done");
		expect(textOf(wide)).toMatch(/\[Showing lines 50-100 of 100 \(50\.0KB limit\)\. Full output: .+\]$/);
		const long = await run("head -c 60000 /dev/zero | tr '\\0' a");
		expect(textOf(long)).toMatch(/\[Showing last 50\.0KB of line 1 \(line is 58\.6KB\)\. Full output: .+\]$/);
	});

	test("an output flood stays bounded in memory and completes", async () => {
		const started = Date.now();
		const result = await run("yes | head -c 20000000");
		expect(Date.now() - started).toBeLessThan(15000);
		const text = textOf(result);
		const body = text.slice(0, text.lastIndexOf("\n\n["));
		expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50 * 1024);
		expect(text).toContain("[Showing lines 9998001-10000000 of 10000000.");
		const path = result.details?.fullOutputPath as string;
		expect(statSync(path).size).toBe(20_000_000);
	}, 20000);

	test("the kept tail is cut between characters, and a character split across chunks is whole", () => {
		const collector = new OutputCollector();
		const text = Buffer.from("é€\n".repeat(40_000));
		// Odd chunk sizes split the 2- and 3-byte characters; the tail is compacted several times on the way.
		for (let at = 0; at < text.length; at += 7_001) collector.push(text.subarray(at, at + 7_001));
		collector.finish();
		const shown = collector.format().text;
		spilled.push(collector.snapshot().fullOutputPath as string);
		expect(shown).not.toContain("\uFFFD");
		expect(shown.startsWith("é€\n")).toBe(true);
	});

	test("the collector keeps only a bounded tail", () => {
		const collector = new OutputCollector();
		const chunk = Buffer.alloc(64 * 1024, "y\n");
		for (let i = 0; i < 100; i++) collector.push(chunk);
		collector.finish();
		expect(collector.bufferedChars).toBeLessThanOrEqual(4 * 50 * 1024);
		const path = collector.snapshot().fullOutputPath as string;
		spilled.push(path);
		expect(existsSync(path) && statSync(path).size).toBe(100 * 64 * 1024);
	});

	test("custom operations run the command elsewhere", async () => {
		const seen: string[] = [];
		const operations: BashOperations = {
			async exec(command, dir, { onData }) {
				seen.push(`${dir}:${command}`);
				onData(Buffer.from("remote output\n"));
				return { exitCode: 0 };
			},
		};
		const result = await createBashTool("/remote", { operations }).execute("c", { command: "ls" });
		expect(textOf(result)).toBe("remote output\n");
		expect(seen).toEqual(["/remote:ls"]);
		const timingOut: BashOperations = { exec: async () => Promise.reject(new Error("timeout:5")) };
		expect(await failure(createBashTool("/r", { operations: timingOut }).execute("c", { command: "x" }))).toBe(
			"Command timed out after 5 seconds",
		);
	});
});

describe("shell helpers", () => {
	test("resolveShell prefers the configured path and rejects a missing one", () => {
		expect(resolveShell().args).toEqual(["-c"]);
		expect(resolveShell("/bin/sh").shell).toBe("/bin/sh");
		expect(() => resolveShell("/no/such/shell")).toThrow("Custom shell path not found");
	});

	test("killProcessTree tolerates a process that is gone", () => {
		expect(() => killProcessTree(2 ** 22 + 12345)).not.toThrow();
	});

	test("binary output is summarised, not sent as replacement characters; the whole output is kept", async () => {
		const result = await run("head -c 102400 /dev/urandom");
		const text = textOf(result);
		expect(text).toMatch(/^Binary output, 102400 bytes \(not shown; full output: \S+pi-bash-[0-9a-f]{16}\.log; /);
		expect(text).not.toContain("\uFFFD");
		const path = result.details?.fullOutputPath as string;
		expect(statSync(path).size).toBe(102400);
		// Small binary output too, and text after a NUL-separated list stays text.
		const small = await run("printf 'a\\000\\377\\376\\001\\002\\003\\004\\005\\006'");
		expect(textOf(small)).toMatch(/^Binary output, 10 bytes/);
		expect(statSync(small.details?.fullOutputPath as string).size).toBe(10);
		const text0 = await run("printf 'alpha.txt\\000beta.txt\\000gamma-and-more-text.txt\\000'");
		expect(textOf(text0)).toContain("beta.txt");
	});

	test.skipIf(process.platform !== "linux")("cmd & returns at once and names the PID it left running", async () => {
		const started = performance.now();
		const result = await run("sleep 37 & echo started");
		expect(performance.now() - started).toBeLessThan(5_000);
		const text = textOf(result);
		const match = /Still running in the background: PID (\d+) \(sleep 37\)$/.exec(text);
		expect(match).not.toBeNull();
		const pid = Number(match?.[1]);
		background.push(pid);
		expect(text.startsWith("started\n")).toBe(true);
		expect(() => process.kill(pid, 0)).not.toThrow();
		// Nothing left running: no note.
		expect(textOf(await run("true & wait; echo done"))).toBe("done\n");
		const quiet = textOf(await run("sleep 36 >/dev/null 2>&1 &"));
		// Scanned right after the shell exits: the child may not have become `sleep` yet (still the forked shell).
		const other = /^Still running in the background: PID (\d+) \(.+\)$/.exec(quiet);
		expect(other).not.toBeNull();
		background.push(Number(other?.[1]));
	});

	test("sanitizeOutput drops escapes and control characters", () => {
		expect(sanitizeOutput("\x1b[31mred\x1b[0m\r\nnext\x07\tok")).toBe("red\nnext\tok");
	});
});
