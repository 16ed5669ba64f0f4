import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import {
	createEditTool,
	type EditOperations,
	localEditOperations,
	prepareEditArguments,
} from "../../../src/tools/edit.ts";
import { renderDiff } from "../../../src/tools/edit-diff.ts";
import { fuzzyNormalize } from "../../../src/tools/edit-match.ts";
import { FileReadTracker } from "../../../src/tools/read-tracker.ts";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-edit-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

type Edit = { oldText: string; newText: string };
type Result = Awaited<ReturnType<ReturnType<typeof createEditTool>["execute"]>>;
const textOf = (result: Result) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("");

function file(name: string, content: string | Buffer): string {
	const path = join(dir, name);
	writeFileSync(path, content);
	return path;
}

function edit(path: string, edits: Edit[], options = {}, signal?: AbortSignal): Promise<Result> {
	return createEditTool(dir, options).execute("id", { path, edits }, signal);
}

describe("edit tool: basics", () => {
	test("metadata and schema", () => {
		const tool = createEditTool(dir);
		expect(tool.name).toBe("edit");
		expect(tool.promptSnippet).toBe(
			"Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
		);
		expect(tool.promptGuidelines).toHaveLength(4);
		// As pi's: an empty list and extra keys pass the schema; execute refuses an empty list.
		expect(Value.Check(tool.parameters, { path: "a", edits: [] })).toBe(true);
		expect(Value.Check(tool.parameters, { path: "a", edits: [{ oldText: "x", newText: "y", extra: 1 }] })).toBe(true);
		expect(Value.Check(tool.parameters, { path: "a", edits: [{ oldText: "x", newText: "y" }] })).toBe(true);
	});

	test("an empty edits list is refused with pi's message", async () => {
		file("z.txt", "z\n");
		await expect(edit("z.txt", [])).rejects.toThrow(
			"Edit tool input is invalid. edits must contain at least one replacement.",
		);
	});

	test("single replacement with diff details", async () => {
		const path = file("a.txt", "one\ntwo\nthree\n");
		const result = await edit("a.txt", [{ oldText: "two", newText: "TWO" }]);
		expect(textOf(result)).toBe("Successfully replaced 1 block(s) in a.txt.");
		expect(readFileSync(path, "utf8")).toBe("one\nTWO\nthree\n");
		expect(result.details.firstChangedLine).toBe(2);
		expect(result.details.diff).toBe([" 1 one", "-2 two", "+2 TWO", " 3 three", " 4 "].join("\n"));
	});

	test("several edits are located in the original and all applied", async () => {
		const path = file("m.txt", "a = 1\nb = 2\nc = 3\n");
		const result = await edit("m.txt", [
			{ oldText: "c = 3", newText: "c = 30" },
			{ oldText: "a = 1", newText: "a = 1\nb = 1" },
			{ oldText: "b = 2", newText: "b = 20" },
		]);
		expect(textOf(result)).toBe("Successfully replaced 3 block(s) in m.txt.");
		expect(readFileSync(path, "utf8")).toBe("a = 1\nb = 1\nb = 20\nc = 30\n");
	});

	test("legacy top-level oldText/newText and edits as a JSON string", async () => {
		const path = file("l.txt", "hello world");
		const tool = createEditTool(dir);
		const legacy = tool.prepareArguments?.({ path: "l.txt", oldText: "hello", newText: "bye" });
		expect(legacy).toEqual({ path: "l.txt", edits: [{ oldText: "hello", newText: "bye" }] });
		await tool.execute("1", legacy);
		expect(readFileSync(path, "utf8")).toBe("bye world");
		const json = prepareEditArguments({ path: "l.txt", edits: JSON.stringify([{ oldText: "world", newText: "all" }]) });
		expect(json).toEqual({ path: "l.txt", edits: [{ oldText: "world", newText: "all" }] });
		await tool.execute("2", json);
		expect(readFileSync(path, "utf8")).toBe("bye all");
		expect(prepareEditArguments({ path: "x", edits: { oldText: "a", newText: "b" } })).toEqual({
			path: "x",
			edits: [{ oldText: "a", newText: "b" }],
		});
		expect(prepareEditArguments({ path: "x", edits: "not json" })).toEqual({ path: "x", edits: "not json" });
	});
});

