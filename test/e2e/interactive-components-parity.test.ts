/**
 * The transcript components draw the same screens as pi 0.87.1's: every case of
 * test/helpers/transcript-pictures/cases.ts (messages with Markdown and thinking, each built-in tool's call and
 * result, errors, collapsed and expanded, extension renderers, `!command` output, custom messages, summaries) is
 * built with pi's classes under Node 22 (one run for all) and with ours, rendered at widths 40, 80 and 120, and read
 * through a headless terminal: first the text of each row, then each cell's colours and attributes (both sides in
 * truecolor, pi's dark theme). Differences allowed are listed with their reason in interactive-components-known.ts;
 * a listed picture that now matches fails, so the table only shrinks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import { linesOnScreen } from "../helpers/screen.ts";
import {
	CASES,
	drawTranscriptPictures,
	PROJECT_FILES,
	type TranscriptPictures,
} from "../helpers/transcript-pictures/cases.ts";
import { styledRows } from "../helpers/transcript-pictures/styled-screen.ts";
import { KNOWN_TRANSCRIPT_DIFFERENCES } from "./interactive-components-known.ts";

const WIDTHS = [40, 80, 120] as const;

let root: string | undefined;
let theirs: TranscriptPictures | undefined;
let ours: TranscriptPictures | undefined;
let skipped: string | undefined;
const identical = new Set<string>();
const sameText = new Set<string>();

function piPictures(node: string, modules: string, cwd: string, out: string): TranscriptPictures {
	const input = { modules, cwd, widths: WIDTHS, out };
	const child = Bun.spawnSync([node, join(import.meta.dir, "../helpers/transcript-pictures/node-main.ts")], {
		cwd: dirname(modules),
		env: {
			...process.env,
			COLORTERM: "truecolor",
			PI_TRANSCRIPT: JSON.stringify(input),
			HTTP_PROXY: "http://127.0.0.1:9",
			HTTPS_PROXY: "http://127.0.0.1:9",
			NO_PROXY: "127.0.0.1,localhost",
		},
		stdout: "pipe",
		stderr: "pipe",
		timeout: 120_000,
	});
	if (child.exitCode !== 0)
		throw new Error(`pi transcript failed (exit ${child.exitCode}): ${child.stderr.toString()}`);
	return JSON.parse(readFileSync(out, "utf8")) as TranscriptPictures;
}

async function ourPictures(cwd: string): Promise<TranscriptPictures> {
	const saved = process.env.COLORTERM;
	process.env.COLORTERM = "truecolor";
	try {
		return await drawOurs(cwd);
	} finally {
		if (saved === undefined) delete process.env.COLORTERM;
		else process.env.COLORTERM = saved;
	}
}

async function drawOurs(cwd: string): Promise<TranscriptPictures> {
	const [sdk, interactive, tui] = await Promise.all([
		import("../../src/sdk/pi-coding-agent.ts"),
		import("../../src/modes/interactive/index.ts"),
		import("../../src/tui/index.ts"),
	]);
	sdk.initTheme("dark");
	// pi's app keybindings as far as the transcript shows them (expand tools, cancel)
	tui.setKeybindings(
		new tui.KeybindingsManager({ ...tui.TUI_KEYBINDINGS, "app.tools.expand": { defaultKeys: "ctrl+o" } }),
	);
	const tools = interactive.createAllToolRenderers();
	return drawTranscriptPictures({ ...sdk, Text: tui.Text, Container: tui.Container, tools }, cwd, WIDTHS);
}

beforeAll(async () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		skipped = `pi 0.87.1 cannot run here: ${pi.error}`;
		return;
	}
	root = mkdtempSync(join(tmpdir(), "pi-transcript-"));
	const cwd = join(root, "project");
	for (const [path, content] of Object.entries(PROJECT_FILES)) {
		mkdirSync(dirname(join(cwd, path)), { recursive: true });
		writeFileSync(join(cwd, path), content);
	}
	theirs = piPictures(pi.node, pi.modules, cwd, join(root, "pi.json"));
	ours = await ourPictures(cwd);
}, 180_000);

afterAll(() => {
	if (root) rmSync(root, { recursive: true, force: true });
	if (skipped) console.log(`interactive components: skipped (${skipped})`);
	else {
		const total = Object.keys(CASES).length * WIDTHS.length;
		console.log(`interactive components: ${identical.size}/${total} identical (${sameText.size}/${total} same text)`);
	}
});

async function difference(name: string, width: number): Promise<string | undefined> {
	const a = theirs?.[name];
	const b = ours?.[name];
	if (a?.error) return `pi failed: ${a.error[0]}`;
	if (b?.error) return `ours failed: ${b.error[0]}`;
	const screenA = await linesOnScreen(a?.[String(width)] ?? [], width);
	const screenB = await linesOnScreen(b?.[String(width)] ?? [], width);
	for (let row = 0; row < Math.max(screenA.length, screenB.length); row++) {
		if (screenA[row] !== screenB[row])
			return `row ${row + 1}:\n  pi:   ${JSON.stringify(screenA[row] ?? "<none>")}\n  ours: ${JSON.stringify(screenB[row] ?? "<none>")}`;
	}
	sameText.add(`${name}@${width}`);
	const styledA = await styledRows(a?.[String(width)] ?? [], width);
	const styledB = await styledRows(b?.[String(width)] ?? [], width);
	for (let row = 0; row < Math.max(styledA.length, styledB.length); row++) {
		if (styledA[row] !== styledB[row])
			return `colours of row ${row + 1}:\n  pi:   ${JSON.stringify(styledA[row] ?? "<none>")}\n  ours: ${JSON.stringify(styledB[row] ?? "<none>")}`;
	}
	return undefined;
}

describe("transcript components draw the same screens as pi 0.87.1", () => {
	for (const name of Object.keys(CASES)) {
		test(name, async () => {
			if (skipped) return;
			const failures: string[] = [];
			for (const width of WIDTHS) {
				const known = KNOWN_TRANSCRIPT_DIFFERENCES[`${name}@${width}`] ?? KNOWN_TRANSCRIPT_DIFFERENCES[name];
				const diff = await difference(name, width);
				if (!diff) identical.add(`${name}@${width}`);
				if (diff && !known) failures.push(`${name} at ${width}: ${diff}`);
				if (!diff && known) failures.push(`${name} at ${width} now matches pi: delete its known-difference entry`);
			}
			expect(failures).toEqual([]);
		});
	}
});
