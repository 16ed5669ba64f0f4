/**
 * `ctx.ui`'s dialogs in the interactive mode on a real surface (test/helpers/test-surface.ts: a TuiMainScreen on a
 * headless terminal, chat / widgets / editor / footer, a real Editor): select, confirm, input and editor answered,
 * cancelled, timed out and aborted, the editor given back with its text; custom components in the editor's place
 * and as overlays, factories that throw or reject.
 */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInteractiveUi } from "../../src/modes/interactive/index.ts";
import { initTheme, loadChalk } from "../../src/resources/index.ts";
import { disposeSurfaces, joined, openSurface, Panel, settle, sleep } from "../helpers/test-surface.ts";

const DOWN = "\x1b[B";
const ENTER = "\r";
const ESCAPE = "\x1b";
const CTRL_C = "\x03";

beforeAll(async () => {
	await loadChalk();
	initTheme("dark");
});

afterEach(disposeSurfaces);

function setup(columns = 60, rows = 30) {
	const surface = openSurface(columns, rows);
	return { surface, ui: createInteractiveUi(surface) };
}

describe("select and confirm", () => {
	test("the list replaces the editor, Down+Enter answers, the editor comes back with its text", async () => {
		const { surface, ui } = setup();
		surface.send(..."draft");
		const answer = ui.select("Pick a fruit", ["apple", "banana", "cherry"]);
		const shown = await joined(surface);
		expect(shown).toContain("Pick a fruit");
		expect(shown).toContain("→ apple");
		expect(shown).toContain("↑↓ navigate  enter select  escape/ctrl+c cancel");
		expect(shown).not.toContain("draft");
		surface.send(DOWN, "j", "j", "k", ENTER);
		expect(await answer).toBe("banana");
		expect(await joined(surface)).toContain("draft");
		expect(await joined(surface)).not.toContain("Pick a fruit");
		surface.send("!");
		expect(surface.getEditorText()).toBe("draft!");
	});

	test("Escape and Ctrl+C dismiss with undefined; Ctrl+O toggles tool output through the surface", async () => {
		const { surface, ui } = setup();
		const first = ui.select("One", ["a"]);
		surface.send("\x0f");
		expect(surface.getToolsExpanded()).toBe(true);
		expect(surface.notices).toContain("Tool output: expanded");
		surface.send(ESCAPE);
		expect(await first).toBeUndefined();
		const second = ui.select("Two", ["a"]);
		surface.send(CTRL_C);
		expect(await second).toBeUndefined();
	});

	test("a timeout shows (Ns) counting down each second, then dismisses", async () => {
		const { surface, ui } = setup();
		const started = Date.now();
		const answer = ui.select("Hurry", ["a", "b"], { timeout: 2_000 });
		expect(await joined(surface)).toContain("Hurry (2s)");
		await sleep(1_100);
		expect(await joined(surface)).toContain("Hurry (1s)");
		expect(await answer).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
		expect(await joined(surface)).not.toContain("Hurry");
	}, 10_000);

	test("an aborted signal dismisses; one aborted before never shows the list", async () => {
		const { surface, ui } = setup();
		const controller = new AbortController();
		const answer = ui.select("Wait", ["a"], { signal: controller.signal });
		expect(await joined(surface)).toContain("Wait");
		controller.abort();
		expect(await answer).toBeUndefined();
		expect(await joined(surface)).not.toContain("Wait");
		expect(await ui.select("Never", ["a"], { signal: AbortSignal.abort() })).toBeUndefined();
		expect(await ui.confirm("Never", "shown", { signal: AbortSignal.abort() })).toBe(false);
		expect(await joined(surface)).not.toContain("Never");
	});

	test("confirm is a select titled title + message with Yes/No; only Yes is true", async () => {
		const { surface, ui } = setup();
		const yes = ui.confirm("Delete file?", "This cannot be undone.");
		const lines = await surface.screen();
		const title = lines.findIndex((line) => line.includes("Delete file?"));
		expect(lines[title + 1]).toContain("This cannot be undone.");
		expect(lines.join("\n")).toContain("→ Yes");
		surface.send(ENTER);
		expect(await yes).toBe(true);
		const no = ui.confirm("Sure?", "Really.");
		surface.send(DOWN, ENTER);
		expect(await no).toBe(false);
		const dismissed = ui.confirm("Sure?", "Really.", { timeout: 1_000 });
		expect(await dismissed).toBe(false);
	}, 10_000);

	test("a second dialog replaces the first, which answers as dismissed", async () => {
		const { surface, ui } = setup();
		const first = ui.select("First", ["a"]);
		const second = ui.input("Second");
		expect(await first).toBeUndefined();
		const shown = await joined(surface);
		expect(shown).toContain("Second");
		expect(shown).not.toContain("First");
		surface.send("x", ENTER);
		expect(await second).toBe("x");
		expect(await joined(surface)).not.toContain("Second");
	});
});