describe("edit tool: errors", () => {
	test("missing file", async () => {
		await expect(edit("gone.txt", [{ oldText: "a", newText: "b" }])).rejects.toThrow(
			"Could not edit file: gone.txt. Error code: ENOENT.",
		);
	});

	test("text not found", async () => {
		file("n.txt", "abc\n");
		await expect(edit("n.txt", [{ oldText: "xyz", newText: "1" }])).rejects.toThrow(
			"Could not find the exact text in n.txt. The old text must match exactly including all whitespace and newlines.",
		);
		await expect(
			edit("n.txt", [
				{ oldText: "abc", newText: "1" },
				{ oldText: "xyz", newText: "2" },
			]),
		).rejects.toThrow("Could not find edits[1] in n.txt.");
	});

	test("duplicates", async () => {
		file("d.txt", "x\nx\n");
		await expect(edit("d.txt", [{ oldText: "x", newText: "y" }])).rejects.toThrow(
			"Found 2 occurrences of the text in d.txt. The text must be unique.",
		);
		await expect(
			edit("d.txt", [
				{ oldText: "x\nx", newText: "z" },
				{ oldText: "x", newText: "y" },
			]),
		).rejects.toThrow("Found 2 occurrences of edits[1] in d.txt.");
	});

	test("uniqueness is judged after fuzzy normalisation", async () => {
		file("u.txt", 'say "hi"\nsay \u201Chi\u201D\n');
		await expect(edit("u.txt", [{ oldText: 'say "hi"', newText: "x" }])).rejects.toThrow("Found 2 occurrences");
	});

	test("overlapping edits", async () => {
		file("o.txt", "abcdef");
		await expect(
			edit("o.txt", [
				{ oldText: "cde", newText: "1" },
				{ oldText: "abcd", newText: "2" },
			]),
		).rejects.toThrow("edits[0] and edits[1] overlap in o.txt.");
	});

	test("empty oldText", async () => {
		file("e.txt", "abc");
		await expect(edit("e.txt", [{ oldText: "", newText: "x" }])).rejects.toThrow("oldText must not be empty in e.txt.");
		await expect(
			edit("e.txt", [
				{ oldText: "a", newText: "x" },
				{ oldText: "", newText: "y" },
			]),
		).rejects.toThrow("edits[1].oldText must not be empty in e.txt.");
	});

	test("no change", async () => {
		const path = file("same.txt", "keep");
		await expect(edit("same.txt", [{ oldText: "keep", newText: "keep" }])).rejects.toThrow(
			"No changes made to same.txt.",
		);
		expect(readFileSync(path, "utf8")).toBe("keep");
	});

	test("a FIFO is refused instead of hanging", async () => {
		expect(Bun.spawnSync(["mkfifo", join(dir, "pipe")]).exitCode).toBe(0);
		await expect(edit("pipe", [{ oldText: "a", newText: "b" }])).rejects.toThrow(
			"Could not edit file: pipe. It is not a regular file (a FIFO, socket or device)",
		);
	});

	test("abort", async () => {
		const path = file("ab.txt", "abc");
		const controller = new AbortController();
		controller.abort();
		await expect(edit("ab.txt", [{ oldText: "a", newText: "b" }], {}, controller.signal)).rejects.toThrow(
			"Operation aborted",
		);
		await Bun.sleep(5);
		expect(readFileSync(path, "utf8")).toBe("abc");
	});
});

