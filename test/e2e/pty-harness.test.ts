/**
 * The pseudo-terminal harness (test/helpers/pty-app.ts) proven on pi 0.87.1 itself: its start-up frame, a turn
 * against the mock LLM, and leaving with Ctrl+C twice. Skips, saying why, when pi cannot run here.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type PtyApp, piUnavailable, startPi } from "../helpers/pty-app.ts";
import { descendants } from "../support/process-tree.ts";
import { isKeyName, keyBytes } from "../support/pty-keys.ts";

const apps: PtyApp[] = [];
afterAll(async () => {
	await Promise.all(apps.splice(0).map((app) => app.close()));
});

test("key names become the bytes an xterm sends, or kitty's forms once negotiated", () => {
	const xterm = { kitty: false, modifyOtherKeys: false, applicationCursorKeys: false };
	const mok = { ...xterm, modifyOtherKeys: true };
	const kitty = { ...xterm, kitty: true };
	const bytes = (keys: string[], state: typeof xterm) => keys.map((key) => keyBytes(key, state));
	const keys = ["enter", "escape", "ctrl+c", "alt+enter", "shift+enter", "shift+tab", "up", "ctrl+left", "ctrl+alt+p"];
	expect(bytes(keys, xterm)).toEqual([
		"\r",
		"\x1b",
		"\x03",
		"\x1b\r",
		"\r",
		"\x1b[Z",
		"\x1b[A",
		"\x1b[1;5D",
		"\x1b\x10",
	]);
	expect(bytes(["shift+enter", "alt+enter", "ctrl+shift+u"], mok)).toEqual([
		"\x1b[27;2;13~",
		"\x1b[27;3;13~",
		"\x1b[27;6;117~",
	]);
	expect(bytes(keys, kitty)).toEqual([
		"\r",
		"\x1b[27u",
		"\x1b[99;5u",
		"\x1b[13;3u",
		"\x1b[13;2u",
		"\x1b[9;2u",
		"\x1b[A",
		"\x1b[1;5D",
		"\x1b[112;7u",
	]);
	expect(keyBytes("up", { ...xterm, applicationCursorKeys: true })).toBe("\x1bOA");
	expect(["enter", "ctrl+c", "pagedown", "f5"].every(isKeyName)).toBe(true);
	expect(["q", "hello", "a+b", "/footer"].some(isKeyName)).toBe(false);
	expect(() => keyBytes("hyper+x", xterm)).toThrow('unknown modifier "hyper"');
});

const skip = piUnavailable();
if (skip) console.warn(`pty harness: skipped: ${skip}`);

test.skipIf(skip !== undefined)(
	"pi 0.87.1 in a pseudo-terminal: start-up frame, one turn, Ctrl+C twice exits",
	async () => {
		const started = await startPi({ mock: [{ kind: "reply", text: "Hello from the mock model" }] });
		if ("skip" in started) throw new Error(started.skip);
		const app = started;
		apps.push(app);

		// Start-up: the editor between two rules, then the footer with the context use and the mock model.
		await app.waitFor((lines) => lines.some((line) => line.includes("mock-1")), 20_000);
		const first = await app.ready();
		expect(app.title()).toBe("π - work");
		expect(app.keyboard().kitty).toBe(false);
		const rules = first.map((line, i) => (/^─{20,}$/.test(line) ? i : -1)).filter((i) => i >= 0);
		expect(rules.length).toBeGreaterThanOrEqual(2);
		const footer = first.slice(rules.at(-1) as number).join("\n");
		expect(footer).toMatch(/0\.0%\/200k/);
		expect(footer).toContain("mock-1");

		app.type("hello");
		await app.waitFor(/^hello$/m);
		await app.press("enter");
		const replied = await app.waitFor("Hello from the mock model", 15_000);
		expect(replied.join("\n")).toMatch(/^ hello$/m);
		expect(app.mock.requests.length).toBe(1);

		await app.press("ctrl+c");
		await Bun.sleep(200);
		await app.press("ctrl+c");
		const code = await Promise.race([app.exited, Bun.sleep(10_000).then(() => "still running")]);
		expect(code).toBe(0);
		// The last lines may arrive just after the exit, and may have scrolled the screen.
		let last = "";
		for (let tries = 0; tries < 40 && !/To resume this session/.test(last); tries++) {
			await Bun.sleep(50);
			last = [...(await app.scrollback()), ...(await app.screen())].join("\n");
		}
		expect(last).toMatch(/To resume this session: pi --session \S+/);
	},
	60_000,
);

/** A session file pi can continue: a header and one user/assistant exchange. */
function sessionFile(): string {
	const entries = [
		{ type: "session", version: 3, id: "harness-session", timestamp: "2026-01-01T00:00:00.000Z", cwd: "{{cwd}}" },
		{
			type: "message",
			id: "a1",
			parentId: null,
			timestamp: "2026-01-01T00:00:01.000Z",
			message: { role: "user", content: "an earlier question", timestamp: 1 },
		},
		{
			type: "message",
			id: "a2",
			parentId: "a1",
			timestamp: "2026-01-01T00:00:02.000Z",
			message: {
				role: "assistant",
				content: [{ type: "text", text: "an earlier answer" }],
				api: "anthropic-messages",
				provider: "mock",
				model: "mock-1",
				usage: {
					input: 1,
					output: 1,
					cacheRead: 0,
					cacheWrite: 0,
					totalTokens: 2,
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
				},
				stopReason: "stop",
				timestamp: 2,
			},
		},
	];
	return `${entries.map((entry) => JSON.stringify(entry)).join("\n")}\n`;
}

