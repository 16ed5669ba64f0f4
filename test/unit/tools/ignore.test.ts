import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { parseIgnoreFile, parseIgnoreLine, walkTree } from "../../../src/tools/ignore.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

function matches(line: string, path: string): boolean {
	const rule = parseIgnoreLine(line);
	if (!rule) throw new Error(`no rule for ${line}`);
	return rule.regex.test(path);
}

async function walk(root: string, options: Parameters<typeof walkTree>[1] = {}): Promise<string[]> {
	const out: string[] = [];
	for await (const entry of walkTree(root, options)) out.push(entry.kind === "directory" ? `${entry.rel}/` : entry.rel);
	return out.sort();
}

describe("gitignore syntax", () => {
	test("comments, blank lines and escapes", () => {
		expect(parseIgnoreLine("# comment")).toBeUndefined();
		expect(parseIgnoreLine("   ")).toBeUndefined();
		expect(matches("\\#file", "#file")).toBe(true);
		expect(matches("\\!important", "!important")).toBe(true);
		expect(matches("trailing   ", "trailing")).toBe(true);
		expect(parseIgnoreFile("a\n#b\n\n!c\r\n").map((r) => r.negate)).toEqual([false, true]);
	});

	test("unanchored patterns match at any depth", () => {
		expect(matches("*.log", "a.log")).toBe(true);
		expect(matches("*.log", "deep/dir/a.log")).toBe(true);
		expect(matches("*.log", "a.log.txt")).toBe(false);
		expect(matches("node_modules", "x/node_modules")).toBe(true);
	});

	test("a slash anchors to the ignore file's directory", () => {
		expect(matches("/top.txt", "top.txt")).toBe(true);
		expect(matches("/top.txt", "sub/top.txt")).toBe(false);
		expect(matches("doc/*.md", "doc/a.md")).toBe(true);
		expect(matches("doc/*.md", "x/doc/a.md")).toBe(false);
		expect(matches("doc/*.md", "doc/sub/a.md")).toBe(false);
	});

	test("** forms and ? and classes", () => {
		expect(matches("**/cache", "a/b/cache")).toBe(true);
		expect(matches("**/cache", "cache")).toBe(true);
		expect(matches("logs/**", "logs/a/b.txt")).toBe(true);
		expect(matches("logs/**", "logs")).toBe(false);
		expect(matches("a/**/z", "a/z")).toBe(true);
		expect(matches("a/**/z", "a/b/c/z")).toBe(true);
		expect(matches("file?.txt", "file1.txt")).toBe(true);
		expect(matches("file?.txt", "file10.txt")).toBe(false);
		expect(matches("[ab].txt", "b.txt")).toBe(true);
		expect(matches("[!ab].txt", "b.txt")).toBe(false);
		expect(matches("[a-c]x", "cx")).toBe(true);
		expect(matches("a+b(c).txt", "a+b(c).txt")).toBe(true);
	});

	test("trailing slash and negation flags", () => {
		expect(parseIgnoreLine("build/")).toMatchObject({ dirOnly: true, negate: false });
		expect(parseIgnoreLine("!keep.log")).toMatchObject({ dirOnly: false, negate: true });
	});
});

describe("walkTree", () => {
	test("honours root and nested ignore files, negation and directory-only rules", async () => {
		const root = makeTempDir("pi-ignore-");
		writeTree(root, {
			".gitignore": "*.log\n!keep.log\nbuild/\n/top.txt\nnode_modules\n",
			"a.log": "",
			"keep.log": "",
			"top.txt": "",
			"build/out.js": "",
			"node_modules/m/index.js": "",
			".hidden/h.txt": "",
			".git/HEAD": "",
			"src/build": "a file named build is not a directory",
			"src/top.txt": "",
			"src/.gitignore": "secret.txt\n!a.log\n",
			"src/secret.txt": "",
			"src/a.log": "",
			"other/secret.txt": "",
			".ignore": "other/secret.txt\n",
		});
		expect(await walk(root)).toEqual([
			".gitignore",
			".hidden/",
			".hidden/h.txt",
			".ignore",
			"keep.log",
			"other/",
			"src/",
			"src/.gitignore",
			"src/a.log",
			"src/build",
			"src/top.txt",
		]);
		expect(await walk(root, { respectIgnore: false })).toContain("build/out.js");
	});

	test("rules of ancestors up to the repository root apply", async () => {
		const root = makeTempDir("pi-ignore-");
		writeTree(root, {
			".gitignore": "*.tmp\npkg/gen/\n",
			".git/info/exclude": "excluded.txt\n",
			"pkg/a.tmp": "",
			"pkg/a.txt": "",
			"pkg/excluded.txt": "",
			"pkg/gen/g.txt": "",
		});
		expect(await walk(join(root, "pkg"))).toEqual(["a.txt"]);
	});

	test("override decides before the rules", async () => {
		const root = makeTempDir("pi-ignore-");
		writeTree(root, { ".gitignore": "*.log\n", "a.log": "", "b.txt": "" });
		const override = (_rel: string, name: string, isDir: boolean) => (isDir ? undefined : name.endsWith(".log"));
		expect(await walk(root, { override })).toEqual(["a.log"]);
	});

	test("symlinks are listed but not followed, so loops end", async () => {
		const root = makeTempDir("pi-ignore-");
		mkdirSync(join(root, "d"));
		writeTree(root, { "d/f.txt": "" });
		symlinkSync("..", join(root, "d", "loop"));
		symlinkSync(root, join(root, "self"));
		expect(await walk(root)).toEqual(["d/", "d/f.txt", "d/loop", "self"]);
	});

	test("stops early when the consumer breaks", async () => {
		const root = makeTempDir("pi-ignore-");
		const files: Record<string, string> = {};
		for (let i = 0; i < 50; i++) files[`d${i}/f.txt`] = "";
		writeTree(root, files);
		let seen = 0;
		for await (const _ of walkTree(root)) if (++seen === 3) break;
		expect(seen).toBe(3);
	});
});
