/**
 * ProcessTerminal in a real pseudo-terminal (Bun.spawn with `terminal`): the test plays the terminal emulator,
 * answering the keyboard negotiation like kitty or like a terminal without the kitty protocol, typing keys and
 * pastes, resizing, and reading back what the child echoes (through a headless emulator for the screen and the
 * terminal modes; the raw bytes only for protocol switches an emulator does not keep as state).
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Terminal as XTerm } from "@xterm/headless";
import { screenOf } from "../helpers/screen.ts";

const CHILD = join(import.meta.dir, "..", "support", "process-terminal-child.ts");
const NEGOTIATION = "\x1b[>7u\x1b[?u\x1b[c";

interface Session {
	output: () => string;
	send: (data: string) => void;
	resize: (cols: number, rows: number) => void;
	waitFor: (text: string, timeoutMs?: number) => Promise<void>;
	exited: Promise<number>;
	kill: () => void;
}

const sessions: Session[] = [];
afterEach(() => {
	for (const s of sessions.splice(0)) s.kill();
});

function startChild(env: Record<string, string> = {}): Session {
	let output = "";
	const decoder = new TextDecoder();
	const proc = Bun.spawn([process.execPath, CHILD], {
		env: { ...process.env, SSH_CONNECTION: "", SSH_TTY: "", PI_TUI_ESC_TIMEOUT: "", ...env },
		terminal: {
			cols: 100,
			rows: 30,
			data: (_term, data) => {
				output += decoder.decode(data, { stream: true });
			},
		},
	});
	const terminal = proc.terminal as NonNullable<typeof proc.terminal>;
	const session: Session = {
		output: () => output,
		send: (data) => terminal.write(data),
		resize: (cols, rows) => terminal.resize(cols, rows),
		async waitFor(text, timeoutMs = 10_000) {
			const deadline = Date.now() + timeoutMs;
			while (!output.includes(text)) {
				if (Date.now() > deadline)
					throw new Error(`timed out waiting for ${JSON.stringify(text)} in ${JSON.stringify(output)}`);
				await Bun.sleep(10);
			}
		},
		exited: proc.exited,
		kill: () => {
			proc.kill();
			terminal.close();
		},
	};
	sessions.push(session);
	return session;
}

/** Terminal modes after the bytes so far, as an emulator keeps them. */
async function modesOf(bytes: string): Promise<{ bracketedPaste: boolean }> {
	const term = new XTerm({ cols: 100, rows: 30, allowProposedApi: true });
	await new Promise<void>((resolve) => term.write(bytes, resolve));
	const modes = { bracketedPaste: term.modes.bracketedPasteMode };
	term.dispose();
	return modes;
}

const visible = async (bytes: string) => (await screenOf(bytes, 100, 30)).lines.filter((line) => line !== "");

test("kitty terminal: negotiation turns the kitty protocol on, keys and pastes arrive one by one, stop restores all", async () => {
	const s = startChild();
	await s.waitFor(NEGOTIATION);
	await s.waitFor("started 100x30 raw=true");
	expect((await modesOf(s.output())).bracketedPaste).toBe(true);
	s.send("\x1b[?7u\x1b[?62;22c"); // kitty flags, then the DA sentinel
	s.send("\x1b[97;5u");
	await s.waitFor("ctrl+a kitty=true");
	s.send("\x1b[13;2ua\x1b[97;1:3u"); // batched: shift+enter, a, release of a
	await s.waitFor('key "\\u001b[97;1:3u"');
	s.send("\x1b[200~pasted text\x1b[201~");
	await s.waitFor("pasted text");
	s.send("\x1b");
	await s.waitFor("escape kitty=true");
	s.send("\x1b[<0;3;4M");
	await s.waitFor("<0;3;4M");
	s.resize(120, 40);
	await s.waitFor("resize 120x40");
	s.send("q");
	await s.waitFor("stopped raw=false kitty=false");
	expect(await s.exited).toBe(0);

	const out = s.output();
	expect(await visible(out)).toEqual([
		"started 100x30 raw=true",
		'key "\\u001b[97;5u" ctrl+a kitty=true',
		'key "\\u001b[13;2u" shift+enter kitty=true',
		'key "a" a kitty=true',
		'key "\\u001b[97;1:3u" a kitty=true',
		'key "\\u001b[200~pasted text\\u001b[201~" - kitty=true',
		'key "\\u001b" escape kitty=true',
		'key "\\u001b[<0;3;4M" - kitty=true',
		"resize 120x40",
		"stopped raw=false kitty=false",
	]);
	expect((await modesOf(out)).bracketedPaste).toBe(false);
	const tail = out.slice(out.indexOf("\x1b]9;4;0\x07"));
	expect(tail).toContain("\x1b[<u"); // kitty flags popped
	expect(tail).toContain("\x1b[?25h"); // cursor shown
	expect(out).not.toContain("\x1b[>4;2m"); // no modifyOtherKeys under kitty
	expect(out).toContain("\x1b]0;pty test\x07");
	expect(out.split("\x1b[<u").length).toBe(2); // the second stop() wrote nothing
}, 30_000);

