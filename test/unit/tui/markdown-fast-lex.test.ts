/**
 * The Markdown fast path must give exactly marked's tokens: every document it accepts (corpus, generated ones and
 * every prefix of streamed ones) is compared token for token, field for field, with marked's own lexer.
 */
import { describe, expect, test } from "bun:test";
import type { Token } from "marked";
import { fastLex } from "../../../src/tui/markdown/fast-lex.ts";
import { markdownParser } from "../../../src/tui/markdown/parser.ts";
import { MARKDOWN_CORPUS } from "../../support/markdown-corpus.ts";

function marked(source: string): Token[] {
	return [...markdownParser.lexer(source)];
}

/** Small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const BLOCKS = [
	"## Step 1",
	"# Title",
	"###### Deep *heading* with `code`",
	"## closed ##",
	"#no space",
	"# trailing  ",
	"Looked at **file1.ts** and found `value1`; the fix keeps the *public* names.",
	"Two lines\nof one paragraph",
	"Hard break  \nnext line",
	"A line ending in a space \nand more",
	"Prices $5 and $6, inline $x^2$ math and \\(a+b\\)",
	"Link [text](https://example.com) and <https://a.b> and www.example.com",
	"A [ref] link and ~~struck~~ and ~single~",
	"1. first\n2. second",
	"1) paren",
	"- read the module\n- change the branch\n- run the tests",
	"- one item",
	"- [ ] task\n- [x] done",
	"- item\n  continued",
	"- item\nlazy continuation",
	"* star item",
	"+ plus item",
	"- **bold** item with `code`",
	"- # heading item",
	"```ts\nexport function step(input: number): number {\n   return input * 2 + 1;\n}\n```",
	"```\nplain\n```",
	"```\n```",
	"```js\nunclosed",
	"```\ninner ```` fence\n```",
	"~~~\ntilde\n~~~",
	"```py\n\nblank inside\n\n```",
	"    indented code",
	"> quote",
	"---",
	"***",
	"Setext\n===",
	"Setext two\n---",
	"| a | b |\n|---|---|\n| 1 | 2 |",
	"a | b\n--- | ---",
	"$$\nx^2\n$$",
	"\\[ y \\]",
	"<div>html</div>",
	"[ref]: https://example.com",
	"   ",
	"Text with trailing hash #",
	"Ünïcode paragraph",
	"e.g. a sentence",
	"Plain (parenthesised) text, with: punctuation; and 'quotes' - dashes = signs + more?",
	"Mentions http and www. and ftp words, HTTP too",
	"Email me at a@b.co",
	"Word_with_underscores and snake_case",
	"Ampersand & entity &amp;",
	"Line one\nline two\nline three",
	"- plain item (one)\n- plain item: two",
	"## Plain heading 2",
	"a**b**c and **a** **b** then ***a*** and ** a** and **a ** end",
	"*a**b* and *a* *b*, word*em*word, (**x**) and **x**. and **x**, *y*: z",
	"`a` `` b `` and `a*b*` and ` c ` and `d`; `e`) and x`f`",
	"Looked at **file1.ts** and found `value1`; the fix keeps the *public* names.",
	"**Bold** start and `code` start\n*em* on a new line",
	"`unclosed code and **unclosed strong and *unclosed em",
	"**nested *em* inside** and *nested **strong** inside*",
	"- **bold** item with `code` and *em*",
	"## Heading with **bold** and `code`",
];
const GAPS = ["\n", "\n\n", "\n\n\n", "\n\n\n\n"];

function generated(count: number): string[] {
	const next = random(18);
	const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;
	const docs: string[] = [];
	for (let d = 0; d < count; d++) {
		let doc = next() < 0.1 ? pick(GAPS) : "";
		const blocks = 1 + Math.floor(next() * 5);
		for (let b = 0; b < blocks; b++) doc += (b > 0 ? pick(GAPS) : "") + pick(BLOCKS);
		if (next() < 0.3) doc += pick(GAPS);
		docs.push(doc);
	}
	return docs;
}

function check(docs: readonly string[]): number {
	let fast = 0;
	for (const doc of docs) {
		const tokens = fastLex(doc, markdownParser.defaults);
		if (!tokens) continue;
		fast++;
		expect({ doc, tokens }).toStrictEqual({ doc, tokens: marked(doc) });
	}
	return fast;
}

describe("Markdown fast lexing path", () => {
	test("corpus documents lex exactly as marked lexes them", () => {
		check(MARKDOWN_CORPUS.map((doc) => doc.replace(/\t/g, "   ")));
	});

	test("generated documents lex exactly as marked lexes them, and most plain ones take the fast path", () => {
		const docs = generated(4000);
		const fast = check(docs);
		expect(fast).toBeGreaterThan(200);
	});

	test("every prefix of a streamed answer lexes exactly as marked lexes it", () => {
		const answer = [
			"## Step 7",
			"",
			"Looked at **file7.ts** and found `value7`; the fix keeps the *public* names.",
			"",
			"- read the module",
			"- change the branch",
			"",
			"```ts",
			"export function step7(input: number): number {",
			"   return input * 7 + 1;",
			"}",
			"```",
			"",
			"Done.",
			"",
		].join("\n");
		const prefixes = Array.from({ length: answer.length }, (_, n) => answer.slice(0, n + 1));
		expect(check(prefixes)).toBeGreaterThan(answer.length / 2);
	});

	test("the transcript shapes of the benchmark take the fast path", () => {
		const doc = [
			"## Step 3",
			"",
			"Looked at **file3.ts** and found `value3`; the fix keeps the *public* names.",
			"",
			"- read the module",
			"- change the branch",
			"- run the tests",
			"",
			"```ts",
			"export function step3(input: number): number {",
			"   return input * 3 + 1;",
			"}",
			"```",
		].join("\n");
		expect(check([doc, "Streaming answer: token0 token1\n\ntoken2 token3"])).toBe(2);
	});
});
