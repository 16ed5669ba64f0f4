import { afterEach, expect, test } from "bun:test";
import { dirname } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import { type Component, type OverlayBounds, type OverlayOptions, TuiMainScreen } from "../../../src/tui/index.ts";
import { screenOf, VirtualTerminal } from "../../helpers/screen.ts";

class Lines implements Component {
	focused = false;
	received: string[] = [];
	constructor(public lines: string[]) {}
	render(width: number): string[] {
		return this.lines.map((line) => line.slice(0, width));
	}
	handleInput(data: string): void {
		this.received.push(data);
	}
	invalidate(): void {}
}

const open: VirtualTerminal[] = [];
afterEach(() => {
	for (const term of open.splice(0)) term.dispose();
});

function setup(columns = 40, rows = 12): { tui: TuiMainScreen; term: VirtualTerminal } {
	const term = new VirtualTerminal(columns, rows);
	open.push(term);
	return { tui: new TuiMainScreen(term), term };
}

/** Visible rows with trailing spaces dropped (composited rows are padded to the full width). */
async function shown(term: VirtualTerminal): Promise<string[]> {
	return (await term.screen()).lines.map((line) => line.trimEnd());
}

function box(width: number, height: number, fill = "#"): Lines {
	return new Lines(Array.from({ length: height }, () => fill.repeat(width)));
}

test("anchors, margins, offsets and percentages place overlays like pi-tui's rules", () => {
	const { tui } = setup(40, 12);
	tui.addChild(new Lines(["base"]));
	const cases: [OverlayOptions, { row: number; col: number; width: number; height: number }][] = [
		[{ width: 10 }, { row: 5, col: 15, width: 10, height: 2 }],
		[
			{ width: 10, anchor: "top-left" },
			{ row: 0, col: 0, width: 10, height: 2 },
		],
		[
			{ width: 10, anchor: "bottom-right" },
			{ row: 10, col: 30, width: 10, height: 2 },
		],
		[
			{ width: 10, anchor: "bottom-right", margin: 2 },
			{ row: 8, col: 28, width: 10, height: 2 },
		],
		[
			{ width: 10, anchor: "top-center", margin: { top: 1 } },
			{ row: 1, col: 15, width: 10, height: 2 },
		],
		[
			{ width: "50%", anchor: "left-center", offsetX: 3 },
			{ row: 5, col: 3, width: 20, height: 2 },
		],
		[
			{ width: 10, row: "100%", col: "0%" },
			{ row: 10, col: 0, width: 10, height: 2 },
		],
		[
			{ width: 10, row: 3, col: 4 },
			{ row: 3, col: 4, width: 10, height: 2 },
		],
		[{ width: 100 }, { row: 5, col: 0, width: 40, height: 2 }],
		[
			{ width: 5, minWidth: 12, anchor: "right-center" },
			{ row: 5, col: 28, width: 12, height: 2 },
		],
		[
			{ width: 10, anchor: "top-left", offsetX: -5, offsetY: -5 },
			{ row: 0, col: 0, width: 10, height: 2 },
		],
	];
	for (const [options, bounds] of cases) {
		const handle = tui.showOverlay(box(40, 2), options);
		tui.renderNow();
		expect({ options, bounds: handle.getBounds() }).toEqual({ options, bounds });
		handle.hide();
		expect(handle.getBounds()).toBeUndefined();
	}
});

test("maxHeight cuts the overlay's lines", async () => {
	const { tui, term } = setup(20, 8);
	const handle = tui.showOverlay(box(4, 6), { width: 4, maxHeight: "25%", anchor: "top-left" });
	tui.renderNow();
	expect(handle.getBounds()).toEqual({ row: 0, col: 0, width: 4, height: 2 });
	expect((await shown(term)).slice(0, 3)).toEqual(["####", "####", ""]);
});

test("overlays are drawn over the base text, which stays visible around them", async () => {
	const { tui, term } = setup(20, 4);
	tui.addChild(new Lines(["abcdefghijklmnopqrst", "ABCDEFGHIJKLMNOPQRST"]));
	tui.showOverlay(new Lines(["XY"]), { width: 2, row: 0, col: 3 });
	tui.renderNow();
	expect((await shown(term)).slice(0, 2)).toEqual(["abcXYfghijklmnopqrst", "ABCDEFGHIJKLMNOPQRST"]);
});

test("focus order: newest on top and focused, hide returns focus, nonCapturing does not take focus", async () => {
	const { tui, term } = setup(20, 6);
	const editor = new Lines(["editor"]);
	tui.addChild(editor);
	tui.setFocus(editor);
	const a = new Lines(["AAAA"]);
	const b = new Lines(["BB"]);
	const hA = tui.showOverlay(a, { width: 4, row: 1, col: 0 });
	const hB = tui.showOverlay(b, { width: 2, row: 1, col: 0 });
	tui.renderNow();
	expect((await shown(term))[1]).toBe("BBAA");
	expect(hB.isFocused()).toBe(true);
	hA.focus();
	tui.renderNow();
	expect((await shown(term))[1]).toBe("AAAA");
	expect(hA.isFocused()).toBe(true);
	hA.hide();
	expect(hB.isFocused()).toBe(true);
	hB.hide();
	expect(tui.getFocusedComponent()).toBe(editor);
	const quiet = tui.showOverlay(new Lines(["q"]), { nonCapturing: true });
	expect(tui.getFocusedComponent()).toBe(editor);
	expect(quiet.isFocused()).toBe(false);
	expect(tui.hasOverlay()).toBe(true);
	tui.hideOverlay();
	expect(tui.hasOverlay()).toBe(false);
});

