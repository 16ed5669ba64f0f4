/**
 * A streamed assistant reply hands each revision to the same Markdown components: what it draws at every step is what
 * a fresh component draws for that revision, and the lexer reads only the reply's tail again.
 */
import { expect, test } from "bun:test";
import { AssistantMessageComponent } from "../../src/modes/interactive/components/index.ts";
import { initTheme } from "../../src/sdk/pi-coding-agent.ts";
import { lexStats } from "../../src/tui/markdown/parser.ts";

initTheme("dark");

const REPLY = Array.from(
	{ length: 30 },
	(_, i) => `Paragraph ${i} explains step ${i} of the plan in a few plain words.\n\n- item ${i}\n- item ${i + 1}`,
).join("\n\n");
const THINKING = "First I look at the files. Then I decide what to change.";

const message = (text: string, thinking = THINKING) => ({
	content: [
		{ type: "thinking", thinking },
		{ type: "text", text },
	],
});

test("each streamed revision draws as a fresh component would, lexing only the tail", () => {
	const live = new AssistantMessageComponent(undefined, false);
	let lexed = 0;
	let length = 0;
	for (let end = 40; end < REPLY.length + 40; end += 40) {
		const text = REPLY.slice(0, end);
		live.updateContent(message(text), true);
		const before = lexStats.characters;
		const lines = live.render(60);
		lexed += lexStats.characters - before;
		length += text.length;
		const fresh = new AssistantMessageComponent(undefined, false);
		fresh.updateContent(message(text), true);
		expect(lines).toEqual(fresh.render(60));
	}
	// Far less than lexing every revision in full.
	expect(lexed).toBeLessThan(length / 5);
	// The end of the stream, a resize and hiding thinking still draw as a fresh component does.
	live.updateContent(message(REPLY), false);
	const done = new AssistantMessageComponent(message(REPLY), false);
	expect(live.render(60)).toEqual(done.render(60));
	expect(live.render(33)).toEqual(done.render(33));
	live.setHideThinkingBlock(true);
	done.setHideThinkingBlock(true);
	expect(live.render(60)).toEqual(done.render(60));
});

test("a revision that rewrites earlier text (not an extension) still draws it", () => {
	const live = new AssistantMessageComponent(undefined, false);
	live.updateContent(message("First version of the answer."), true);
	live.render(50);
	live.updateContent(message("Second, different answer.", "Rethinking."), true);
	const fresh = new AssistantMessageComponent(undefined, false);
	fresh.updateContent(message("Second, different answer.", "Rethinking."), true);
	expect(live.render(50)).toEqual(fresh.render(50));
});
