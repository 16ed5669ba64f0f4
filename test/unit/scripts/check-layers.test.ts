import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const script = join(import.meta.dir, "..", "..", "..", "scripts", "check-layers.ts");
const check = (src: string) => {
	const run = Bun.spawnSync([process.execPath, script, src], { stdout: "pipe", stderr: "pipe" });
	return { code: run.exitCode, out: run.stdout.toString() + run.stderr.toString() };
};

describe("layer check", () => {
	test("the real tree passes", () => {
		expect(check(join(import.meta.dir, "..", "..", "..", "src")).code).toBe(0);
	});
	test("an upward import fails, naming file and layers", () => {
		const src = makeTempDir();
		writeTree(src, {
			"util/index.ts": 'export { x } from "../config/index.ts";\n',
			"config/index.ts": "export const x = 1;\n",
		});
		const run = check(src);
		expect(run.code).toBe(1);
		expect(run.out).toContain(
			"util/index.ts imports ../config/index.ts: util (layer 0) may not import config (layer 3)",
		);
	});
	test("reaching past a folder's index.ts fails", () => {
		const src = makeTempDir();
		writeTree(src, {
			"config/index.ts": 'export { y } from "../util/inner.ts";\n',
			"util/index.ts": "export {};\n",
			"util/inner.ts": "export const y = 1;\n",
		});
		expect(check(src).out).toContain("import util/index.ts, not a file inside it");
	});
	test("the interactive mode's own index may be imported (so the CLI's modes/index.ts loads no tui), not files inside it", () => {
		const src = makeTempDir();
		writeTree(src, {
			"modes/index.ts": "export {};\n",
			"modes/interactive/index.ts": 'export * from "./components/x.ts";\n',
			"modes/interactive/components/x.ts": "export const x = 1;\n",
			"sdk/index.ts": 'export * from "../modes/interactive/index.ts";\n',
			"sdk/deep.ts": 'export * from "../modes/interactive/components/x.ts";\n',
		});
		const out = check(src).out;
		expect(out).not.toContain("sdk/index.ts imports");
		expect(out).toContain("sdk/deep.ts imports ../modes/interactive/components/x.ts: import modes/index.ts");
	});
	test("tui may import only util, and only modes/interactive and sdk may import tui", () => {
		const src = makeTempDir();
		writeTree(src, {
			"tui/index.ts": 'export * from "../config/index.ts";\n',
			"config/index.ts": 'export * from "../tui/index.ts";\n',
		});
		const out = check(src).out;
		expect(out).toContain("tui may import only util");
		expect(out).toContain("only modes/interactive and sdk may import tui");
	});
	test("costly built-ins are imported for types only; their values come from util", () => {
		const src = makeTempDir();
		writeTree(src, {
			"config/index.ts": [
				'import type { Stats } from "node:fs";',
				'import { join } from "node:path";',
				'import { existsSync } from "node:fs";',
				'import { spawn } from "node:child_process";',
				"export const x = 1;",
				"",
			].join("\n"),
		});
		const run = check(src);
		expect(run.code).toBe(1);
		expect(run.out).toContain("config/index.ts imports node:fs: use util's lazy accessors");
		expect(run.out).toContain("config/index.ts imports node:child_process");
		expect(run.out).not.toContain("node:path");
	});
});
