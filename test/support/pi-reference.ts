/**
 * Runs code against pi 0.87.1's own `pi-coding-agent` under Node 22 (from the conformance cache), so a test can
 * compare our export with pi's on the same inputs. `piReference()` is undefined (after printing why) when the
 * cache is unavailable; the test then skips.
 */
import { dirname } from "node:path";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";

export interface PiReference {
	/**
	 * Evaluates `body` (an async function body that can use `pi`, the imported module, and `args`) and returns
	 * what it returns, through JSON.
	 */
	run<T = unknown>(body: string, args?: unknown, env?: Record<string, string>): T;
}

let cached: PiReference | null | undefined;

export function piReference(testName: string): PiReference | undefined {
	if (cached === undefined) {
		const pi = ensureRunnablePi();
		if ("error" in pi) {
			console.warn(`${testName}: skipped, pi 0.87.1 unavailable: ${pi.error}`);
			cached = null;
		} else {
			cached = {
				run<T>(body: string, args?: unknown, env?: Record<string, string>): T {
					const script = `const pi = await import("@earendil-works/pi-coding-agent");
const args = JSON.parse(process.env.PI_REF_ARGS);
const result = await (async () => { ${body} })();
process.stdout.write(JSON.stringify(result === undefined ? null : result));`;
					const child = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
						cwd: dirname(pi.modules),
						env: {
							...process.env,
							...env,
							PI_REF_ARGS: JSON.stringify(args ?? null),
							HTTP_PROXY: "http://127.0.0.1:9",
							HTTPS_PROXY: "http://127.0.0.1:9",
							NO_PROXY: "127.0.0.1,localhost",
						},
						stdout: "pipe",
						stderr: "pipe",
					});
					if (child.exitCode !== 0) throw new Error(`pi reference failed: ${child.stderr.toString()}`);
					return JSON.parse(child.stdout.toString()) as T;
				},
			};
		}
	} else if (cached === null) console.warn(`${testName}: skipped, pi 0.87.1 unavailable`);
	return cached ?? undefined;
}

/**
 * Runs one script body against pi's module (under Node) and ours (in this process, as `pi`), each with a fresh temp
 * folder as `args.dir` and as HOME; returns both results through JSON. The folders are removed afterwards.
 */
export async function runSideBySide(
	pi: PiReference,
	ours: unknown,
	script: string,
	options: { prefix: string; env?: Record<string, string> },
): Promise<{ expected: unknown; actual: unknown }> {
	const { mkdtempSync, realpathSync, rmSync } = await import("node:fs");
	const { tmpdir } = await import("node:os");
	const { join } = await import("node:path");
	const mine = realpathSync(mkdtempSync(join(tmpdir(), `${options.prefix}-ours-`)));
	const theirs = realpathSync(mkdtempSync(join(tmpdir(), `${options.prefix}-theirs-`)));
	const saved = process.env.HOME;
	try {
		const expected = pi.run(script, { dir: theirs }, { ...options.env, HOME: theirs });
		process.env.HOME = mine;
		const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
		const actual = await new AsyncFunction("pi", "args", script)(ours, { dir: mine });
		if (process.env.SHOW) console.log(JSON.stringify({ expected, actual }, null, 1));
		return { expected, actual: JSON.parse(JSON.stringify(actual ?? null)) };
	} finally {
		process.env.HOME = saved;
		rmSync(mine, { recursive: true, force: true });
		rmSync(theirs, { recursive: true, force: true });
	}
}
