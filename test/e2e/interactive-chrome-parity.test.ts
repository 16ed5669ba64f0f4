/**
 * Same chrome as pi: pi 0.87.1's FooterComponent and the other chrome it exports or draws (DynamicBorder, keyHint,
 * rawKeyHint; the working/compaction/branch-summary/retry status indicators as a row, cut for the border and
 * spinner-only; the default editor's top border with the status embedded, also beside `↑ N more`) and ours draw
 * the same states (test/helpers/chrome-pictures/cases.ts: token counts from hundreds to tens of millions, costs,
 * subscription, unknown context after compaction, context above 70 % and 90 %, long cwd, branch, session name and
 * model, several providers, extension statuses with tabs and newlines, auto-compaction off) at widths 40, 80 and
 * 120, pi's side in ONE Node 22 run. Screens are read through a headless terminal and must be identical, except the
 * pictures listed in KNOWN_DIFFERENCES with their reason; a listed picture that now matches fails too, so the table
 * only shrinks. The bytes are compared as well, so colours (dim, warning/error context figure) match too.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import { type ChromePictures, WIDTHS } from "../helpers/chrome-pictures/cases.ts";
import { ourChrome, piChrome } from "../helpers/chrome-pictures/sides.ts";
import { linesOnScreen } from "../helpers/screen.ts";

/** `<picture>@<width>` → why our screen differs from pi's. Empty: every picture matches. */
const KNOWN_DIFFERENCES: Record<string, string> = {};

let reference: ChromePictures | undefined;
let ours: ChromePictures | undefined;
let skipped: string | undefined;

beforeAll(async () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		skipped = `pi 0.87.1 cannot run here: ${pi.error}`;
		console.log(`interactive-chrome-parity: skipped (${skipped})`);
		return;
	}
	reference = piChrome(pi);
	ours = await ourChrome();
}, 180_000);

describe("interactive chrome pictures match pi 0.87.1", () => {
	test("both sides drew the same pictures", () => {
		if (skipped || !reference || !ours) return;
		expect(Object.keys(ours).sort()).toEqual(Object.keys(reference).sort());
		expect(Object.keys(reference).length).toBeGreaterThan(15);
	});

	test("every picture at 40, 80 and 120 columns", async () => {
		if (skipped || !reference || !ours) return;
		const unexpected: string[] = [];
		const nowMatching: string[] = [];
		for (const [name, byWidth] of Object.entries(reference)) {
			for (const width of WIDTHS) {
				const key = `${name}@${width}`;
				const piScreen = await linesOnScreen(byWidth[width] ?? [], width);
				const ourScreen = await linesOnScreen(ours[name]?.[width] ?? [], width);
				const same = JSON.stringify(piScreen) === JSON.stringify(ourScreen);
				if (!same && !(key in KNOWN_DIFFERENCES)) {
					unexpected.push(`${key}\n  pi:   ${piScreen.join("\n        ")}\n  ours: ${ourScreen.join("\n        ")}`);
				}
				if (same && key in KNOWN_DIFFERENCES) nowMatching.push(key);
			}
		}
		expect(unexpected).toEqual([]);
		expect(nowMatching).toEqual([]);
	});

	test("same bytes too (colours: dim, context % in warning/error, statuses' own styles)", () => {
		if (skipped || !reference || !ours) return;
		const differing: string[] = [];
		for (const [name, byWidth] of Object.entries(reference)) {
			for (const width of WIDTHS) {
				if (`${name}@${width}` in KNOWN_DIFFERENCES) continue;
				if (JSON.stringify(byWidth[width]) !== JSON.stringify(ours[name]?.[width])) differing.push(`${name}@${width}`);
			}
		}
		expect(differing).toEqual([]);
	});

	test("known differences name pictures that exist", () => {
		if (skipped || !reference) return;
		for (const key of Object.keys(KNOWN_DIFFERENCES)) {
			const [name, width] = key.split("@");
			expect(reference[name ?? ""]?.[Number(width)]).toBeDefined();
		}
	});
});
