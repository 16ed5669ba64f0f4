/**
 * `ctx.ui` in the interactive mode beyond dialogs, on a real surface (test/helpers/test-surface.ts): widgets above
 * and below the editor, the members that go straight to the surface, terminal input listeners, reset; extension
 * code that throws (a widget factory, a widget's render, a footer factory, an input listener) leaves a working
 * screen with one error line.
 */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createInteractiveUi, resetInteractiveUi } from "../../src/modes/interactive/index.ts";
import { initTheme, loadChalk } from "../../src/resources/index.ts";
import { disposeSurfaces, joined, openSurface, Panel, settle } from "../helpers/test-surface.ts";

beforeAll(async () => {
	await loadChalk();
	initTheme("dark");
});

afterEach(disposeSurfaces);

function setup(columns = 60, rows = 30) {
	const surface = openSurface(columns, rows);
	return { surface, ui: createInteractiveUi(surface) };
}

describe("widgets", () => {
	test("above the editor after a blank line, below without one, in order; a key set again moves to the end", async () => {
		const { surface, ui } = setup();
		let lines = await surface.screen();
		const top = lines.findIndex((line) => line.startsWith("─"));
		expect(lines[top - 1]).toBe("");
		ui.setWidget("one", ["first widget"]);
		ui.setWidget("two", ["second widget"]);
		ui.setWidget("low", ["under the editor"], { placement: "belowEditor" });
		lines = await surface.screen();
		const first = lines.indexOf(" first widget");
		expect(first).toBeGreaterThan(0);
		expect(lines[first - 1]).toBe("");
		expect(lines[first + 1]).toBe(" second widget");
		expect(lines[first + 2]?.startsWith("─")).toBe(true);
		const under = lines.indexOf(" under the editor");
		expect(lines[under - 1]?.startsWith("─")).toBe(true);
		ui.setWidget("one", ["first again"]);
		lines = await surface.screen();
		expect(lines.indexOf(" first again")).toBe(lines.indexOf(" second widget") + 1);
		ui.setWidget("two", undefined);
		ui.setWidget("low", undefined);
		expect(await joined(surface)).not.toContain("second widget");
		expect(await joined(surface)).not.toContain("under the editor");
	});

	test("more than 10 lines are cut with a muted notice; factories are disposed when replaced or removed", async () => {
		const { surface, ui } = setup();
		ui.setWidget(
			"long",
			Array.from({ length: 12 }, (_, i) => `line ${i + 1}`),
		);
		let shown = await joined(surface);
		expect(shown).toContain("line 10");
		expect(shown).not.toContain("line 11");
		expect(shown).toContain("... (widget truncated)");
		const panels: Panel[] = [];
		const factory = (text: string) => (tui: unknown, theme: unknown) => {
			expect(tui).toBe(surface.tui);
			expect(theme).toBe(surface.theme());
			const panel = new Panel([text]);
			panels.push(panel);
			return panel;
		};
		ui.setWidget("panel", factory("factory widget"), { placement: "belowEditor" });
		expect(await joined(surface)).toContain("factory widget");
		ui.setWidget("panel", factory("replacement"));
		expect(panels[0]?.disposed).toBe(1);
		shown = await joined(surface);
		expect(shown).toContain("replacement");
		expect(shown).not.toContain("factory widget");
		ui.setWidget("panel", undefined);
		expect(panels[1]?.disposed).toBe(1);
	});

	test("a factory or widget that throws is one error line; the other widgets and the editor keep working", async () => {
		const { surface, ui } = setup();
		ui.setWidget("fine", ["still here"]);
		ui.setWidget("broken", () => {
			throw new Error("cannot build\nsecond line of the message");
		});
		expect(surface.notices).toEqual(['Error: Widget "broken" failed: cannot build']);
		ui.setWidget("exploding", () => ({
			render: () => {
				throw new Error("cannot draw");
			},
			invalidate: () => {},
		}));
		await surface.screen();
		await settle();
		await surface.screen();
		expect(surface.notices.at(-1)).toBe('Error: Widget "exploding" failed to render: cannot draw');
		expect(surface.notices.length).toBe(2);
		surface.send(..."typing");
		const shown = await joined(surface);
		expect(shown).toContain("still here");
		expect(shown).toContain("typing");
		expect(shown).toContain('Error: Widget "broken" failed: cannot build');
	});
});