test("terminal without kitty: DA first enables modifyOtherKeys, which stop turns off", async () => {
	const s = startChild();
	await s.waitFor(NEGOTIATION);
	s.send("\x1b[?62;22c");
	await s.waitFor("\x1b[>4;2m");
	s.send("\x1b[27;5;13~");
	await s.waitFor("ctrl+enter kitty=false");
	s.send("\x01\x1bx");
	await s.waitFor("alt+x kitty=false");
	s.send("q");
	await s.waitFor("stopped");
	expect(await s.exited).toBe(0);
	const lines = await visible(s.output());
	expect(lines).toContain('key "\\u0001" ctrl+a kitty=false');
	expect(s.output().slice(s.output().indexOf("\x1b[>4;2m"))).toContain("\x1b[>4;0m");
}, 30_000);

test("a keyboard reply split across reads is still recognised", async () => {
	const s = startChild();
	await s.waitFor(NEGOTIATION);
	s.send("\x1b[?");
	await Bun.sleep(30);
	s.send("1u");
	await Bun.sleep(30);
	s.send("\x1b[99;5u");
	await s.waitFor("ctrl+c kitty=true");
	expect(s.output()).not.toContain('key "\\u001b[?');
	s.send("q");
	expect(await s.exited).toBe(0);
}, 30_000);

let logDir: string | undefined;
afterEach(() => {
	if (logDir) rmSync(logDir, { recursive: true, force: true });
	logDir = undefined;
});

test("PI_TUI_WRITE_LOG=<dir> keeps a copy of every byte written", async () => {
	logDir = mkdtempSync(join(tmpdir(), "pi-tui-log-"));
	const s = startChild({ PI_TUI_WRITE_LOG: logDir });
	await s.waitFor("started");
	s.send("\x1b[?62c");
	s.send("z");
	await s.waitFor('key "z"');
	s.send("q");
	expect(await s.exited).toBe(0);
	const files = readdirSync(logDir);
	expect(files).toHaveLength(1);
	expect(files[0]).toMatch(/^tui-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d-\d+\.log$/);
	const log = readFileSync(join(logDir, files[0] as string), "utf8");
	expect(log).toContain(NEGOTIATION);
	expect(log).toContain('key "z" z kitty=false');
	expect(log).toContain("\x1b[?2004l");
}, 30_000);

test("without a terminal the size falls back to COLUMNS/LINES, then 80×24", () => {
	const script = `import { ProcessTerminal } from ${JSON.stringify(join(import.meta.dir, "..", "..", "src", "tui", "index.ts"))};
const t = new ProcessTerminal(); console.log(t.columns + "x" + t.rows);`;
	const run = (env: Record<string, string>) =>
		Bun.spawnSync([process.execPath, "-e", script], { env: { ...process.env, COLUMNS: "", LINES: "", ...env } })
			.stdout.toString()
			.trim();
	expect(run({ COLUMNS: "77", LINES: "11" })).toBe("77x11");
	expect(run({})).toBe("80x24");
}, 30_000);

test("drainInput leaves the kitty protocol and swallows input until it goes quiet", async () => {
	const s = startChild();
	await s.waitFor(NEGOTIATION);
	s.send("\x1b[?7u");
	s.send("\x1b[98u");
	await s.waitFor("b kitty=true");
	s.send("dx"); // "x" arrives while draining
	await s.waitFor("drained");
	s.send("y");
	await s.waitFor('key "y" y kitty=false');
	const out = s.output();
	expect(out).not.toContain('key "x"');
	expect(out.indexOf("\x1b[<u")).toBeLessThan(out.indexOf("drained"));
	s.send("q");
	expect(await s.exited).toBe(0);
}, 30_000);

test("a lone ESC is Escape after 10 ms; over SSH it waits 100 ms, so ESC then a key is an Alt chord", async () => {
	const local = startChild();
	await local.waitFor(NEGOTIATION);
	local.send("\x1b[?62c");
	local.send("\x1b");
	await Bun.sleep(120);
	local.send("a");
	await local.waitFor('key "a"');
	expect(local.output()).toContain('key "\\u001b" escape');

	const ssh = startChild({ SSH_CONNECTION: "10.0.0.1 5000 10.0.0.2 22" });
	await ssh.waitFor(NEGOTIATION);
	ssh.send("\x1b[?62c");
	ssh.send("\x1b");
	await Bun.sleep(30);
	ssh.send("a");
	await ssh.waitFor("alt+a");
	expect(ssh.output()).not.toContain("escape");
	local.send("q");
	ssh.send("q");
	expect(await local.exited).toBe(0);
	expect(await ssh.exited).toBe(0);
}, 30_000);
