/**
 * FIFOs and devices next to the grep tests: ls, find and edit must never open one (opening a FIFO blocks until a
 * writer appears; /dev/zero never ends). Each check is bounded in time so a regression fails instead of hanging.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { AgentToolResult } from "../../../src/agent/index.ts";
import { findFd } from "../../../src/tools/external.ts";
import { createEditTool, createFindTool, createLsTool } from "../../../src/tools/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const hasMkfifo = Bun.which("mkfifo") !== null;

function textOf(result: AgentToolResult): string {
	const block = result.content[0];
	return block?.type === "text" ? block.text : "";
}

/** A folder holding a regular file and a FIFO (or undefined when mkfifo is missing). */
function folderWithFifo(): string | undefined {
	if (!hasMkfifo) return undefined;
	const dir = makeTempDir("pi-special-");
	writeTree(dir, { "a.txt": "a\n" });
	expect(Bun.spawnSync(["mkfifo", join(dir, "pipe")]).exitCode).toBe(0);
	return dir;
}

async function quickly<T>(work: Promise<T>): Promise<T> {
	const started = performance.now();
	try {
		return await work;
	} finally {
		expect(performance.now() - started).toBeLessThan(2000);
	}
}

describe("special files are never opened", () => {
	test("ls lists a FIFO as a plain entry and refuses one as the path", async () => {
		const dir = folderWithFifo();
		if (!dir) return;
		const ls = createLsTool(dir);
		expect(textOf(await quickly(ls.execute("c", {})))).toBe("a.txt\npipe");
		await expect(quickly(ls.execute("c", { path: "pipe" }))).rejects.toThrow(`Not a directory: ${join(dir, "pipe")}`);
		await expect(quickly(ls.execute("c", { path: "/dev/zero" }))).rejects.toThrow("Not a directory: /dev/zero");
	});

	for (const forceNative of findFd() ? [true, false] : [true]) {
		test(`find (${forceNative ? "built-in" : "fd"}) lists a FIFO by name and does not hang on one as the path`, async () => {
			const dir = folderWithFifo();
			if (!dir) return;
			const find = createFindTool(dir, { forceNative });
			expect(textOf(await quickly(find.execute("c", { pattern: "*" })))).toBe("a.txt\npipe");
			const onFifo = find.execute("c", { pattern: "*", path: "pipe" }).then(textOf, (e: Error) => e.message);
			expect(await quickly(onFifo)).toBeString();
		});
	}

	test("edit refuses /dev/zero instead of reading it forever", async () => {
		await expect(
			quickly(
				createEditTool(makeTempDir()).execute("c", { path: "/dev/zero", edits: [{ oldText: "a", newText: "b" }] }),
			),
		).rejects.toThrow(
			"Could not edit file: /dev/zero. It is not a regular file (a FIFO, socket or device); nothing was read or changed.",
		);
	});
});