test.skipIf(skip !== undefined)(
	"kitty keyboard: the emulator offers it, pi turns it on, keys go in kitty form; a session file is continued; resize redraws",
	async () => {
		const started = await startPi({
			keyboard: "kitty",
			sessions: { "2026-01-01T00-00-00-000Z_harness-session.jsonl": sessionFile() },
			args: ["-c"],
		});
		if ("skip" in started) throw new Error(started.skip);
		const app = started;
		apps.push(app);
		await app.ready();
		const first = await app.waitFor("an earlier answer");
		expect(first.join("\n")).toContain("an earlier question");
		expect(first.join("\n")).toContain("an earlier answer");
		expect(app.output()).toContain("\x1b[>7u");
		expect(app.keyboard().kitty).toBe(true);

		// shift+enter is only distinguishable from enter under the kitty protocol: it makes a new editor line.
		app.type("one");
		await app.press("shift+enter");
		app.type("two");
		const twoLines = await app.waitFor(/^one\ntwo$/m);
		expect(twoLines.join("\n")).not.toContain("Startup is still in progress");
		// A bracketed paste keeps its line breaks as text (an Enter inside it would submit).
		app.paste(" three\nfour");
		await app.waitFor(/^one\ntwo three\nfour$/m);

		app.resize(60, 20);
		const narrow = await app.waitFor((lines) => lines.length === 20 && lines.some((line) => /^─{60}$/.test(line)));
		expect(narrow.some((line) => /^─{61,}/.test(line))).toBe(false);

		await app.press("ctrl+c");
		await app.waitFor((lines) => !lines.includes("one"));
		await app.press("ctrl+c");
		expect(await Promise.race([app.exited, Bun.sleep(10_000).then(() => "still running")])).toBe(0);
		// Leaving pops the kitty flags it pushed.
		expect(app.output()).toContain("\x1b[<u");
	},
	60_000,
);

test.skipIf(skip !== undefined)(
	"close() ends the app and what it started, even a command in its own process group",
	async () => {
		const started = await startPi({
			mock: [
				{
					kind: "reply",
					text: "",
					toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "sleep 300" } }],
				},
			],
		});
		if ("skip" in started) throw new Error(started.skip);
		const app = started;
		apps.push(app);
		await app.ready();
		app.type("wait");
		await app.press("enter");
		await app.waitFor("$ sleep 300");
		const deadline = Date.now() + 5000;
		let family = descendants(app.pid);
		while (!family.some((pid) => isSleep(pid)) && Date.now() < deadline) {
			await Bun.sleep(50);
			family = descendants(app.pid);
		}
		expect(family.some((pid) => isSleep(pid))).toBe(true);
		await app.close();
		await Bun.sleep(200);
		expect(family.filter((pid) => alive(pid))).toEqual([]);
	},
	60_000,
);

function isSleep(pid: number): boolean {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep");
	} catch {
		return false;
	}
}

function alive(pid: number): boolean {
	try {
		// A zombie (ended, not yet reaped by its vanished parent) counts as gone.
		return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
	} catch {
		return false;
	}
}
