/**
 * Same pictures as pi: the example extensions of pi 0.87.1 that draw components are played through the same
 * scenario (test/helpers/tui-pictures/scenarios.ts: commands, tool calls, keys, timer ticks, sample tool results
 * and messages) under pi 0.87.1's own modules (Node 22) and under ours, and every component they show is rendered
 * at widths 40, 80 and 120. The screens (read through a headless terminal emulator, never by matching escapes) must
 * be identical, except for the extension × width units in KNOWN_DIFFERENCES, each with its reason and the part of
 * the toolkit that owns the fix. A listed unit that now matches fails too, so the table only shrinks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ensurePackage, ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import { linesOnScreen } from "../helpers/screen.ts";
import type { Pictures } from "../helpers/tui-pictures/driver.ts";
import { SCENARIOS } from "../helpers/tui-pictures/scenarios.ts";
import { createWorld, ourPictures, type PictureWorld, piPictures, WIDTHS } from "../helpers/tui-pictures/sides.ts";
import { KNOWN_DIFFERENCES } from "./tui-pictures-known.ts";

const EXTENSIONS = [...new Set(SCENARIOS.map((scenario) => scenario.extension))];

let world: PictureWorld | undefined;
let reference: Pictures | undefined;
let ours: Pictures | undefined;
let skipped: string | undefined;
const identical = new Set<string>();

beforeAll(async () => {
	const pkg = ensurePackage("@earendil-works/pi-coding-agent@0.87.1");
	if ("error" in pkg) {
		skipped = pkg.error;
		return;
	}
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		skipped = `pi 0.87.1 cannot run here: ${pi.error}`;
		return;
	}
	const examples = join(pkg.dir, "examples", "extensions");
	world = createWorld();
	reference = piPictures(pi, world, examples);
	ours = await ourPictures(world, examples);
}, 600_000);

afterAll(() => {
	world?.dispose();
	if (!skipped) console.log(`tui pictures: ${identical.size}/${EXTENSIONS.length * WIDTHS.length} identical`);
});

/** `all` holds width-independent text (notifications, errors): it counts at every width. */
async function screen(lines: string[] | undefined, width: number): Promise<string[] | undefined> {
	return lines === undefined ? undefined : linesOnScreen(lines, width);
}

/** The first difference between pi's and our pictures of one extension at one width, or undefined. */
async function firstDifference(extension: string, width: number): Promise<string | undefined> {
	const prefixes = SCENARIOS.filter((s) => s.extension === extension).map((s) => `${s.name ?? s.extension}/`);
	const keys = new Set(
		[...Object.keys(reference ?? {}), ...Object.keys(ours ?? {})].filter((key) =>
			prefixes.some((prefix) => key.startsWith(prefix)),
		),
	);
	for (const key of [...keys].sort()) {
		const theirs = reference?.[key];
		const mine = ours?.[key];
		if (!theirs) return `${key}: only ours draws it`;
		if (!mine) return `${key}: only pi draws it`;
		const pick = (pictures: Record<string, string[]>) => pictures[String(width)] ?? pictures.all;
		const a = await screen(pick(theirs), width);
		const b = await screen(pick(mine), width);
		if (!a || !b) return `${key}: drawn by only one side at width ${width}`;
		for (let row = 0; row < Math.max(a.length, b.length); row++) {
			if (a[row] !== b[row]) {
				return `${key} row ${row + 1}:\n      pi:   ${JSON.stringify(a[row] ?? "<none>")}\n      ours: ${JSON.stringify(b[row] ?? "<none>")}`;
			}
		}
	}
	return undefined;
}

describe("pi example extensions draw the same screens as pi 0.87.1", () => {
	for (const extension of EXTENSIONS) {
		for (const width of WIDTHS) {
			test(`${extension} at ${width} columns`, async () => {
				if (skipped) {
					console.warn(`tui-pictures: skipped: ${skipped}`);
					return;
				}
				const difference = await firstDifference(extension, width);
				const known = KNOWN_DIFFERENCES[extension];
				const listed = known && (!known.widths || known.widths.includes(width));
				if (!difference) {
					identical.add(`${extension}@${width}`);
					if (listed) throw new Error(`${extension} at ${width} now matches: remove it from KNOWN_DIFFERENCES`);
					return;
				}
				if (listed) {
					console.log(`  known difference ${extension}@${width} (${known.owner}): ${difference.split("\n")[0]}`);
					return;
				}
				expect(`${extension}@${width}: ${difference}`).toBe(`${extension}@${width}: identical`);
			});
		}
	}
});