describe("the rest goes to the surface", () => {
	test("notify, status, editor text, working indicator, themes, tools, title", async () => {
		const { surface, ui } = setup();
		ui.notify("hello");
		ui.notify("careful", "warning");
		ui.notify("broken", "error");
		expect(surface.notices).toEqual(["hello", "Warning: careful", "Error: broken"]);
		ui.setStatus("k", "status text");
		expect(await joined(surface)).toContain("status text");
		ui.setStatus("k", undefined);
		expect(await joined(surface)).not.toContain("status text");
		ui.setEditorText("set text");
		expect(ui.getEditorText()).toBe("set text");
		ui.pasteToEditor(" pasted");
		expect(ui.getEditorText()).toBe("set text pasted");
		ui.setWorkingMessage("Thinking hard");
		ui.setWorkingVisible(false);
		ui.setWorkingIndicator({ frames: ["a"] });
		ui.setHiddenThinkingLabel("hidden");
		expect(surface.recorded).toMatchObject({
			workingMessage: "Thinking hard",
			workingVisible: false,
			workingIndicator: { frames: ["a"] },
			hiddenThinkingLabel: "hidden",
		});
		expect(ui.theme).toBe(surface.theme());
		expect(ui.getAllThemes().map((t) => t.name)).toEqual(["dark", "light"]);
		expect(ui.setTheme("nope")).toEqual({ success: false, error: "Theme not found: nope" });
		ui.setToolsExpanded(true);
		expect(ui.getToolsExpanded()).toBe(true);
		ui.setTitle("my title");
		expect(surface.term.title).toBe("my title");
	});

	test("a footer factory that throws is one error line", async () => {
		const { surface, ui } = setup();
		ui.setFooter(() => {
			throw new Error("no footer today");
		});
		expect(surface.notices).toEqual(["Error: Footer failed: no footer today"]);
	});

	test("terminal input listeners: consume input, a throwing one is reported once, reset removes them", async () => {
		const { surface, ui } = setup();
		const seen: string[] = [];
		const off = ui.onTerminalInput((data) => {
			seen.push(data);
			return data === "x" ? { consume: true } : undefined;
		});
		ui.onTerminalInput(() => {
			throw new Error("listener broke");
		});
		surface.send("a", "x", "b");
		expect(seen).toEqual(["a", "x", "b"]);
		expect(surface.getEditorText()).toBe("ab");
		expect(surface.notices).toEqual(["Error: Terminal input handler failed: listener broke"]);
		off();
		surface.send("c");
		expect(seen).toEqual(["a", "x", "b"]);
		const again: string[] = [];
		ui.onTerminalInput((data) => {
			again.push(data);
			return undefined;
		});
		resetInteractiveUi(ui);
		surface.send("d");
		expect(again).toEqual([]);
		expect(surface.getEditorText()).toBe("abcd");
	});

	test("reset closes the open dialog as dismissed and gives the editor back", async () => {
		const { surface, ui } = setup();
		surface.send(..."mine");
		const answer = ui.select("Open", ["a"]);
		resetInteractiveUi(ui);
		expect(await answer).toBeUndefined();
		expect(await joined(surface)).not.toContain("Open");
		expect(surface.getEditorText()).toBe("mine");
		const panel = new Panel(["custom"]);
		const custom = ui.custom(() => panel);
		await settle();
		resetInteractiveUi(ui);
		expect(await custom).toBeUndefined();
		expect(panel.disposed).toBe(1);
		expect(await joined(surface)).not.toContain("custom");
	});
});
