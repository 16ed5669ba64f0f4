/**
 * The chat transcript freezes finished messages into chunks (src/modes/interactive/transcript/frozen-chunks.ts):
 * what it draws must stay exactly what its children draw, while old settled children are no longer asked to render.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { CHUNK, GROUP, TAIL } from "../../src/modes/interactive/transcript/frozen-chunks.ts";
import type { Component } from "../../src/tui/index.ts";
import { type MountedTranscript, mountTranscript } from "../helpers/chat-transcript.ts";

/** A settled message whose text can change behind the transcript's back (it then says so, as a tool renderer does). */
class Probe implements Component {
	renders = 0;
	onSettledChange: (() => void) | undefined;
	expanded = false;
	constructor(
		public text: string,
		public settled = true,
	) {}
	isSettled(): boolean {
		return this.settled;
	}
	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
	}
	invalidate(): void {}
	render(width: number): string[] {
		this.renders++;
		const text = `${this.text}${this.expanded ? " (expanded)" : ""}`;
		const lines: string[] = [];
		for (let i = 0; i < text.length; i += width) lines.push(text.slice(i, i + width));
		return lines.length > 0 ? lines : [""];
	}
	change(text: string): void {
		this.text = text;
		this.onSettledChange?.();
	}
}

let mounted: MountedTranscript | undefined;
afterEach(() => {
	mounted?.dispose();
	mounted = undefined;
});

function transcriptOf(probes: Probe[]) {
	mounted = mountTranscript({ cwd: process.cwd() }, 40, 10);
	for (const probe of probes) mounted.transcript.addChild(probe);
	return mounted.transcript;
}

const expected = (children: readonly Component[], width: number) => children.flatMap((child) => child.render(width));
const probes = (count: number, prefix = "message") =>
	Array.from({ length: count }, (_, i) => new Probe(`${prefix} ${i} ${"word ".repeat(i % 7)}`));

describe("frozen transcript chunks", () => {
	test("draws what its children draw, and stops asking old settled children", () => {
		const children = probes(CHUNK * 4 + 5);
		const chat = transcriptOf(children);
		expect(chat.render(40)).toEqual(expected(children, 40));
		const before = children.map((child) => child.renders);
		chat.render(40);
		chat.render(40);
		const frozen = children.slice(0, CHUNK * 3);
		expect(frozen.every((child, i) => child.renders === before[i])).toBe(true);
		// The tail is always asked again.
		const last = children.at(-1) as Probe;
		expect(last.renders).toBeGreaterThan(before.at(-1) as number);
		expect(chat.render(40)).toEqual(expected(children, 40));
	});

	test("a change deep in an old message shows once the message says so", () => {
		const children = probes(CHUNK * 4);
		const chat = transcriptOf(children);
		chat.render(40);
		const old = children[3] as Probe;
		old.text = "changed silently";
		// Frozen: a change the message does not report is not looked for (as a finished tool call caches its lines).
		expect(chat.render(40).join("\n")).not.toContain("changed silently");
		old.change("changed and reported");
		expect(chat.render(40)).toEqual(expected(children, 40));
		expect(chat.render(40).join("\n")).toContain("changed and reported");
	});

	test("expanding tool output, a theme change and a width change draw every message again", () => {
		const children = probes(CHUNK * 3);
		const chat = transcriptOf(children);
		chat.render(40);
		chat.setToolsExpanded(true);
		expect(chat.render(40)).toEqual(expected(children, 40));
		expect(children.every((child) => child.expanded)).toBe(true);
		expect(chat.render(40).join("")).toContain(`${(children[0] as Probe).text} (expanded)`);
		(children[0] as Probe).text = "after a theme change";
		chat.invalidate();
		expect(chat.render(40)[0]).toContain("after a theme change");
		// Resize re-wraps old messages too.
		expect(chat.render(17)).toEqual(expected(children, 17));
		expect(chat.render(40)).toEqual(expected(children, 40));
	});

	test("removing or inserting a message before frozen chunks shifts them correctly", () => {
		const children = probes(CHUNK * 4);
		const chat = transcriptOf(children);
		chat.render(40);
		chat.removeChild(children[5] as Probe);
		expect(chat.render(40)).toEqual(expected(chat.children, 40));
		chat.children.splice(2, 0, new Probe("inserted directly"));
		expect(chat.render(40)).toEqual(expected(chat.children, 40));
		chat.clear();
		expect(chat.render(40)).toEqual([]);
	});

	test("a chunk holding a message that is still live is rendered every frame", () => {
		const children = probes(CHUNK * 3);
		const live = children[1] as Probe;
		live.settled = false;
		const chat = transcriptOf(children);
		chat.render(40);
		live.text = "streamed on";
		expect(chat.render(40)).toEqual(expected(children, 40));
		live.settled = true;
		chat.render(40);
		const renders = live.renders;
		chat.render(40);
		expect(live.renders).toBe(renders);
		expect(children.length - CHUNK).toBeGreaterThan(TAIL);
	});

	test("the screen shows the frozen chunks and updates only what changed", async () => {
		const children = probes(CHUNK * 3);
		const chat = transcriptOf(children);
		const m = mounted as MountedTranscript;
		const first = await m.screen();
		expect(first.at(-1)).toBe((expected(children, 40).at(-1) as string).trimEnd());
		const written = m.term.written.length;
		chat.addChild(new Probe("one more line"));
		const next = await m.screen();
		expect(next.at(-1)).toBe("one more line");
		// Only the new row is written, not the transcript again.
		expect(m.term.written.length - written).toBeLessThan(200);
		expect(m.tui.fullRedraws).toBe(0);
	});
});

test("toggling one thinking run of an old assistant message shows in a frozen chunk", async () => {
	const { AssistantMessageComponent } = await import("../../src/modes/interactive/components/index.ts");
	mounted = mountTranscript({ cwd: process.cwd() }, 40, 10);
	const chat = mounted.transcript;
	const old = new AssistantMessageComponent({
		content: [
			{ type: "thinking", thinking: "secret plan" },
			{ type: "text", text: "answer" },
		],
	});
	chat.addChild(old);
	for (const probe of probes(CHUNK * 2)) chat.addChild(probe);
	expect(chat.render(40).join("\n")).toContain("secret plan");
	old.toggleThinkingRun(0);
	expect(chat.render(40).join("\n")).not.toContain("secret plan");
	expect(chat.render(40)).toEqual(expected(chat.children, 40));
});

test("a long transcript is joined into segments of chunks, and a change in one still shows", () => {
	const children = probes(CHUNK * GROUP * 2 + CHUNK * 3 + TAIL + 4);
	const chat = transcriptOf(children);
	expect(chat.render(40)).toEqual(expected(children, 40));
	// Two segments, three frozen chunks, then the last children one by one.
	expect(chat.renderBlocks(40).length).toBe(2 + 3 + TAIL + 4);
	const before = children.map((child) => child.renders);
	chat.render(40);
	expect(children.slice(0, CHUNK * GROUP * 2).every((child, i) => child.renders === before[i])).toBe(true);
	(children[CHUNK * GROUP + 7] as Probe).change("changed in the second segment");
	expect(chat.render(40)).toEqual(expected(children, 40));
	chat.removeChild(children[10] as Probe);
	expect(chat.render(40)).toEqual(expected(chat.children, 40));
	expect(chat.render(23)).toEqual(expected(chat.children, 23));
	chat.setToolsExpanded(true);
	expect(chat.render(40)).toEqual(expected(chat.children, 40));
});
