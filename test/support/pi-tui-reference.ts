/**
 * Runs a script against pi-tui 0.87.1 under Node 22 (from the conformance cache), in ONE node process per call:
 * the script reads its input from the JSON file named by `PI_TUI_IN` and writes its result as JSON to the file
 * named by `PI_TUI_OUT`. `piTuiReference()` is undefined (after printing why) when pi is unavailable.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";

export interface PiTuiReference {
	/** `body` is an async function body with `tui` (pi-tui's module) and `input` in scope; it returns the result. */
	run<T>(body: string, input: unknown, env?: Record<string, string | undefined>): Promise<T>;
}

export function piTuiReference(testName: string): PiTuiReference | undefined {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		console.warn(`${testName}: skipped, pi 0.87.1 unavailable: ${pi.error}`);
		return undefined;
	}
	return {
		async run<T>(body: string, input: unknown, env: Record<string, string | undefined> = {}): Promise<T> {
			const dir = mkdtempSync(join(tmpdir(), "pi-tui-ref-"));
			try {
				const inFile = join(dir, "in.json");
				const outFile = join(dir, "out.json");
				writeFileSync(inFile, JSON.stringify(input));
				const script = `import * as tui from "@earendil-works/pi-tui";
import { readFileSync, writeFileSync } from "node:fs";
const input = JSON.parse(readFileSync(process.env.PI_TUI_IN, "utf8"));
const result = await (async () => { ${body} })();
writeFileSync(process.env.PI_TUI_OUT, JSON.stringify(result ?? null));
process.exit(0);`;
				const childEnv: Record<string, string> = {};
				for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) childEnv[k] = v;
				const child = Bun.spawn([pi.node, "--input-type=module", "-e", script], {
					cwd: dirname(pi.modules),
					env: { ...childEnv, PI_TUI_IN: inFile, PI_TUI_OUT: outFile, HTTP_PROXY: "http://127.0.0.1:9" },
					stdout: "pipe",
					stderr: "pipe",
				});
				const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
				if (code !== 0) throw new Error(`pi-tui reference failed (${code}): ${stderr}`);
				return JSON.parse(readFileSync(outFile, "utf8")) as T;
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		},
	};
}
