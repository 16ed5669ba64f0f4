/**
 * Same widget areas as pi: pi 0.87.1's own `setExtensionWidget`/`renderWidgets` (InteractiveMode's methods, run on
 * a bare object holding only the two widget maps and containers, under Node 22) and our ExtensionWidgets take the
 * same steps — lines above and below, more than 10 lines, wrapping, styled text, a key set again (moves to the
 * end), a key moved to the other placement, factories (disposed when replaced or removed), removal of everything —
 * and after each step both areas are drawn at widths 40, 80 and 120. Rows (read through a headless terminal),
 * cell colours and the dispose calls must be the same.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { ExtensionWidgets } from "../../src/modes/interactive/index.ts";
import { initTheme, loadChalk } from "../../src/resources/index.ts";
import { Text } from "../../src/tui/index.ts";
import { linesOnScreen } from "../helpers/screen.ts";
import { styledRows } from "../helpers/transcript-pictures/styled-screen.ts";
import { type PiReference, piReference } from "../support/pi-reference.ts";

const WIDTHS = [40, 80, 120];

/** One setWidget call: lines, a factory drawing `factory` as one Text, or nothing (remove). */
interface Step {
	key: string;
	lines?: string[];
	factory?: string;
	placement?: "aboveEditor" | "belowEditor";
}

const STEPS: Step[] = [
	{ key: "a", lines: ["hello world", "\x1b[32mgreen\x1b[39m and plain"] },
	{ key: "b", lines: Array.from({ length: 12 }, (_, i) => `line ${i + 1}`) },
	{
		key: "c",
		lines: ["a line long enough to wrap at forty columns, and again at eighty columns when it keeps going on"],
		placement: "belowEditor",
	},
	{ key: "a", factory: "factory a" },
	{ key: "b", lines: ["b moved below"], placement: "belowEditor" },
	{ key: "d", factory: "factory d", placement: "belowEditor" },
	{ key: "c" },
	{ key: "a" },
	{ key: "b" },
	{ key: "d" },
];

interface Drawn {
	/** Per step, per width: the area above, `--`, the area below. */
	frames: string[][][];
	disposed: string[];
}

const PI_SIDE = `
const tui = await import("@earendil-works/pi-tui");
pi.initTheme("dark");
const mode = Object.create(pi.InteractiveMode.prototype);
mode.extensionWidgetsAbove = new Map();
mode.extensionWidgetsBelow = new Map();
mode.widgetContainerAbove = new tui.Container();
mode.widgetContainerBelow = new tui.Container();
mode.ui = { requestRender() {} };
const disposed = [];
const frames = [];
const draw = () => frames.push(args.widths.map((w) => [...mode.widgetContainerAbove.render(w), "--", ...mode.widgetContainerBelow.render(w)]));
mode.renderWidgets();
draw();
for (const step of args.steps) {
	const content = step.lines ?? (step.factory === undefined ? undefined : () => {
		const text = new tui.Text(step.factory, 1, 0);
		text.dispose = () => disposed.push(step.factory);
		return text;
	});
	mode.setExtensionWidget(step.key, content, step.placement ? { placement: step.placement } : undefined);
	draw();
}
return { frames, disposed };
`;

function ourSide(): Drawn {
	const widgets = new ExtensionWidgets({ requestRender() {} } as never, (message) => {
		throw new Error(message);
	});
	const disposed: string[] = [];
	const frames: string[][][] = [];
	const draw = () => frames.push(WIDTHS.map((w) => [...widgets.above.render(w), "--", ...widgets.below.render(w)]));
	draw();
	for (const step of STEPS) {
		const factoryText = step.factory;
		const content =
			step.lines ??
			(factoryText === undefined
				? undefined
				: () => Object.assign(new Text(factoryText, 1, 0), { dispose: () => disposed.push(factoryText) }));
		widgets.set(step.key, content, step.placement ?? "aboveEditor");
		draw();
	}
	return { frames, disposed };
}

let pi: PiReference | undefined;
let theirs: Drawn | undefined;
let ours: Drawn | undefined;

beforeAll(async () => {
	pi = piReference("interactive-widgets-parity");
	if (!pi) return;
	theirs = pi.run<Drawn>(PI_SIDE, { steps: STEPS, widths: WIDTHS }, { COLORTERM: "truecolor" });
	const saved = process.env.COLORTERM;
	process.env.COLORTERM = "truecolor";
	try {
		await loadChalk();
		initTheme("dark");
		ours = ourSide();
	} finally {
		if (saved === undefined) delete process.env.COLORTERM;
		else process.env.COLORTERM = saved;
	}
}, 120_000);

describe("extension widget areas draw what pi 0.87.1's do", () => {
	test("every step at 40, 80 and 120 columns: rows and colours", async () => {
		if (!theirs || !ours) return;
		expect(ours.frames.length).toBe(theirs.frames.length);
		const failures: string[] = [];
		for (let step = 0; step < theirs.frames.length; step++) {
			for (let i = 0; i < WIDTHS.length; i++) {
				const width = WIDTHS[i] ?? 80;
				const a = theirs.frames[step]?.[i] ?? [];
				const b = ours.frames[step]?.[i] ?? [];
				const [textA, textB] = [await linesOnScreen(a, width), await linesOnScreen(b, width)];
				if (JSON.stringify(textA) !== JSON.stringify(textB)) {
					failures.push(`step ${step} at ${width}:\n  pi:   ${textA.join("|")}\n  ours: ${textB.join("|")}`);
					continue;
				}
				if (JSON.stringify(await styledRows(a, width)) !== JSON.stringify(await styledRows(b, width)))
					failures.push(`step ${step} at ${width}: colours differ`);
			}
		}
		expect(failures).toEqual([]);
		expect(JSON.stringify(theirs.frames[2])).toContain("... (widget truncated)");
		expect(theirs.frames.at(-1)?.[0]).toEqual(["", "--"]);
	});

	test("factories are disposed at the same moments", () => {
		if (!theirs || !ours) return;
		expect(ours.disposed).toEqual(theirs.disposed);
		expect(ours.disposed).toEqual(["factory a", "factory d"]);
	});
});