describe("input and editor", () => {
	test("input: typed text on Enter (placeholder not shown), empty allowed, Escape/timeout dismiss", async () => {
		const { surface, ui } = setup();
		const name = ui.input("Your name", "placeholder text");
		const shown = await joined(surface);
		expect(shown).toContain("Your name");
		expect(await surface.screen()).toContain(">");
		expect(shown).not.toContain("placeholder text");
		surface.send(..."Ada", ENTER);
		expect(await name).toBe("Ada");
		const empty = ui.input("Empty");
		surface.send(ENTER);
		expect(await empty).toBe("");
		const cancelled = ui.input("Cancel me");
		surface.send("x", ESCAPE);
		expect(await cancelled).toBeUndefined();
		const timed = ui.input("Quick", undefined, { timeout: 1_000 });
		expect(await joined(surface)).toContain("Quick (1s)");
		expect(await timed).toBeUndefined();
	}, 10_000);

	test("editor: prefilled, Shift+Enter adds a line, Enter submits, Escape dismisses", async () => {
		const { surface, ui } = setup();
		const text = ui.editor("Write a note", "first");
		const shown = await joined(surface);
		expect(shown).toContain("Write a note");
		expect(shown).toContain("ctrl+g external editor");
		expect(shown).toContain("first");
		surface.send("\x1b[13;2u", ..."second", ENTER);
		expect(await text).toBe("first\nsecond");
		const cancelled = ui.editor("Cancel");
		surface.send("x", ESCAPE);
		expect(await cancelled).toBeUndefined();
	});

	test("editor: Ctrl+G edits in the external editor; a failing one is one error line", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-ext-editor-"));
		try {
			const good = join(dir, "good.sh");
			writeFileSync(good, `#!/bin/sh\nprintf 'from outside\\n' >> "$1"\n`);
			const bad = join(dir, "bad.sh");
			writeFileSync(bad, "#!/bin/sh\nexit 3\n");
			chmodSync(good, 0o755);
			chmodSync(bad, 0o755);
			const surface = openSurface();
			let command = good;
			const ui = createInteractiveUi(surface, { externalEditorCommand: () => command });
			const saved = process.stdout.write;
			process.stdout.write = (() => true) as typeof process.stdout.write;
			try {
				const edited = ui.editor("Edit", "inside ");
				surface.send("\x07");
				await sleep(300);
				expect(await joined(surface)).toContain("inside from outside");
				surface.send(ENTER);
				expect(await edited).toBe("inside from outside");
				command = bad;
				const failed = ui.editor("Edit", "kept");
				surface.send("\x07");
				await sleep(300);
				expect(surface.notices.at(-1)).toMatch(/^Error: External editor ".*bad\.sh" failed: .*exited with code 3$/);
				surface.send(ENTER);
				expect(await failed).toBe("kept");
			} finally {
				process.stdout.write = saved;
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("custom", () => {
	test("in the editor's place: focused, done restores the editor and its text, resolves, then disposes", async () => {
		const { surface, ui } = setup();
		surface.send(..."keep me");
		const panel = new Panel(["custom panel"]);
		const order: string[] = [];
		let finish: ((value: unknown) => void) | undefined;
		const result = ui.custom<string>((_tui, _theme, keybindings, done) => {
			expect(keybindings).toBe(surface.keybindings);
			finish = done as (value: unknown) => void;
			return panel;
		});
		await settle();
		expect(await joined(surface)).toContain("custom panel");
		expect(await joined(surface)).not.toContain("keep me");
		surface.send("q");
		expect(panel.received).toEqual(["q"]);
		panel.dispose = () => order.push(`dispose (editor back: ${surface.editorSlot.children[0] === surface.editor})`);
		finish?.("chosen");
		expect(await result).toBe("chosen");
		expect(order).toEqual(["dispose (editor back: true)"]);
		expect(await joined(surface)).toContain("keep me");
		finish?.("again");
		expect(order).toEqual(["dispose (editor back: true)"]);
	});

	test("an async factory is awaited; one that throws or rejects rejects and the editor still works", async () => {
		const { surface, ui } = setup();
		const later = ui.custom<number>(async (_tui, _theme, _kb, done) => {
			await sleep(10);
			setTimeout(() => done(7), 20);
			return new Panel(["async panel"]);
		});
		await sleep(15);
		expect(await joined(surface)).toContain("async panel");
		expect(await later).toBe(7);
		await expect(
			ui.custom(() => {
				throw new Error("factory broke");
			}),
		).rejects.toThrow("factory broke");
		await expect(ui.custom(async () => Promise.reject(new Error("later broke")))).rejects.toThrow("later broke");
		await expect(
			ui.custom(() => new Panel(["handled badly"]), {
				overlay: true,
				onHandle: () => {
					throw new Error("handle broke");
				},
			}),
		).rejects.toThrow("handle broke");
		expect(surface.tui.hasOverlay()).toBe(false);
		surface.send(..."still typing");
		expect(surface.getEditorText()).toBe("still typing");
		expect(await joined(surface)).toContain("still typing");
	});

	test("overlay: options evaluated once, onHandle gets the handle, done hides the topmost overlay", async () => {
		const { surface, ui } = setup(60, 20);
		let evaluated = 0;
		let handle: unknown;
		let finish: ((value: unknown) => void) | undefined;
		const panel = new Panel(["OVERLAY"]);
		const result = ui.custom(
			(_tui, _theme, _kb, done) => {
				finish = done as (value: unknown) => void;
				return panel;
			},
			{
				overlay: true,
				overlayOptions: () => {
					evaluated++;
					return { width: 20, anchor: "top-left" };
				},
				onHandle: (h) => {
					handle = h;
				},
			},
		);
		await settle();
		const lines = await surface.screen();
		expect(lines[0]?.startsWith("OVERLAY")).toBe(true);
		expect(handle).toBeDefined();
		expect(surface.tui.hasOverlay()).toBe(true);
		surface.send("z");
		expect(panel.received).toEqual(["z"]);
		await surface.screen();
		expect(evaluated).toBe(1);
		finish?.(1);
		expect(await result).toBe(1);
		expect(surface.tui.hasOverlay()).toBe(false);
		expect(panel.disposed).toBe(1);
		expect(await joined(surface)).not.toContain("OVERLAY");
	});

	test("overlay without options takes the component's width", async () => {
		const { surface, ui } = setup(60, 20);
		const options: unknown[] = [];
		const show = surface.showOverlay.bind(surface);
		surface.showOverlay = (component, opts) => {
			options.push(opts);
			return show(component, opts);
		};
		let finish: ((value: unknown) => void) | undefined;
		const result = ui.custom(
			(_tui, _theme, _kb, done) => {
				finish = done as (value: unknown) => void;
				return new Panel(["sized"], 12);
			},
			{ overlay: true },
		);
		await settle();
		expect(options).toEqual([{ width: 12 }]);
		finish?.(undefined);
		await result;
	});
});
