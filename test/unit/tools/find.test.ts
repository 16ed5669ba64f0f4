import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import type { AgentToolResult } from "../../../src/agent/index.ts";
import { findFd } from "../../../src/tools/external.ts";
import { createFindTool, type FindOperations } from "../../../src/tools/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const variants = [{ name: "built-in", forceNative: true }, ...(findFd() ? [{ name: "fd", forceNative: false }] : [])];

function textOf(result: AgentToolResult): string {
	const block = result.content[0];
	return block?.type === "text" ? block.text : "";
}

function tree(): string {
	const root = makeTempDir("pi-find-");
	writeTree(root, {
		".gitignore": "*.log\n!keep.log\nbuild/\n/top.ts\nnode_modules\n",
		"src/a.ts": "",
		"src/b.js": "",
		"src/sub/c.ts": "",
		"src/.gitignore": "secret.ts\n",
		"src/secret.ts": "",
		"src/build": "a file named build",
		"build/out.ts": "",
		"node_modules/m/index.ts": "",
		"top.ts": "",
		"lib/top.ts": "",
		"a.log": "",
		"keep.log": "",
		".config/settings.ts": "",
		".git/hooks.ts": "",
	});
	return root;
}

for (const variant of variants) {
	describe(`find tool (${variant.name})`, () => {
		const make = (cwd: string) => createFindTool(cwd, { forceNative: variant.forceNative });

		test("matches names at any depth; .gitignore respected, hidden included, .git skipped", async () => {
			const root = tree();
			const result = await make(root).execute("c", { pattern: "*.ts" });
			expect(textOf(result)).toBe([".config/settings.ts", "lib/top.ts", "src/a.ts", "src/sub/c.ts"].join("\n"));
			expect(result.details).toBeUndefined();
			expect(textOf(await make(root).execute("c", { pattern: "*.log" }))).toBe("keep.log");
			expect(textOf(await make(root).execute("c", { pattern: "build" }))).toBe("src/build");
		});

		test("patterns with a slash match the path; directories end with /", async () => {
			const root = tree();
			const tool = make(root);
			expect(textOf(await tool.execute("c", { pattern: "src/**/*.ts" }))).toBe("src/a.ts\nsrc/sub/c.ts");
			expect(textOf(await tool.execute("c", { pattern: "src/*.ts" }))).toBe("src/a.ts");
			expect(textOf(await tool.execute("c", { pattern: "sub" }))).toBe("src/sub/");
			expect(textOf(await tool.execute("c", { pattern: "*.ts", path: "src" }))).toBe("a.ts\nsub/c.ts");
		});

		test("limit notice and details", async () => {
			const root = makeTempDir("pi-find-");
			const files: Record<string, string> = {};
			for (let i = 0; i < 20; i++) files[`d/f${String(i).padStart(2, "0")}.txt`] = "";
			writeTree(root, files);
			const result = await make(root).execute("c", { pattern: "*.txt", limit: 5 });
			const [list, notice] = textOf(result).split("\n\n");
			expect(list!.split("\n")).toHaveLength(5);
			expect(notice).toBe("[5 results limit reached. Use limit=10 for more, or refine pattern]");
			expect(result.details).toEqual({ resultLimitReached: 5 });
		});

		test("no results, missing path, abort", async () => {
			const root = tree();
			const tool = make(root);
			expect(textOf(await tool.execute("c", { pattern: "*.nothing" }))).toBe("No files found matching pattern");
			const missing = join(root, "missing");
			await expect(tool.execute("c", { pattern: "*", path: missing })).rejects.toThrow(`Path not found: ${missing}`);
			const controller = new AbortController();
			controller.abort();
			await expect(tool.execute("c", { pattern: "*" }, controller.signal)).rejects.toThrow("Operation aborted");
		});

		test("symlinks are listed, not followed, and loops do not hang", async () => {
			const root = makeTempDir("pi-find-");
			writeTree(root, { "d/f.txt": "" });
			symlinkSync("..", join(root, "d", "loop"));
			symlinkSync(root, join(root, "self"));
			const started = Date.now();
			const result = await make(root).execute("c", { pattern: "*" });
			expect(textOf(result)).toBe("d/\nd/f.txt\nd/loop\nself");
			expect(Date.now() - started).toBeLessThan(2000);
		});
	});
}

describe("find tool with custom operations", () => {
	test("uses operations.glob and makes its paths relative", async () => {
		const calls: unknown[] = [];
		const operations: FindOperations = {
			exists: () => true,
			glob: (pattern, searchPath, options) => {
				calls.push({ pattern, searchPath, limit: options.limit });
				return ["/remote/src/b.ts", "/remote/src/", "a.ts"];
			},
		};
		const result = await createFindTool("/remote", { operations }).execute("c", { pattern: "*.ts", limit: 10 });
		expect(textOf(result)).toBe("a.ts\nsrc/\nsrc/b.ts");
		expect(calls).toEqual([{ pattern: "*.ts", searchPath: "/remote", limit: 10 }]);
	});
});
