import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { AgentToolResult } from "../../../src/agent/index.ts";
import { createLsTool, type LsOperations } from "../../../src/tools/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

function textOf(result: AgentToolResult): string {
	const block = result.content[0];
	return block?.type === "text" ? block.text : "";
}

describe("ls tool", () => {
	test("dotfiles included, case-insensitive order, directories marked", async () => {
		const root = makeTempDir("pi-ls-");
		writeTree(root, { "b.txt": "", "A.txt": "", ".env": "", "Zeta/x": "", "alpha/y": "", "c.md": "" });
		symlinkSync(join(root, "alpha"), join(root, "link-dir"));
		symlinkSync(join(root, "missing"), join(root, "dangling"));
		const result = await createLsTool(root).execute("c", {});
		expect(textOf(result)).toBe(
			[".env", "A.txt", "alpha/", "b.txt", "c.md", "dangling", "link-dir/", "Zeta/"].join("\n"),
		);
		expect(result.details).toBeUndefined();
	});

	test("path option relative to cwd and (empty directory)", async () => {
		const root = makeTempDir("pi-ls-");
		mkdirSync(join(root, "empty"));
		writeTree(root, { "sub/file.ts": "" });
		const tool = createLsTool(root);
		expect(textOf(await tool.execute("c", { path: "sub" }))).toBe("file.ts");
		expect(textOf(await tool.execute("c", { path: "empty" }))).toBe("(empty directory)");
	});

	test("limit notice and details", async () => {
		const root = makeTempDir("pi-ls-");
		const files: Record<string, string> = {};
		for (let i = 0; i < 12; i++) files[`f${String(i).padStart(2, "0")}`] = "";
		writeTree(root, files);
		const result = await createLsTool(root).execute("c", { limit: 10 });
		const [list, notice] = textOf(result).split("\n\n");
		expect(list!.split("\n")).toHaveLength(10);
		expect(notice).toBe("[10 entries limit reached. Use limit=20 for more]");
		expect(result.details).toEqual({ entryLimitReached: 10 });
		expect((await createLsTool(root).execute("c", { limit: 12 })).details).toBeUndefined();
	});

	test("errors: not found, not a directory, unreadable, aborted", async () => {
		const root = makeTempDir("pi-ls-");
		writeTree(root, { "file.txt": "" });
		const tool = createLsTool(root);
		await expect(tool.execute("c", { path: "nope" })).rejects.toThrow(`Path not found: ${join(root, "nope")}`);
		await expect(tool.execute("c", { path: "file.txt" })).rejects.toThrow(`Not a directory: ${join(root, "file.txt")}`);
		const failing: LsOperations = {
			exists: () => true,
			stat: () => ({ isDirectory: () => true }),
			readdir: () => {
				throw new Error("EACCES: permission denied");
			},
		};
		await expect(createLsTool(root, { operations: failing }).execute("c", {})).rejects.toThrow(
			"Cannot read directory: EACCES: permission denied",
		);
		const controller = new AbortController();
		controller.abort();
		await expect(tool.execute("c", {}, controller.signal)).rejects.toThrow("Operation aborted");
	});

	test("custom operations list a remote directory", async () => {
		const operations: LsOperations = {
			exists: () => true,
			stat: (path) => ({ isDirectory: () => !path.endsWith(".txt") }),
			readdir: () => ["b.txt", "a"],
		};
		expect(textOf(await createLsTool("/remote", { operations }).execute("c", {}))).toBe("a/\nb.txt");
	});
});