test("setHidden hides, gives focus back and takes it again; visible() is checked per frame", async () => {
	const { tui, term } = setup(20, 4);
	const editor = new Lines(["editor"]);
	tui.addChild(editor);
	tui.setFocus(editor);
	const overlay = new Lines(["OV"]);
	let wide = true;
	const handle = tui.showOverlay(overlay, { width: 2, row: 0, col: 10, visible: (w) => wide && w >= 10 });
	expect(handle.isFocused()).toBe(true);
	handle.setHidden(true);
	expect(handle.isHidden()).toBe(true);
	expect(tui.getFocusedComponent()).toBe(editor);
	tui.renderNow();
	expect((await shown(term))[0]).toBe("editor");
	handle.setHidden(false);
	expect(handle.isFocused()).toBe(true);
	tui.renderNow();
	expect((await shown(term))[0]).toBe("editor    OV");
	wide = false;
	expect(tui.hasOverlay()).toBe(false);
	tui.start();
	term.send("x");
	expect(editor.received).toEqual(["x"]);
	tui.stop();
});

test("unfocus gives focus to the previous component or an explicit target; a focused overlay reclaims input", () => {
	const { tui } = setup(20, 4);
	const editor = new Lines(["editor"]);
	const other = new Lines(["other"]);
	tui.addChild(editor);
	tui.addChild(other);
	tui.setFocus(editor);
	const overlay = new Lines(["OV"]);
	const handle = tui.showOverlay(overlay);
	handle.unfocus();
	expect(tui.getFocusedComponent()).toBe(editor);
	handle.focus();
	handle.unfocus({ target: other });
	expect(tui.getFocusedComponent()).toBe(other);
	handle.focus();
	// Something else takes focus (a dialog the overlay opened), then lets go: the overlay gets input again.
	tui.setFocus(other);
	tui.start();
	tui.setFocus(null);
	expect(tui.getFocusedComponent()).toBe(overlay);
	tui.stop();
});

test("overlay placement and compositing match pi-tui's TuiMainScreen (one node run)", async () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		console.warn(`overlay comparison skipped, pi 0.87.1 unavailable: ${pi.error}`);
		return;
	}
	const cases: { cols: number; rows: number; base: number; height: number; options: OverlayOptions }[] = [
		{ cols: 40, rows: 10, base: 3, height: 3, options: {} },
		{ cols: 40, rows: 10, base: 14, height: 3, options: { width: "50%", anchor: "bottom-center", margin: 1 } },
		{ cols: 30, rows: 8, base: 2, height: 12, options: { width: 8, maxHeight: "50%", anchor: "top-right" } },
		{ cols: 30, rows: 8, base: 5, height: 2, options: { width: 6, row: "30%", col: "70%", offsetY: 1 } },
		{ cols: 30, rows: 8, base: 20, height: 4, options: { width: 9, minWidth: 12, anchor: "left-center" } },
		{
			cols: 25,
			rows: 6,
			base: 1,
			height: 9,
			options: { margin: { top: 1, bottom: 2, left: 3 }, anchor: "bottom-left" },
		},
	];
	const script = `
const tui = await import("@earendil-works/pi-tui");
const cases = JSON.parse(process.env.CASES);
const out = [];
for (const c of cases) {
  let written = "";
  const term = { start() {}, stop() {}, async drainInput() {}, write(d) { written += d; }, columns: c.cols, rows: c.rows,
    kittyProtocolActive: false, moveBy() {}, hideCursor() {}, showCursor() {}, clearLine() {}, clearFromCursor() {},
    clearScreen() {}, setTitle() {}, setProgress() {} };
  const ui = new tui.TuiMainScreen(term);
  const base = Array.from({ length: c.base }, (_, i) => "base line " + i);
  ui.addChild({ render: () => base, invalidate() {} });
  const lines = Array.from({ length: c.height }, (_, i) => "ov" + i + "-".repeat(40));
  const h = ui.showOverlay({ render: (w) => lines.map((l) => l.slice(0, w)), invalidate() {} }, c.options);
  ui.renderNow();
  out.push({ bounds: h.getBounds(), written });
}
process.stdout.write(JSON.stringify(out));`;
	const child = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
		cwd: dirname(pi.modules),
		env: { ...process.env, CASES: JSON.stringify(cases) },
		stdout: "pipe",
		stderr: "pipe",
	});
	if (child.exitCode !== 0) throw new Error(child.stderr.toString());
	const theirs = JSON.parse(child.stdout.toString()) as { bounds: OverlayBounds | undefined; written: string }[];
	for (const [i, c] of cases.entries()) {
		const { tui, term } = setup(c.cols, c.rows);
		const base = Array.from({ length: c.base }, (_, n) => `base line ${n}`);
		tui.addChild(new Lines(base));
		const lines = Array.from({ length: c.height }, (_, n) => `ov${n}${"-".repeat(40)}`);
		const handle = tui.showOverlay(new Lines(lines), c.options);
		tui.renderNow();
		const ours = await term.screen();
		const reference = await screenOf(theirs[i]?.written ?? "", c.cols, c.rows);
		expect({ case: i, bounds: handle.getBounds() }).toEqual({ case: i, bounds: theirs[i]?.bounds });
		expect({ case: i, lines: ours.lines }).toEqual({ case: i, lines: reference.lines });
	}
});