describe("edit tool: byte preservation", () => {
	test("a Latin-1 file keeps every byte outside the edit", async () => {
		const original = Buffer.from("caf\xe9 = 1\nna\xefve = 2\nend \xff\n", "latin1");
		const path = file("latin1.txt", original);
		await edit("latin1.txt", [{ oldText: "= 2", newText: "= 3" }]);
		const expected = Buffer.from("caf\xe9 = 1\nna\xefve = 3\nend \xff\n", "latin1");
		expect(readFileSync(path).equals(expected)).toBe(true);
		await edit("latin1.txt", [{ oldText: "caf\u00e9", newText: "bistro" }]);
		expect(readFileSync(path).equals(Buffer.from("bistro = 1\nna\xefve = 3\nend \xff\n", "latin1"))).toBe(true);
	});

	test("a Latin-1 file refuses characters it cannot store", async () => {
		const original = Buffer.from("price \xa3 5\n", "latin1");
		const path = file("l1.txt", original);
		await expect(edit("l1.txt", [{ oldText: "5", newText: "5 \u20ac" }])).rejects.toThrow("Latin-1");
		expect(readFileSync(path).equals(original)).toBe(true);
	});

	test("CRLF stays CRLF, with LF or CRLF in the arguments", async () => {
		const path = file("crlf.txt", "one\r\ntwo\r\nthree\r\n");
		await edit("crlf.txt", [{ oldText: "one\ntwo", newText: "uno\ndos" }]);
		expect(readFileSync(path, "utf8")).toBe("uno\r\ndos\r\nthree\r\n");
		await edit("crlf.txt", [{ oldText: "dos\r\nthree\r\n", newText: "tres\r\n" }]);
		expect(readFileSync(path, "utf8")).toBe("uno\r\ntres\r\n");
	});

	test("mixed line endings outside the edit are untouched", async () => {
		const path = file("mixed.txt", "a\r\nb\nc\r\nd\n");
		await edit("mixed.txt", [{ oldText: "c", newText: "C" }]);
		expect(readFileSync(path, "utf8")).toBe("a\r\nb\nC\r\nd\n");
	});

	test("a UTF-8 BOM is kept", async () => {
		const bom = Buffer.from([0xef, 0xbb, 0xbf]);
		const path = file("bom.txt", Buffer.concat([bom, Buffer.from("x = 1\n")]));
		await edit("bom.txt", [{ oldText: "x = 1", newText: "x = 2" }]);
		expect(readFileSync(path).equals(Buffer.concat([bom, Buffer.from("x = 2\n")]))).toBe(true);
	});
});

describe("edit tool: UTF-16 and stale reads", () => {
	test("UTF-16 with a BOM is edited in its encoding; an unpaired surrogate outside the edit survives", async () => {
		const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a\ud800b\r\nx = 1\r\n", "utf16le")]);
		const path = file("le.txt", le);
		await edit("le.txt", [{ oldText: "x = 1", newText: "x = \u00e9\u20ac\nnext" }]);
		const expected = Buffer.concat([
			Buffer.from([0xff, 0xfe]),
			Buffer.from("a\ud800b\r\nx = \u00e9\u20ac\r\nnext\r\n", "utf16le"),
		]);
		expect(readFileSync(path).toString("hex")).toBe(expected.toString("hex"));
	});

	test("an odd byte count after a UTF-16 BOM is not UTF-16: kept byte for byte as Latin-1", async () => {
		const odd = Buffer.from([0xff, 0xfe, 0x41, 0x0a, 0x42]);
		const path = file("odd.txt", odd);
		await edit("odd.txt", [{ oldText: "B", newText: "C" }]);
		expect(readFileSync(path).equals(Buffer.from([0xff, 0xfe, 0x41, 0x0a, 0x43]))).toBe(true);
	});

	test("with a tracker: refused after the file changed since it was remembered, allowed after our own write", async () => {
		let version = "v1";
		const tracker = new FileReadTracker(async () => version);
		const path = file("t.txt", "one two\n");
		await tracker.remember(path);
		await edit("t.txt", [{ oldText: "one", newText: "ONE" }], { tracker });
		version = "v2";
		await expect(edit("t.txt", [{ oldText: "two", newText: "TWO" }], { tracker })).rejects.toThrow(
			"File t.txt has changed on disk since you last read it.",
		);
		expect(readFileSync(path, "utf8")).toBe("ONE two\n");
	});
});

