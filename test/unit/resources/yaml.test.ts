import { describe, expect, test } from "bun:test";
import { parseFrontmatter, parseYaml, stripFrontmatter, YamlError } from "../../../src/resources/index.ts";

describe("YAML subset", () => {
	test("mappings, nesting, scalars of the core schema", () => {
		expect(
			parseYaml(
				"a: text\nb: 12\nc: -1.5\nd: true\ne: False\nf: ~\ng: null\nh:\nnested:\n  x: 1\n  deeper:\n    y: two\n",
			),
		).toEqual({
			a: "text",
			b: 12,
			c: -1.5,
			d: true,
			e: false,
			f: null,
			g: null,
			h: null,
			nested: { x: 1, deeper: { y: "two" } },
		});
	});

	test("plain values over several lines fold into one line; comments are dropped", () => {
		expect(
			parseYaml("description: first part\n  second part # note\n\n  after blank\nnext: 1 # c\n# whole line\n"),
		).toEqual({
			description: "first part second part\nafter blank",
			next: 1,
		});
	});

	test("quoted strings: single with '' escape, double with backslash escapes, quoted keys", () => {
		expect(parseYaml(`a: 'it''s: fine'\nb: "tab\\tq\\"\\u00e9"\n"c d": 'x'\n`)).toEqual({
			a: "it's: fine",
			b: 'tab\tq"é',
			"c d": "x",
		});
	});

	test("block sequences, sequences of mappings, nested sequences, same-indent sequences", () => {
		expect(parseYaml("a:\n  - 1\n  - two\nb:\n- x\n- k: v\n  l: w\n- - p\n  - q\n")).toEqual({
			a: [1, "two"],
			b: ["x", { k: "v", l: "w" }, ["p", "q"]],
		});
	});

	test("flow collections, also over several lines", () => {
		expect(parseYaml('a: [x, "y, z", 3]\nb: {k: v, n: [1, 2]}\nc: [one,\n  two]\nd: []\ne: {}\n')).toEqual({
			a: ["x", "y, z", 3],
			b: { k: "v", n: [1, 2] },
			c: ["one", "two"],
			d: [],
			e: {},
		});
	});

	test("literal and folded block scalars with chomping", () => {
		const src =
			"lit: |\n  one\n    two\n\n  three\nfold: >\n  a\n  b\n\n  c\nstrip: |-\n  s\nkeep: |+\n  k\n\nend: 1\n";
		expect(parseYaml(src)).toEqual({
			lit: "one\n  two\n\nthree\n",
			fold: "a b\nc\n",
			strip: "s",
			keep: "k\n\n",
			end: 1,
		});
	});

	test("malformed input throws a YamlError naming the line", () => {
		const bad: [string, RegExp][] = [
			["a: 1\na: 2", /line 2: duplicate key "a"/],
			["a:\n  b: 1\n c: 2", /line 3: unexpected indentation/],
			['a: "open', /line 1: unterminated quoted string/],
			["a: [1, 2", /line 1: unterminated flow sequence|expected/],
			["description: Use when: never", /line 1: a plain value may not contain ": "/],
			["a: *ref", /aliases/],
			["\tx: 1", /tabs/],
			["just text\nb: 1", /line 1: a plain value|line 2/],
		];
		for (const [src, message] of bad) {
			expect(() => parseYaml(src)).toThrow(YamlError);
			expect(() => parseYaml(src)).toThrow(message);
		}
	});
});

describe("frontmatter", () => {
	test("splits header and body; CRLF and BOM are normalised", () => {
		const text = "\ufeff---\r\nname: x\r\ndescription: y\r\n---\r\n\r\n# Body\r\nline\r\n";
		expect(parseFrontmatter(text)).toEqual({ frontmatter: { name: "x", description: "y" }, body: "# Body\nline" });
	});

	test("no header → {} and the whole text; an empty header → {}", () => {
		expect(parseFrontmatter("# Title\nbody")).toEqual({ frontmatter: {}, body: "# Title\nbody" });
		expect(parseFrontmatter("---\n---\nbody")).toEqual({ frontmatter: {}, body: "body" });
		expect(parseFrontmatter("---\nname: x\nno end")).toEqual({ frontmatter: {}, body: "---\nname: x\nno end" });
	});

	test("a header that is not a mapping or not valid YAML throws; stripFrontmatter never does", () => {
		expect(() => parseFrontmatter("---\n- a\n---\nbody")).toThrow("mapping");
		expect(() => parseFrontmatter("---\na: 1\na: 2\n---\nbody")).toThrow(YamlError);
		expect(stripFrontmatter("---\na: 1\na: 2\n---\nbody")).toBe("body");
	});
});
