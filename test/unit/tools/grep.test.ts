import { describe, expect, test } from "bun:test";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentToolResult } from "../../../src/agent/index.ts";
import { findRipgrep } from "../../../src/tools/external.ts";
import { buildRegex } from "../../../src/tools/grep-native.ts";
import { createGrepTool } from "../../../src/tools/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const variants = [
	{ name: "built-in", forceNative: true },
	...(findRipgrep() ? [{ name: "ripgrep", forceNative: false }] : []),
];
if (variants.length === 1) console.log("grep tool: ripgrep (rg) is not installed; only the built-in search is tested");

const hasMkfifo = Bun.which("mkfifo") !== null;

function textOf(result: AgentToolResult): string {
	const block = result.content[0];
	return block?.type === "text" ? block.text : "";
}

/** Result lines (before any notice), sorted, since ripgrep's file order varies. */
function sortedLines(result: AgentToolResult): string[] {
	return textOf(result).split("\n\n[")[0]!.split("\n").sort();
}

function tree(): string {
	const root = makeTempDir("pi-grep-");
	writeTree(root, {
		".gitignore": "*.log\n!keep.log\nbuild/\n/top.txt\nnode_modules\n",
		"src/a.ts": "const needle = 1;\nother line\nanother needle here\n",
		"src/sub/b.ts": "first\nNEEDLE upper\nlast\n",
		"src/.gitignore": "secret.ts\n",
		"src/secret.ts": "needle secret\n",
		"src/build": "needle in a file named build\n",
		"build/out.js": "needle built\n",
		"node_modules/m.js": "needle module\n",
		"a.log": "needle log\n",
		"keep.log": "needle kept\n",
		"top.txt": "needle top\n",
		"docs/top.txt": "needle nested top\n",
		".hidden/h.txt": "needle hidden\n",
		"dots.txt": "a.b\naxb\n",
	});
	writeFileSync(join(root, "binary.bin"), Buffer.from("needle\0binary\n"));
	return root;
}

