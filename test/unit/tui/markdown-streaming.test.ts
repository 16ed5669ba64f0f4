/**
 * Streaming into a Markdown component (each `setText` extends the previous text) lexes and renders only the last
 * block again, and gives exactly what a fresh component gives for the same text.
 */
import { describe, expect, test } from "bun:test";
import { Markdown, type MarkdownTheme } from "../../../src/tui/index.ts";
import { blockStats } from "../../../src/tui/markdown/blocks.ts";
import { framingStats } from "../../../src/tui/markdown/component.ts";
import { lexStats } from "../../../src/tui/markdown/parser.ts";
import { MARKDOWN_CORPUS } from "../../support/markdown-corpus.ts";

const id = (text: string) => text;
const theme: MarkdownTheme = {
	heading: id,
	link: id,
	linkUrl: id,
	code: id,
	codeBlock: id,
	codeBlockBorder: id,
	quote: id,
	quoteBorder: id,
	hr: id,
	listBullet: id,
	bold: (text) => `\x1b[1m${text}\x1b[22m`,
	italic: id,
	strikethrough: id,
	underline: id,
};

const fresh = (text: string, width: number) => new Markdown(text, 1, 0, theme).render(width);

describe("Markdown streaming", () => {
	test("appending to a long message re-renders and re-lexes only the tail block", () => {
		const paragraphs = Array.from({ length: 200 }, (_, n) => `Paragraph ${n} with **bold** text and more words.`);
		const md = new Markdown(paragraphs.join("\n\n"), 1, 0, theme);
		md.render(80);
		let text = paragraphs.join("\n\n");
		const before = { renders: blockStats.renders, lexed: lexStats.characters };
		for (const chunk of ["\n\nThe tail", " grows", " word", " by word."]) {
			text += chunk;
			md.setText(text);
			md.render(80);
		}
		const renders = blockStats.renders - before.renders;
		const lexed = lexStats.characters - before.lexed;
		// Four updates: each renders the new last paragraph (and at most the block before it), never the 200 others.
		expect(renders).toBeLessThanOrEqual(4 * 2);
		expect(lexed).toBeLessThan(4 * 200);
		expect(md.render(80)).toEqual(fresh(text, 80));
	});

	test("a streamed list or code block wraps only its changed lines again", () => {
		for (const head of ["- item", "```ts\nconst item"]) {
			let text = "";
			for (let n = 0; n < 40; n++)
				text += `${n === 0 ? head : head.replace("```ts\n", "")} ${n} with a few words of text\n`;
			const md = new Markdown(text, 1, 0, theme);
			md.render(50);
			const before = framingStats.lines;
			for (const chunk of ["and", " one", " more", " word"]) {
				text += chunk;
				md.setText(text);
				md.render(50);
			}
			// Each step frames the growing last line (and at most one neighbour whose style depends on it), not all 40.
			expect(framingStats.lines - before).toBeLessThanOrEqual(4 * 2);
			expect(md.render(50)).toEqual(fresh(text, 50));
			md.render(30);
			expect(md.render(30)).toEqual(fresh(text, 30));
		}
	});

	test("a width change renders every block again, then caches", () => {
		const md = new Markdown("# A\n\nB\n\n- c", 0, 0, theme);
		md.render(40);
		const before = blockStats.renders;
		md.render(50);
		const after = blockStats.renders;
		expect(after).toBeGreaterThan(before);
		md.render(50);
		expect(blockStats.renders).toBe(after);
	});

	test("streamed corpus documents end as fresh renders do, at every step", () => {
		const mismatches: string[] = [];
		for (const doc of MARKDOWN_CORPUS) {
			const md = new Markdown("", 1, 0, theme);
			for (let end = 1; end <= doc.length; end += 7) {
				const text = doc.slice(0, end);
				md.setText(text);
				if (JSON.stringify(md.render(60)) !== JSON.stringify(fresh(text, 60))) {
					mismatches.push(JSON.stringify(text));
					break;
				}
			}
			md.setText(doc);
			if (JSON.stringify(md.render(60)) !== JSON.stringify(fresh(doc, 60))) mismatches.push(JSON.stringify(doc));
		}
		expect(mismatches).toEqual([]);
	});

	test("an edit that is not an append (or adds a link definition) lexes the whole text again", () => {
		const md = new Markdown("[a][r] one\n\ntwo\n\nthree", 1, 0, theme);
		md.render(40);
		md.setText("[a][r] one\n\ntwo\n\nthree\n\n[r]: https://r.example");
		expect(md.render(40)).toEqual(fresh("[a][r] one\n\ntwo\n\nthree\n\n[r]: https://r.example", 40));
		md.setText("changed\n\ntwo");
		expect(md.render(40)).toEqual(fresh("changed\n\ntwo", 40));
	});
});
