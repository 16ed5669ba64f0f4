/**
 * Same dialogs as pi: pi 0.87.1's ExtensionSelectorComponent, ExtensionInputComponent and ExtensionEditorComponent
 * and ours get the same calls and keys (test/helpers/dialog-pictures/cases.ts: moving with arrows and j/k without
 * wrapping, Enter/LF/Escape/Ctrl+C, Ctrl+O, timeouts shown as ` (Ns)`, descriptions, long titles and options,
 * confirm's two-line title, typed and prefilled text) and draw at widths 40, 80 and 120, pi's side in ONE Node 22
 * run. The rows read through a headless terminal must be identical, then each cell's colours and attributes (both
 * sides in truecolor, pi's dark theme), and the callbacks must have been told the same things.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureRunnablePi, type RunnablePi } from "../../scripts/conformance-cache.ts";
import { CASES, type DialogLib, type DialogPictures, drawDialogs, WIDTHS } from "../helpers/dialog-pictures/cases.ts";
import { linesOnScreen } from "../helpers/screen.ts";
import { styledRows } from "../helpers/transcript-pictures/styled-screen.ts";

const ENV = { COLORTERM: "truecolor" };

let reference: DialogPictures | undefined;
let ours: DialogPictures | undefined;
let skipped: string | undefined;

function piDialogs(pi: RunnablePi): DialogPictures {
	const root = mkdtempSync(join(tmpdir(), "pi-dialogs-"));
	try {
		const out = join(root, "pi-dialogs.json");
		const child = Bun.spawnSync([pi.node, join(import.meta.dir, "../helpers/dialog-pictures/node-main.ts")], {
			cwd: dirname(pi.modules),
			env: {
				...process.env,
				...ENV,
				PI_CODING_AGENT_DIR: join(root, "agent"),
				PI_DIALOGS: JSON.stringify({ modules: pi.modules, out }),
				HTTP_PROXY: "http://127.0.0.1:9",
				HTTPS_PROXY: "http://127.0.0.1:9",
				NO_PROXY: "127.0.0.1,localhost",
			},
			stdout: "pipe",
			stderr: "pipe",
			timeout: 120_000,
		});
		if (child.exitCode !== 0) throw new Error(`pi dialogs failed (exit ${child.exitCode}): ${child.stderr.toString()}`);
		return JSON.parse(readFileSync(out, "utf8")) as DialogPictures;
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

async function ourDialogs(): Promise<DialogPictures> {
	const saved = process.env.COLORTERM;
	process.env.COLORTERM = ENV.COLORTERM;
	try {
		const [interactive, resources, tui] = await Promise.all([
			import("../../src/modes/interactive/index.ts"),
			import("../../src/resources/index.ts"),
			import("../../src/tui/index.ts"),
		]);
		await resources.loadChalk();
		resources.initTheme("dark");
		// Only the toolkit's keys: app keys (Ctrl+O, Ctrl+G) come from pi's defaults
		const keybindings = new tui.KeybindingsManager(tui.TUI_KEYBINDINGS);
		tui.setKeybindings(keybindings);
		const lib: DialogLib = {
			Selector: interactive.ExtensionSelectorComponent as unknown as DialogLib["Selector"],
			Input: interactive.ExtensionInputComponent as unknown as DialogLib["Input"],
			Editor: interactive.ExtensionEditorComponent as unknown as DialogLib["Editor"],
			keybindings,
		};
		return drawDialogs(lib);
	} finally {
		if (saved === undefined) delete process.env.COLORTERM;
		else process.env.COLORTERM = saved;
	}
}

beforeAll(async () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		skipped = `pi 0.87.1 cannot run here: ${pi.error}`;
		console.log(`interactive-dialogs-parity: skipped (${skipped})`);
		return;
	}
	reference = piDialogs(pi);
	ours = await ourDialogs();
}, 180_000);

/** Splits a picture into its screens (separated by `==`) and the callback log (after `--`). */
function partsOf(lines: string[]): { screens: string[][]; log: string[] } {
	const cut = lines.lastIndexOf("--");
	const screens: string[][] = [[]];
	for (const line of lines.slice(0, cut)) {
		if (line === "==") screens.push([]);
		else screens[screens.length - 1]?.push(line);
	}
	return { screens: screens.filter((s, i) => s.length > 0 || i === 0), log: lines.slice(cut + 1) };
}

async function difference(name: string, width: number): Promise<string | undefined> {
	const a = partsOf(reference?.[name]?.[width] ?? []);
	const b = partsOf(ours?.[name]?.[width] ?? []);
	if (JSON.stringify(a.log) !== JSON.stringify(b.log))
		return `callbacks:\n  pi:   ${JSON.stringify(a.log)}\n  ours: ${JSON.stringify(b.log)}`;
	if (a.screens.length !== b.screens.length) return `screens: pi ${a.screens.length}, ours ${b.screens.length}`;
	for (let i = 0; i < a.screens.length; i++) {
		const [screenA, screenB] = [a.screens[i] ?? [], b.screens[i] ?? []];
		const [textA, textB] = [await linesOnScreen(screenA, width), await linesOnScreen(screenB, width)];
		for (let row = 0; row < Math.max(textA.length, textB.length); row++) {
			if (textA[row] !== textB[row])
				return `screen ${i + 1} row ${row + 1}:\n  pi:   ${JSON.stringify(textA[row] ?? "<none>")}\n  ours: ${JSON.stringify(textB[row] ?? "<none>")}`;
		}
		const [styledA, styledB] = [await styledRows(screenA, width), await styledRows(screenB, width)];
		for (let row = 0; row < Math.max(styledA.length, styledB.length); row++) {
			if (styledA[row] !== styledB[row])
				return `screen ${i + 1} colours of row ${row + 1}:\n  pi:   ${JSON.stringify(styledA[row] ?? "<none>")}\n  ours: ${JSON.stringify(styledB[row] ?? "<none>")}`;
		}
	}
	return undefined;
}

describe("extension dialogs draw the same screens as pi 0.87.1", () => {
	test("both sides drew every case", () => {
		if (skipped) return;
		expect(Object.keys(ours ?? {}).sort()).toEqual(CASES.map((c) => c.name).sort());
		expect(Object.keys(reference ?? {}).sort()).toEqual(CASES.map((c) => c.name).sort());
	});

	for (const { name } of CASES) {
		test(name, async () => {
			if (skipped) return;
			const failures: string[] = [];
			for (const width of WIDTHS) {
				const diff = await difference(name, width);
				if (diff) failures.push(`${name} at ${width}: ${diff}`);
			}
			expect(failures).toEqual([]);
		});
	}
});
