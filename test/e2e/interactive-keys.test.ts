/**
 * Keybindings and fullscreen mode in a pseudo-terminal (our compiled binary, the mock LLM): a keybindings.json that
 * remaps one action of each group (cursor movement, text editing, input, application, display and queue,
 * fullscreen) and each remapped key doing its action on screen; `tuiMode: "fullscreen"` running on the alternate
 * screen, scrolling with the remapped page key, searching the transcript, and printing the transcript (or only the
 * resume hint) on exit as `fullscreenExitOutput` says.
 */
import { describe, expect, test } from "bun:test";
import { reply, submit } from "../helpers/interactive-scenarios.ts";
import { editorBox } from "../helpers/interactive-scenarios-screen.ts";
import { ourAppStarter, type PtyApp, type PtyAppOptions, startPi } from "../helpers/pty-app.ts";

const start = ourAppStarter();

const keybindings = (map: Record<string, string>) => ({ ".pi/agent/keybindings.json": JSON.stringify(map) });

/** The editor's text rows, trimmed, without empty ones. */
const editorText = (lines: string[]): string[] =>
	editorBox(lines)
		.map((row) => row.trim())
		.filter(Boolean);

const ALT_SCREEN = "\x1b[?1049h";
const LONG_REPLY = Array.from({ length: 60 }, (_, i) => `- row-${String(i + 1).padStart(2, "0")}`).join("\n");

describe("keybindings.json and fullscreen mode (ours, in a pseudo-terminal)", () => {
	test("one remapped action per group does what the doc says", async () => {
		const app = await start({
			homeFiles: keybindings({
				"tui.editor.cursorLineStart": "f2",
				"tui.editor.deleteWordBackward": "f3",
				"tui.input.newLine": "f4",
				"app.clear": "f5",
				"app.exit": "f6",
				"app.tools.expand": "f7",
				"app.message.dequeue": "f8",
			}),
		});
		// Input: a new line in the editor instead of submitting.
		app.type("first");
		await app.press("f4");
		app.type("second");
		const twoLines = await app.waitFor((lines) => editorText(lines).includes("second"));
		expect(editorText(twoLines)).toEqual(["first", "second"]);
		expect(app.mock.requests.length).toBe(0);
		// Application: the editor is cleared.
		await app.press("f5");
		await app.waitFor((lines) => editorText(lines).length === 0);
		// Cursor movement: to the line start, then typing lands there.
		app.type("world");
		await app.waitFor((lines) => editorText(lines).includes("world"));
		await app.press("f2");
		app.type("hello ");
		await app.waitFor((lines) => editorText(lines).includes("hello world"));
		// Text editing: the word before the cursor goes.
		await app.press("end", "f3");
		await app.waitFor((lines) => editorText(lines).join() === "hello");
		await app.press("ctrl+u");
		await app.waitFor((lines) => editorText(lines).length === 0);
		// Display and queue.
		await app.press("f7");
		await app.waitFor("Tool output: expanded");
		await app.press("f8");
		await app.waitFor("No queued messages to restore");
		await app.press("f6");
		expect(await app.exited).toBe(0);
	}, 60_000);

	test("fullscreen: the alternate screen, the remapped page key, search, and the transcript printed on exit", async () => {
		const app = await start({
			rows: 24,
			settings: { tuiMode: "fullscreen" },
			homeFiles: keybindings({ "tui.altScreen.pageUp": "f9", "tui.altScreen.search": "f10" }),
			mock: [reply(LONG_REPLY)],
		});
		expect(app.output()).toContain(ALT_SCREEN);
		await submit(app, "list the rows");
		const bottom = await app.waitFor("row-60", 15_000);
		expect(bottom.join("\n")).not.toContain("row-01");
		// The editor and footer stay docked at the bottom while the transcript scrolls.
		await app.press("f9");
		const paged = await app.waitFor((lines) => !lines.some((line) => line.includes("row-60")));
		expect(paged.join("\n")).toContain("Jump to latest message");
		expect(paged.at(-1)).toContain("mock-1");
		expect(paged.filter((line) => /^─{20,}$/.test(line))).toHaveLength(2);
		// Search: the panel opens, the match is scrolled into view and counted.
		await app.press("f10");
		await app.waitFor("Find in transcript");
		app.type("row-03");
		const found = await app.waitFor((lines) => lines.some((line) => line.includes("1/1")));
		expect(found.join("\n")).toContain("- row-03");
		await app.press("escape");
		await app.waitFor((lines) => !lines.some((line) => line.includes("1/1")));
		await app.press("ctrl+d");
		expect(await app.exited).toBe(0);
		const after = [...(await app.scrollback()), ...(await app.screen())].join("\n");
		expect(after).toContain("row-01");
		expect(after).toContain("row-60");
		expect(after).toContain("list the rows");
		expect(after).toMatch(/To resume this session: pi --session [0-9a-f-]+/);
	}, 60_000);

	test('fullscreen with fullscreenExitOutput "resume-hint": only the resume command is printed on exit', async () => {
		const app = await start({
			settings: { tuiMode: "fullscreen", fullscreenExitOutput: "resume-hint" },
			mock: [reply("the only answer")],
		});
		await submit(app, "hello there");
		await app.waitFor("the only answer", 15_000);
		await app.press("ctrl+d");
		expect(await app.exited).toBe(0);
		const after = [...(await app.scrollback()), ...(await app.screen())].join("\n");
		expect(after).toMatch(/To resume this session: pi --session [0-9a-f-]+/);
		expect(after).not.toContain("the only answer");
		expect(after).not.toContain("hello there");
	}, 60_000);

	test("fullscreen side by side with pi 0.87.1: the paged screen and what is printed on exit", async () => {
		const options: PtyAppOptions = { rows: 24, settings: { tuiMode: "fullscreen" }, mock: [reply(LONG_REPLY)] };
		const theirs = await startPi(options);
		if ("skip" in theirs) {
			console.warn(`fullscreen side by side skipped: ${theirs.skip}`);
			return;
		}
		start.track(theirs);
		await theirs.ready(30_000);
		const run = async (app: PtyApp) => {
			await submit(app, "list the rows");
			await app.waitFor("row-60", 20_000);
			await app.press("pageup");
			const paged = await app.waitFor((lines) => !lines.some((line) => line.includes("row-60")));
			await app.press("ctrl+d");
			expect(await app.exited).toBe(0);
			const after = [...(await app.scrollback()), ...(await app.screen())];
			// The scrollbar's thumb sits where the content above the rows puts it; the rows themselves must agree.
			const rows = (lines: string[]) => lines.map((line) => line.replace(/\s*[│┃]$/, "").trimEnd());
			const resume = /pi --session [0-9a-f-]+/;
			return {
				paged: rows(paged),
				after: rows(after.slice(after.indexOf(" - row-01"))).map((l) => l.replace(resume, "pi --session ID")),
			};
		};
		const pi = await run(theirs);
		const ours = await run(await start(options));
		expect(ours.paged).toEqual(pi.paged);
		expect(pi.after[0]).toBe(" - row-01");
		expect(pi.after.length).toBeGreaterThan(60);
		expect(ours.after).toEqual(pi.after);
	}, 90_000);
});
