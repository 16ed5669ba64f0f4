/**
 * Runs a batch of work against pi-tui 0.87.1 (from the conformance cache) under Node 22, in ONE node process: the
 * input goes through a temp JSON file and the script writes its answer to another. `piTuiReference()` is undefined
 * (after printing why) when the cache is unavailable; the test then skips.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";

export interface PiTuiReference {
	/**
	 * Evaluates `body`, an async function body that can use `tui` (pi-tui's exports) and `input`, and returns what
	 * it returns, through JSON.
	 */
	run<T = unknown>(body: string, input: unknown): T;
}

export function piTuiReference(testName: string): PiTuiReference | undefined {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		console.warn(`${testName}: skipped, pi-tui 0.87.1 unavailable: ${pi.error}`);
		return undefined;
	}
	return {
		run<T>(body: string, input: unknown): T {
			const dir = mkdtempSync(join(tmpdir(), "pi-tui-ref-"));
			try {
				const inFile = join(dir, "in.json");
				const outFile = join(dir, "out.json");
				writeFileSync(inFile, JSON.stringify(input));
				const script = `import * as tui from "@earendil-works/pi-tui";
import { readFileSync, writeFileSync } from "node:fs";
const input = JSON.parse(readFileSync(${JSON.stringify(inFile)}, "utf8"));
const result = await (async () => { ${body} })();
writeFileSync(${JSON.stringify(outFile)}, JSON.stringify(result === undefined ? null : result));`;
				const child = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
					cwd: dirname(pi.modules),
					stdout: "pipe",
					stderr: "pipe",
				});
				if (child.exitCode !== 0) throw new Error(`pi-tui reference failed: ${child.stderr.toString()}`);
				return JSON.parse(readFileSync(outFile, "utf8")) as T;
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		},
	};
}
