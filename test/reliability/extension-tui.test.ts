/**
 * Extensions that never give control back, in the interactive mode under a real pseudo-terminal:
 * - a command whose promise never settles: SIGTERM, SIGINT or SIGHUP from outside ends pi and the terminal modes
 *   are reset (bracketed paste off, kitty keyboard popped, cursor shown) — read from the bytes pi wrote;
 *   `/reload` still answers while it hangs;
 * - an infinite synchronous loop in a command (the documented limit, docs/reliability.md): pi's signal handlers
 *   cannot run, so SIGTERM waits behind the loop; `kill -9` ends it, and the session file keeps what was written
 *   before;
 * - `process.exit(5)` in a command: pi ends with 5 (as pi 0.87.1) and the terminal modes are reset.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type PtyApp, startOurs } from "../helpers/pty-app.ts";

const apps: PtyApp[] = [];
afterEach(async () => {
	await Promise.all(apps.splice(0).map((app) => app.close()));
});

const EXTENSION = [
	"export default function (pi) {",
	"  pi.registerCommand('wait', { description: 'never ends', handler: () => new Promise(() => {}) });",
	"  pi.registerCommand('spin', { description: 'loops', handler: async () => { for (;;) {} } });",
	"  pi.registerCommand('bye', { description: 'exits', handler: async () => { process.exit(5); } });",
	"}",
].join("\n");

async function start(): Promise<PtyApp> {
	const app = await startOurs({
		files: { "stuck.ts": EXTENSION },
		extensions: ["stuck.ts"],
		keyboard: "kitty",
		mock: [{ kind: "reply", text: "written before the loop" }],
	});
	apps.push(app);
	await app.ready();
	return app;
}

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

describe("a command that never settles", () => {
	for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
		test(`${signal} from outside ends pi and resets the terminal modes`, async () => {
			const app = await start();
			expect(app.keyboard().kitty).toBe(true);
			await app.press("/wait", "enter");
			await Bun.sleep(300);
			const before = app.output().length;
			process.kill(app.pid, signal);
			const code = await Promise.race([app.exited, Bun.sleep(5_000).then(() => "still running")]);
			expect(code).not.toBe("still running");
			const after = app.output().slice(before);
			expect(after).toContain("\x1b[?2004l");
			expect(after).toContain("\x1b[<u");
			expect(after).toContain("\x1b[?25h");
		}, 30_000);
	}

	test("/reload still answers while it hangs", async () => {
		const app = await start();
		await app.press("/wait", "enter");
		await Bun.sleep(300);
		await app.press("/reload", "enter");
		await app.waitFor(/Reloaded/i, 10_000);
	}, 30_000);
});

test("an infinite loop in a command: SIGTERM waits behind it, kill -9 ends it, the session keeps what came before", async () => {
	const app = await start();
	await app.press("hello", "enter");
	await app.waitFor("written before the loop", 15_000);
	await app.press("/spin", "enter");
	await Bun.sleep(500);
	process.kill(app.pid, "SIGTERM");
	await Bun.sleep(1_000);
	expect(alive(app.pid)).toBe(true);
	process.kill(app.pid, "SIGKILL");
	expect(await app.exited).toBe(128 + 9);
	const dir = join(app.home, ".pi/agent/sessions");
	const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.name.endsWith(".jsonl"));
	const text = files.map((f) => readFileSync(join(f.parentPath, f.name), "utf8")).join("");
	for (const line of text.trimEnd().split("\n")) JSON.parse(line);
	expect(text).toContain("written before the loop");
}, 30_000);

test("process.exit in a command: pi ends with its code and the terminal modes are reset", async () => {
	const app = await start();
	await app.press("hello", "enter");
	await app.waitFor("written before the loop", 15_000);
	const before = app.output().length;
	await app.press("/bye", "enter");
	expect(await app.exited).toBe(5);
	const after = app.output().slice(before);
	expect(after).toMatch(/pi: an extension called process\.exit\(5\) at \S+\/stuck\.ts:\d+:\d+; exiting/);
	for (const reset of ["\x1b[?2004l", "\x1b[<u", "\x1b[?25h"]) expect(after).toContain(reset);
}, 30_000);
