/**
 * Our interactive mode in a pseudo-terminal (the compiled binary, a temp HOME, the mock LLM): a tool-using turn
 * aborted with Escape, steering while a reply streams, `!cmd` and `!!cmd`, `@file` completion, a resize in the
 * middle of a stream, a resumed 1,000-message session, and quitting with the terminal given back.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync } from "node:fs";
import { join } from "node:path";
import { writeSession } from "../../scripts/bench/interactive-sessions.ts";
import { BUILTIN_THEME_JSON } from "../../src/resources/index.ts";
import { reply, submit, toolReply } from "../helpers/interactive-scenarios.ts";
import { ourAppStarter } from "../helpers/pty-app.ts";
import { makeTempDir } from "../helpers/tmp.ts";

const start = ourAppStarter();

/** A long reply streamed slowly (about `ms` milliseconds in all). */
function slowReply(text: string, ms: number) {
	const chunkSize = 4;
	return reply(text, { chunkSize, frameDelayMs: Math.max(1, Math.round(ms / (text.length / chunkSize))) });
}

const editorRows = (lines: string[]): string[] => {
	const rules = lines.map((line, i) => (/^─{10,}/.test(line) || /^──/.test(line) ? i : -1)).filter((i) => i >= 0);
	const [top, bottom] = rules.slice(-2);
	return top === undefined || bottom === undefined ? [] : lines.slice(top + 1, bottom);
};