for (const variant of variants) {
	describe(`grep tool (${variant.name})`, () => {
		const make = (cwd: string) => createGrepTool(cwd, { forceNative: variant.forceNative });

		test("formats matches relative to the search dir; .gitignore, hidden and binary rules", async () => {
			const root = tree();
			const result = await make(root).execute("c", { pattern: "needle" });
			expect(sortedLines(result)).toEqual([
				".hidden/h.txt:1: needle hidden",
				"docs/top.txt:1: needle nested top",
				"keep.log:1: needle kept",
				"src/a.ts:1: const needle = 1;",
				"src/a.ts:3: another needle here",
				"src/build:1: needle in a file named build",
			]);
			expect(result.details).toBeUndefined();
		});

		test("path option: a subdirectory, or a single file shown by its name", async () => {
			const root = tree();
			const tool = make(root);
			expect(sortedLines(await tool.execute("c", { pattern: "needle", path: "src" }))).toEqual([
				"a.ts:1: const needle = 1;",
				"a.ts:3: another needle here",
				"build:1: needle in a file named build",
			]);
			const single = await tool.execute("c", { pattern: "needle", path: join(root, "src", "a.ts") });
			expect(textOf(single)).toBe("a.ts:1: const needle = 1;\na.ts:3: another needle here");
		});

		test("ignoreCase, literal and glob (a glob wins over .gitignore for files, as in rg)", async () => {
			const root = tree();
			const tool = make(root);
			expect(sortedLines(await tool.execute("c", { pattern: "needle", ignoreCase: true, glob: "*.ts" }))).toEqual([
				"src/a.ts:1: const needle = 1;",
				"src/a.ts:3: another needle here",
				"src/secret.ts:1: needle secret",
				"src/sub/b.ts:2: NEEDLE upper",
			]);
			expect(sortedLines(await tool.execute("c", { pattern: "needle", glob: "!src" }))).toEqual([
				".hidden/h.txt:1: needle hidden",
				"docs/top.txt:1: needle nested top",
				"keep.log:1: needle kept",
			]);
			expect(textOf(await tool.execute("c", { pattern: "a.b", literal: true }))).toBe("dots.txt:1: a.b");
			expect(sortedLines(await tool.execute("c", { pattern: "a.b", path: "dots.txt" }))).toEqual([
				"dots.txt:1: a.b",
				"dots.txt:2: axb",
			]);
		});

		test("context lines use the path-N- form", async () => {
			const root = makeTempDir("pi-grep-");
			writeTree(root, { "f.txt": "one\ntwo\nmatch here\nfour\nfive\nsix\nseven\nmatch again\nnine\n" });
			const result = await make(root).execute("c", { pattern: "match", context: 1 });
			expect(textOf(result)).toBe(
				[
					"f.txt-2- two",
					"f.txt:3: match here",
					"f.txt-4- four",
					"f.txt-7- seven",
					"f.txt:8: match again",
					"f.txt-9- nine",
				].join("\n"),
			);
		});

		test("match limit: notice, details and trailing context of the last match", async () => {
			const root = makeTempDir("pi-grep-");
			const lines = Array.from({ length: 10 }, (_, i) => `hit ${i + 1}`);
			writeTree(root, { "f.txt": `${lines.join("\n")}\n` });
			const tool = make(root);
			const result = await tool.execute("c", { pattern: "hit", limit: 3 });
			expect(textOf(result)).toBe(
				"f.txt:1: hit 1\nf.txt:2: hit 2\nf.txt:3: hit 3\n\n" +
					"[3 matches limit reached. Use limit=6 for more, or refine pattern]",
			);
			expect(result.details).toEqual({ matchLimitReached: 3 });
			writeTree(root, { "f.txt": "hit\nctx a\nctx b\nhit\nctx c\n" });
			const withContext = await tool.execute("c", { pattern: "hit", limit: 1, context: 1 });
			expect(textOf(withContext).split("\n\n")[0]).toBe("f.txt:1: hit\nf.txt-2- ctx a");
		});

		test("long lines are cut to 500 chars with a note", async () => {
			const root = makeTempDir("pi-grep-");
			writeTree(root, { "long.txt": `needle${"x".repeat(1000)}\n` });
			const result = await make(root).execute("c", { pattern: "needle" });
			const text = textOf(result);
			expect(text).toContain(`long.txt:1: needle${"x".repeat(494)}... [truncated]`);
			expect(text.endsWith("[Some lines truncated to 500 chars. Use read tool to see full lines]")).toBe(true);
			expect(result.details).toEqual({ linesTruncated: true });
		});

		test("output over 50KB is cut with a notice", async () => {
			const root = makeTempDir("pi-grep-");
			const line = `needle ${"y".repeat(400)}`;
			writeTree(root, { "big.txt": `${Array.from({ length: 300 }, () => line).join("\n")}\n` });
			const result = await make(root).execute("c", { pattern: "needle", limit: 1000 });
			const text = textOf(result);
			expect(Buffer.byteLength(text.split("\n\n[")[0]!)).toBeLessThanOrEqual(50 * 1024);
			expect(text.endsWith("[50.0KB limit reached]")).toBe(true);
			expect(result.details?.truncation?.truncatedBy).toBe("bytes");
		});

		test("no matches, missing path, bad regex, abort", async () => {
			const root = tree();
			const tool = make(root);
			expect(textOf(await tool.execute("c", { pattern: "zzz-not-there" }))).toBe("No matches found");
			const missing = join(root, "nope");
			await expect(tool.execute("c", { pattern: "x", path: missing })).rejects.toThrow(`Path not found: ${missing}`);
			await expect(tool.execute("c", { pattern: "(unclosed" })).rejects.toThrow();
			const controller = new AbortController();
			controller.abort();
			await expect(tool.execute("c", { pattern: "x" }, controller.signal)).rejects.toThrow("Operation aborted");
		});

		test("a symlink loop does not hang the search", async () => {
			const root = makeTempDir("pi-grep-");
			writeTree(root, { "d/f.txt": "needle\n" });
			symlinkSync("..", join(root, "d", "loop"));
			symlinkSync(root, join(root, "self"));
			const started = Date.now();
			const result = await make(root).execute("c", { pattern: "needle" });
			expect(textOf(result)).toBe("d/f.txt:1: needle");
			expect(Date.now() - started).toBeLessThan(2000);
		});

		test("a FIFO or a device as path is refused at once, without being opened", async () => {
			const root = makeTempDir("pi-grep-");
			if (!hasMkfifo) return;
			expect(Bun.spawnSync(["mkfifo", join(root, "pipe")]).exitCode).toBe(0);
			const tool = make(root);
			const started = performance.now();
			// The signal only bounds a regression (rg on a FIFO would otherwise run until the test times out).
			const signal = AbortSignal.timeout(3000);
			for (const [path, shown] of [
				["pipe", join(root, "pipe")],
				["/dev/zero", "/dev/zero"],
			]) {
				await expect(tool.execute("c", { pattern: "x", path }, signal)).rejects.toThrow(
					`Not a regular file (FIFO, device or socket), not searched: ${shown}`,
				);
			}
			expect(performance.now() - started).toBeLessThan(1000);
		});

		test("a directory walk skips FIFOs and finishes", async () => {
			const root = makeTempDir("pi-grep-");
			if (!hasMkfifo) return;
			writeTree(root, { "a.txt": "needle\n", "sub/b.txt": "needle too\n" });
			expect(Bun.spawnSync(["mkfifo", join(root, "pipe")]).exitCode).toBe(0);
			expect(Bun.spawnSync(["mkfifo", join(root, "sub", "needle.fifo")]).exitCode).toBe(0);
			const started = performance.now();
			const result = await make(root).execute("c", { pattern: "needle" }, AbortSignal.timeout(3000));
			expect(sortedLines(result)).toEqual(["a.txt:1: needle", "sub/b.txt:1: needle too"]);
			expect(performance.now() - started).toBeLessThan(2000);
		});

		test("stops walking a large tree at the limit", async () => {
			const root = makeTempDir("pi-grep-");
			const files: Record<string, string> = {};
			for (let i = 0; i < 300; i++) files[`d${i % 30}/f${i}.txt`] = "needle\n";
			writeTree(root, files);
			const result = await make(root).execute("c", { pattern: "needle", limit: 5 });
			expect(textOf(result).split("\n\n[")[0]!.split("\n")).toHaveLength(5);
			expect(result.details?.matchLimitReached).toBe(5);
		});
	});
}

describe("built-in regex", () => {
	test("literal escaping, inline flags, legacy escapes and clear errors", () => {
		expect(buildRegex("a.b(", false, true).test("xa.b(y")).toBe(true);
		expect(buildRegex("(?i)hello", false, false).test("HELLO")).toBe(true);
		expect(buildRegex("a\\-b", false, false).test("a-b")).toBe(true);
		expect(buildRegex("\\p{Lu}", false, false).test("Ä")).toBe(true);
		expect(() => buildRegex("(", false, false)).toThrow(/^Invalid regex pattern: /);
	});
});
