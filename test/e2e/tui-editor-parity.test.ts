/**
 * Editor, Input, SelectList and SettingsList against pi-tui 0.87.1: the same scripted keys go to pi's components
 * (one Node 22 run for every script) and to ours; after every step the screen text, the cursor position, the
 * text/cursor/value and the callbacks fired must agree, at widths 40, 80 and 120.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import * as ours from "../../src/tui/index.ts";
import { linesOnScreen } from "../helpers/screen.ts";
import { runScripts } from "./tui-editor-parity-driver.mjs";
import { SCRIPTS, TREE } from "./tui-editor-parity-scripts.ts";

interface RunResult {
	name: string;
	width: number;
	records: ({ step: unknown; lines: string[] } & Record<string, unknown>)[];
}

function runPi(): RunResult[] | undefined {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		console.warn(`tui-editor-parity: skipped, pi 0.87.1 unavailable: ${pi.error}`);
		return undefined;
	}
	const dir = mkdtempSync(join(tmpdir(), "tui-parity-"));
	try {
		const scriptsFile = join(dir, "scripts.json");
		writeFileSync(scriptsFile, JSON.stringify(SCRIPTS));
		const driver = pathToFileURL(join(import.meta.dir, "tui-editor-parity-driver.mjs")).href;
		const code = `import { readFileSync } from "node:fs";
const tui = await import("@earendil-works/pi-tui");
const { runScripts } = await import(${JSON.stringify(driver)});
const result = await runScripts(tui, JSON.parse(readFileSync(${JSON.stringify(scriptsFile)}, "utf8")));
process.stdout.write(JSON.stringify(result));`;
		const child = Bun.spawnSync([pi.node, "--input-type=module", "-e", code], {
			cwd: dirname(pi.modules),
			stdout: "pipe",
			stderr: "pipe",
		});
		if (child.exitCode !== 0) throw new Error(`pi-tui run failed: ${child.stderr.toString()}`);
		return JSON.parse(child.stdout.toString()) as RunResult[];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

afterAll(() => rmSync(TREE, { recursive: true, force: true }));

describe("pi-tui editor components parity", () => {
	test("scripted sessions show the same screens and state as pi-tui 0.87.1", async () => {
		const theirs = runPi();
		if (!theirs) return;
		const mine = JSON.parse(JSON.stringify(await runScripts(ours, SCRIPTS))) as RunResult[];
		const problems: string[] = [];
		for (let i = 0; i < theirs.length; i++) {
			const a = theirs[i] as RunResult;
			const b = mine[i] as RunResult;
			for (let s = 0; s < a.records.length; s++) {
				const ra = a.records[s] as RunResult["records"][number];
				const rb = b.records[s] as RunResult["records"][number];
				const where = `${a.name} @${a.width} step ${s} ${JSON.stringify(ra.step).slice(0, 40)}`;
				const { lines: la, ...sa } = ra;
				const { lines: lb, ...sb } = rb;
				if (JSON.stringify(sa) !== JSON.stringify(sb)) {
					problems.push(`${where}: state\n  pi:   ${JSON.stringify(sa)}\n  ours: ${JSON.stringify(sb)}`);
					break;
				}
				if (JSON.stringify(la) === JSON.stringify(lb)) continue;
				const screenA = await linesOnScreen(la, a.width);
				const screenB = await linesOnScreen(lb, a.width);
				if (JSON.stringify(screenA) !== JSON.stringify(screenB)) {
					problems.push(`${where}: screen\n  pi:\n${screenA.join("\n")}\n  ours:\n${screenB.join("\n")}`);
					break;
				}
			}
		}
		if (problems.length > 0) console.log(problems.join("\n\n"));
		expect(problems).toEqual([]);
	}, 120_000);
});