describe("interactive mode (ours, in a pseudo-terminal)", () => {
	test("a tool call runs in the chat and Escape aborts it; the editor takes input again", async () => {
		const app = await start({ mock: [toolReply("bash", { command: "sleep 20" }), reply("never sent")] });
		await submit(app, "run the slow thing");
		await app.waitFor((lines) => lines.some((line) => line.includes("sleep 20")), 15_000);
		await app.press("escape");
		const after = await app.waitFor(/aborted/i, 15_000);
		expect(after.join("\n")).toContain("run the slow thing");
		expect(app.mock.requests.length).toBe(1);
		app.type("next");
		const typed = await app.waitFor((lines) => editorRows(lines).some((row) => row.includes("next")));
		expect(editorRows(typed).join("\n")).toContain("next");
	}, 60_000);

	test("Enter while a reply streams queues a steering message, shown until it is delivered", async () => {
		const long = `${"streaming words ".repeat(60)}END-OF-FIRST`;
		const app = await start({ mock: [slowReply(long, 12_000), reply("answer to the steer")] });
		await submit(app, "first question");
		await app.waitFor("streaming words", 15_000);
		await submit(app, "steer me");
		const queued = await app.waitFor("Steering: steer me", 10_000);
		expect(queued.join("\n")).toContain("to edit all queued messages");
		const done = await app.waitFor("answer to the steer", 20_000);
		expect(done.join("\n")).not.toContain("Steering: steer me");
		expect(app.mock.requests.length).toBe(2);
	}, 60_000);

	test("!cmd shows the command and its output; !!cmd too, and neither asks the model", async () => {
		const app = await start();
		await submit(app, "!echo from-the-shell");
		const shown = await app.waitFor((lines) => lines.some((line) => line.trim() === "from-the-shell"), 15_000);
		expect(shown.join("\n")).toContain("$ echo from-the-shell");
		await submit(app, "!!echo kept-out");
		await app.waitFor((lines) => lines.some((line) => line.trim() === "kept-out"), 15_000);
		expect(app.mock.requests.length).toBe(0);
	}, 60_000);

	test("@ completes a file of the working folder", async () => {
		const app = await start({ files: { "notes-for-test.txt": "hello\n" } });
		app.type("look at @notes-for");
		await app.waitFor("notes-for-test.txt", 10_000);
		await app.press("tab");
		const done = await app.waitFor((lines) => editorRows(lines).some((row) => row.includes("@notes-for-test.txt")));
		expect(editorRows(done).join("\n")).toContain("look at @notes-for-test.txt");
	}, 60_000);

	test("a resize in the middle of a stream keeps one copy of the reply", async () => {
		const lines = Array.from({ length: 12 }, (_, i) => `reply line ${i + 1}`).join("\n\n");
		const app = await start({ mock: [slowReply(`${lines}\n\nTHE-END`, 3000)] });
		await submit(app, "tell me");
		await app.waitFor("reply line 2", 15_000);
		app.resize(60, 20);
		await Bun.sleep(300);
		app.resize(100, 30);
		await app.waitFor("THE-END", 20_000);
		await Bun.sleep(300);
		const all = [...(await app.scrollback()), ...(await app.screen())];
		expect(all.filter((line) => line.trim() === "THE-END")).toHaveLength(1);
		expect(all.filter((line) => line.trim() === "reply line 12")).toHaveLength(1);
		expect(all.filter((line) => line.trim() === "tell me")).toHaveLength(1);
	}, 60_000);

	test("a resumed 1,000-message session shows its end and takes input", async () => {
		const dir = makeTempDir("pi-resume-");
		const file = join(dir, "session.jsonl");
		const app0 = { cwd: "{{cwd}}" };
		writeSession(file, {
			cwd: app0.cwd,
			messages: 1000,
			provider: "mock",
			model: "mock-1",
			endMarker: "END-MARKER-1000",
		});
		const text = await Bun.file(file).text();
		const app = await start({ sessions: { "resume.jsonl": text }, args: ["-c"] });
		await app.waitFor("END-MARKER-1000", 20_000);
		app.type("x");
		const typed = await app.waitFor((lines) => editorRows(lines).some((row) => row.trim() === "x"), 5000);
		expect(editorRows(typed).some((row) => row.trim() === "x")).toBe(true);
	}, 60_000);

	test("keybindings.json: remapped keys work; a bad key and a conflict are each one line naming the file", async () => {
		const app = await start({
			cols: 200,
			homeFiles: {
				".pi/agent/keybindings.json": JSON.stringify({
					"app.exit": "ctrl+q",
					"app.message.copy": "ctrl+q",
					"tui.select.up": "ctlr+p",
				}),
			},
		});
		const screen = (await app.waitFor("is bound to")).join("\n");
		expect(screen).toMatch(/keybindings\.json.*ctlr\+p/);
		expect(screen).toMatch(/keybindings\.json.*"ctrl\+q".*app\.exit.*app\.message\.copy/);
		expect(screen.match(/"ctrl\+q" is bound/g)).toHaveLength(1);
		await app.press("ctrl+q");
		expect(await app.exited).toBe(0);
	}, 60_000);

	test("Ctrl+G edits the editor's text in $VISUAL and puts back what was saved", async () => {
		const app = await start({
			env: { VISUAL: "./edit.sh" },
			files: { "edit.sh": '#!/bin/sh\nprintf "%s and more from the editor" "$(cat "$1")" > "$1"\n' },
		});
		chmodSync(join(app.cwd, "edit.sh"), 0o755);
		app.type("draft");
		await app.waitFor((lines) => editorRows(lines).some((row) => row.includes("draft")));
		await app.press("ctrl+g");
		const edited = await app.waitFor("draft and more from the editor", 10_000);
		expect(editorRows(edited).join("\n")).toContain("draft and more from the editor");
	}, 60_000);

	test("Ctrl+Z gives the terminal back; where the stop cannot happen (no job control here) the chat returns", async () => {
		const app = await start();
		app.type("kept text");
		await app.waitFor((lines) => editorRows(lines).some((row) => row.includes("kept text")));
		const before = app.output().length;
		await app.press("ctrl+z");
		const deadline = Date.now() + 10_000;
		const after = () => app.output().slice(before);
		while (!(after().includes("\x1b[?2004l") && after().includes("\x1b[?2004h")) && Date.now() < deadline) {
			await Bun.sleep(25);
		}
		expect(after().indexOf("\x1b[?2004l")).toBeGreaterThanOrEqual(0);
		expect(after().lastIndexOf("\x1b[?2004h")).toBeGreaterThan(after().indexOf("\x1b[?2004l"));
		app.type(" still");
		const back = await app.waitFor((lines) => editorRows(lines).some((row) => row.includes("kept text still")));
		expect(editorRows(back).join("\n")).toContain("kept text still");
	}, 60_000);

	test("NO_COLOR draws the chat without colours", async () => {
		const app = await start({ env: { NO_COLOR: "1" }, mock: [reply("plain **answer**")] });
		await submit(app, "hi");
		await app.waitFor("plain answer", 15_000);
		const colour = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*(38|48);[25];`);
		expect(app.output()).not.toMatch(colour);
	}, 60_000);

	test("a user theme file that changes is drawn in its new colours; a broken one keeps the old with a message", async () => {
		const theme = JSON.parse(JSON.stringify(BUILTIN_THEME_JSON.dark)) as {
			name: string;
			colors: Record<string, unknown>;
		};
		theme.name = "mine";
		const path = ".pi/agent/themes/mine.json";
		const app = await start({
			env: { COLORTERM: "truecolor" },
			settings: { theme: "mine" },
			homeFiles: { [path]: JSON.stringify(theme) },
		});
		// The watcher starts with the session (the footer's model shows it is up); the screen comes earlier.
		await app.waitFor("mock-1", 15_000);
		theme.colors.borderMuted = "#123456";
		theme.colors.thinkingMedium = "#123456";
		await Bun.write(join(app.home, path), JSON.stringify(theme));
		const deadline = Date.now() + 10_000;
		while (!app.output().includes("38;2;18;52;86") && Date.now() < deadline) await Bun.sleep(50);
		expect(app.output()).toContain("38;2;18;52;86");
		await Bun.write(join(app.home, path), "{ not json");
		await app.waitFor("keeping the previous colours", 10_000);
	}, 60_000);

	test("Ctrl+V with an image on the X11 clipboard puts a temp PNG's path in the editor", async () => {
		// A stand-in xclip that offers one PNG, as a desktop clipboard holding a screenshot does.
		const bin = makeTempDir("pi-fake-xclip-");
		const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
		const script = `#!/bin/sh\ncase "$*" in\n  *TARGETS*) echo image/png ;;\n  *image/png*) echo ${png} | base64 -d ;;\n  *) exit 1 ;;\nesac\n`;
		await Bun.write(join(bin, "xclip"), script);
		chmodSync(join(bin, "xclip"), 0o755);
		const app = await start({ env: { DISPLAY: ":99", PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` } });
		await app.press("ctrl+v");
		const lines = await app.waitFor((rows) => rows.some((row) => /pi-clipboard-[0-9a-f-]+\.png/.test(row)), 15_000);
		const path = /(\S*pi-clipboard-[0-9a-f-]+\.png)/.exec(lines.join("\n"))?.[1] ?? "";
		const saved = new Uint8Array(await Bun.file(path).arrayBuffer());
		expect([...saved.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
	}, 60_000);

	test("Ctrl+D on an empty editor quits with 0, gives the terminal back and says how to resume", async () => {
		const app = await start({ mock: [reply("short answer")] });
		await submit(app, "hi");
		await app.waitFor("short answer", 15_000);
		await app.press("ctrl+d");
		expect(await app.exited).toBe(0);
		const output = app.output();
		expect(output).toContain("\x1b[?2004l");
		expect(output.lastIndexOf("\x1b[?25h")).toBeGreaterThan(output.lastIndexOf("\x1b[?25l"));
		const screen = (await app.screen()).join("\n");
		expect(screen).toMatch(/To resume this session: pi --session [0-9a-f-]+/);
	}, 60_000);
});