describe("edit tool: fuzzy matching", () => {
	test("smart quotes in the file match ASCII quotes; only the matched span changes", async () => {
		const content = "const a = \u201Chello\u201D;\nconst b = \u2018it\u2019s\u2019;\n";
		const path = file("q.txt", content);
		await edit("q.txt", [{ oldText: 'a = "hello";', newText: 'a = "bye";' }]);
		expect(readFileSync(path, "utf8")).toBe('const a = "bye";\nconst b = \u2018it\u2019s\u2019;\n');
	});

	test("trailing whitespace, dashes and special spaces", async () => {
		const path = file("f.txt", "alpha   \nbeta \u2014 gamma\u00A0delta\nomega\n");
		await edit("f.txt", [{ oldText: "alpha\nbeta - gamma delta", newText: "ALPHA\nBETA" }]);
		expect(readFileSync(path, "utf8")).toBe("ALPHA\nBETA\nomega\n");
		const path2 = file("g.txt", "x = 1;  \ny = 2;\n");
		await edit("g.txt", [{ oldText: "x = 1;", newText: "x = 3;" }]);
		expect(readFileSync(path2, "utf8")).toBe("x = 3;  \ny = 2;\n");
	});

	test("NFKC: compatibility characters match their plain form", async () => {
		const path = file("n.txt", "\uFB01le = \uFF11\n");
		await edit("n.txt", [{ oldText: "file = 1", newText: "file = 2" }]);
		expect(readFileSync(path, "utf8")).toBe("file = 2\n");
		expect(fuzzyNormalize("a\u2013b \u201Cc\u201D  \n")).toBe('a-b "c"\n');
	});
});

describe("edit tool: concurrency and diff", () => {
	test("parallel edits of one file both land", async () => {
		const path = file("p.txt", "first\nsecond\n");
		const slow: EditOperations = {
			readFile: async (p) => {
				const data = await localEditOperations.readFile(p);
				await Bun.sleep(20);
				return data;
			},
			writeFile: localEditOperations.writeFile,
		};
		const tool = createEditTool(dir, { operations: slow });
		await Promise.all([
			tool.execute("1", { path: "p.txt", edits: [{ oldText: "first", newText: "1st" }] }),
			tool.execute("2", { path: path, edits: [{ oldText: "second", newText: "2nd" }] }),
		]);
		expect(readFileSync(path, "utf8")).toBe("1st\n2nd\n");
	});

	test("diff of a 10k-line file: fast, numbered, 4 lines of context", async () => {
		const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}`);
		file("big.txt", `${lines.join("\n")}\n`);
		const started = performance.now();
		const result = await edit("big.txt", [
			{ oldText: "line 100\n", newText: "line 100 changed\n" },
			{ oldText: "line 9000\n", newText: "" },
		]);
		expect(performance.now() - started).toBeLessThan(1000);
		const diff = result.details.diff.split("\n");
		expect(diff[0]).toBe("       ...");
		expect(diff).toContain("-  100 line 100");
		expect(diff).toContain("+  100 line 100 changed");
		expect(diff).toContain("    96 line 96");
		expect(diff).not.toContain("    95 line 95");
		expect(diff).toContain("- 9000 line 9000");
		expect(diff.at(-1)).toBe("       ...");
		expect(result.details.firstChangedLine).toBe(100);
	});

	test("renderDiff handles large rewrites", () => {
		const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join("\n");
		const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join("\n");
		const started = performance.now();
		const { diff, firstChangedLine } = renderDiff(a, b);
		expect(performance.now() - started).toBeLessThan(1000);
		expect(firstChangedLine).toBe(1);
		expect(diff.split("\n")).toHaveLength(6000);
		expect(renderDiff("same", "same")).toEqual({ diff: "", firstChangedLine: undefined });
	});
});
