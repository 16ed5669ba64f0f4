import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEditTool } from "../../../src/tools/edit.ts";
import { createWriteTool, type WriteOperations } from "../../../src/tools/write.ts";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-write-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const textOf = (result: { content: { type: string; text?: string }[] }) =>
	result.content.map((part) => part.text ?? "").join("");

describe("write tool", () => {
	test("metadata", () => {
		const tool = createWriteTool(dir);
		expect(tool.name).toBe("write");
		expect(tool.promptSnippet).toBe("Create or overwrite files");
		expect(tool.promptGuidelines?.length).toBe(1);
		expect(Object.keys(tool.parameters.properties)).toEqual(["path", "content"]);
		expect(tool.description.length).toBeGreaterThan(20);
	});

	test("creates missing parent directories and reports content.length", async () => {
		const tool = createWriteTool(dir);
		const result = await tool.execute("1", { path: "a/b/c.txt", content: "héllo" });
		expect(textOf(result)).toBe("Successfully wrote 5 bytes to a/b/c.txt");
		expect(result.details).toBeUndefined();
		expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("héllo");
	});

	test("overwrites an existing file; absolute and @-prefixed paths work", async () => {
		const file = join(dir, "x.txt");
		writeFileSync(file, "old content that is longer");
		const tool = createWriteTool(dir);
		await tool.execute("1", { path: file, content: "new" });
		expect(readFileSync(file, "utf8")).toBe("new");
		await tool.execute("2", { path: "@x.txt", content: "again" });
		expect(readFileSync(file, "utf8")).toBe("again");
	});

	test("uses the given operations", async () => {
		const calls: string[] = [];
		const operations: WriteOperations = {
			mkdir: async (d) => {
				calls.push(`mkdir ${d}`);
			},
			writeFile: async (p, content) => {
				calls.push(`write ${p} ${content}`);
			},
		};
		await createWriteTool("/remote", { operations }).execute("1", { path: "d/f.txt", content: "hi" });
		expect(calls).toEqual(["mkdir /remote/d", "write /remote/d/f.txt hi"]);
	});

	test("abort rejects with Operation aborted and writes nothing", async () => {
		const controller = new AbortController();
		controller.abort();
		const tool = createWriteTool(dir);
		await expect(tool.execute("1", { path: "f.txt", content: "x" }, controller.signal)).rejects.toThrow(
			"Operation aborted",
		);
		await Bun.sleep(5);
		expect(() => readFileSync(join(dir, "f.txt"))).toThrow();
	});

	test("fs errors are reported", async () => {
		writeFileSync(join(dir, "file"), "x");
		const tool = createWriteTool(dir);
		await expect(tool.execute("1", { path: "file/child.txt", content: "x" })).rejects.toThrow();
	});

	test("a FIFO is refused instead of blocking", async () => {
		expect(Bun.spawnSync(["mkfifo", join(dir, "pipe")]).exitCode).toBe(0);
		await expect(createWriteTool(dir).execute("1", { path: "pipe", content: "x" })).rejects.toThrow(
			"Not a regular file",
		);
	});

	test("a write and an edit of one file issued together are serialised", async () => {
		const file = join(dir, "s.txt");
		writeFileSync(file, "alpha\n");
		const write = createWriteTool(dir);
		const edit = createEditTool(dir);
		await Promise.all([
			write.execute("1", { path: "s.txt", content: "alpha\nbeta\n" }),
			edit.execute("2", { path: "s.txt", edits: [{ oldText: "beta", newText: "gamma" }] }),
		]);
		expect(readFileSync(file, "utf8")).toBe("alpha\ngamma\n");
	});
});
