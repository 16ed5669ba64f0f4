/**
 * Paths outside the session's cwd are allowed (as in pi): `../x`, `~/x` and absolute paths must reach the file they
 * name, for every file tool.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentToolResult } from "../../../src/agent/index.ts";
import {
	createEditTool,
	createFindTool,
	createGrepTool,
	createLsTool,
	createReadTool,
	createWriteTool,
} from "../../../src/tools/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

function textOf(result: AgentToolResult): string {
	const block = result.content[0];
	return block?.type === "text" ? block.text : "";
}

const root = makeTempDir("pi-outside-");
const cwd = join(root, "work", "project");
const outside = join(root, "outside");
const home = join(root, "home");
const savedHome = process.env.HOME;

beforeAll(() => {
	mkdirSync(cwd, { recursive: true });
	writeTree(outside, { "o.txt": "outside needle\n" });
	writeTree(home, { "h.txt": "home needle\n" });
	process.env.HOME = home;
});

afterAll(() => {
	if (savedHome === undefined) delete process.env.HOME;
	else process.env.HOME = savedHome;
});

/** The three spellings of a path outside cwd, and the file each must reach. */
function spellings(name: string): [string, string][] {
	return [
		[`../../outside/${name}`, join(outside, name)],
		[`~/${name}`, join(home, name)],
		[join(outside, name), join(outside, name)],
	];
}

describe("file tools accept paths outside cwd", () => {
	test("read: ../x, ~/x, absolute and @-prefixed", async () => {
		const read = createReadTool(cwd);
		expect(textOf(await read.execute("c", { path: "../../outside/o.txt" }))).toBe("outside needle\n");
		expect(textOf(await read.execute("c", { path: "~/h.txt" }))).toBe("home needle\n");
		expect(textOf(await read.execute("c", { path: join(outside, "o.txt") }))).toBe("outside needle\n");
		expect(textOf(await read.execute("c", { path: "@../../outside/o.txt" }))).toBe("outside needle\n");
	});

	test("write: creates the file where the path points, parents included", async () => {
		const write = createWriteTool(cwd);
		for (const [path, target] of spellings("w/new.txt")) {
			await write.execute("c", { path, content: `wrote ${path}` });
			expect(readFileSync(target, "utf8")).toBe(`wrote ${path}`);
		}
	});

	test("edit: changes the file where the path points", async () => {
		const edit = createEditTool(cwd);
		for (const [path, target] of spellings("e.txt")) {
			writeTree(target.slice(0, -"e.txt".length), { "e.txt": "before\n" });
			const result = await edit.execute("c", { path, edits: [{ oldText: "before", newText: "after" }] });
			expect(textOf(result)).toBe(`Successfully replaced 1 block(s) in ${path}.`);
			expect(readFileSync(target, "utf8")).toBe("after\n");
		}
	});

	test("ls: lists the directory the path names", async () => {
		const ls = createLsTool(cwd);
		expect(textOf(await ls.execute("c", { path: ".." }))).toBe("project/");
		expect(textOf(await ls.execute("c", { path: "~" }))).toContain("h.txt");
		expect(textOf(await ls.execute("c", { path: outside }))).toContain("o.txt");
		expect(textOf(await ls.execute("c", { path: "../../outside" }))).toContain("o.txt");
	});

	for (const forceNative of [true, false]) {
		const variant = forceNative ? "built-in" : "fd/rg when installed";
		test(`find (${variant}): searches below the path, results relative to it`, async () => {
			const find = createFindTool(cwd, { forceNative });
			expect(textOf(await find.execute("c", { pattern: "o.txt", path: "../../outside" }))).toBe("o.txt");
			expect(textOf(await find.execute("c", { pattern: "h.txt", path: "~" }))).toBe("h.txt");
			expect(textOf(await find.execute("c", { pattern: "o.txt", path: outside }))).toBe("o.txt");
		});

		test(`grep (${variant}): searches the directory or file the path names`, async () => {
			const grep = createGrepTool(cwd, { forceNative });
			expect(textOf(await grep.execute("c", { pattern: "needle", path: "../../outside" }))).toBe(
				"o.txt:1: outside needle",
			);
			expect(textOf(await grep.execute("c", { pattern: "needle", path: "~/h.txt" }))).toBe("h.txt:1: home needle");
			expect(textOf(await grep.execute("c", { pattern: "needle", path: join(outside, "o.txt") }))).toBe(
				"o.txt:1: outside needle",
			);
		});
	}
});
