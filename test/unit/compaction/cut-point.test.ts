import { describe, expect, test } from "bun:test";
import { findCutPoint, isCutPoint } from "../../../src/compaction/index.ts";
import { Branch, text } from "./helpers.ts";

describe("findCutPoint", () => {
	test("cuts at a user message once keepRecentTokens are reached", () => {
		const b = new Branch();
		b.user(text(100)); // e0
		b.assistant(text(100)); // e1
		b.user(text(100)); // e2
		b.assistant(text(100)); // e3
		b.user(text(100)); // e4
		b.assistant(text(100)); // e5
		const cut = findCutPoint(b.entries, 0, b.entries.length, 200);
		expect(cut).toEqual({ firstKeptEntryIndex: 4, turnStartIndex: -1, isSplitTurn: false });
	});

	test("never cuts at a tool result", () => {
		const b = new Branch();
		b.user(text(10)); // e0
		b.assistant("", [{ id: "c1", name: "read", args: { path: "a" } }]); // e1
		b.tool("c1", text(500)); // e2 — budget reached here
		b.assistant(text(10)); // e3
		for (let keep = 1; keep <= 600; keep += 7) {
			const cut = findCutPoint(b.entries, 0, b.entries.length, keep);
			const kept = b.entries[cut.firstKeptEntryIndex]!;
			expect(isCutPoint(kept)).toBe(true);
			expect(kept.type === "message" && kept.message.role).not.toBe("toolResult");
		}
		// when only the tool result and what follows would fit, the cut moves back to its tool call
		const cut = findCutPoint(b.entries, 0, b.entries.length, 100);
		expect(cut.firstKeptEntryIndex).toBe(3);
		const tight = findCutPoint(b.entries, 0, b.entries.length, 300);
		expect(tight.firstKeptEntryIndex).toBe(3);
	});

	test("a newest tool result over budget moves the cut to the nearest cut point before it", () => {
		const b = new Branch();
		b.user(text(10)); // e0
		b.assistant("", [{ id: "c1", name: "read", args: { path: "a" } }]); // e1
		b.tool("c1", text(500)); // e2
		const cut = findCutPoint(b.entries, 0, b.entries.length, 100);
		expect(cut).toEqual({ firstKeptEntryIndex: 1, turnStartIndex: 0, isSplitTurn: true });
	});

	test("detects a split turn", () => {
		const b = new Branch();
		b.user(text(10)); // e0
		b.assistant("", [{ id: "c1", name: "read", args: { path: "a" } }]); // e1
		b.tool("c1", text(300)); // e2
		b.assistant("", [{ id: "c2", name: "read", args: { path: "b" } }]); // e3
		b.tool("c2", text(300)); // e4
		b.assistant(text(50)); // e5
		const cut = findCutPoint(b.entries, 0, b.entries.length, 400);
		expect(cut).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 0, isSplitTurn: true });
	});

	test("metadata entries just before the cut are kept with it (and, as in pi 0.87.1, make the cut mid-turn)", () => {
		const b = new Branch();
		b.user(text(100)); // e0
		b.assistant(text(100)); // e1
		b.modelChange(); // e2
		b.msg({ role: "user", content: text(100), timestamp: 1 }); // e3
		b.assistant(text(100)); // e4
		const cut = findCutPoint(b.entries, 0, b.entries.length, 200);
		// pi checks the turn start at the first kept entry, the model change: the turn of e0 counts as split.
		expect(cut).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: 0, isSplitTurn: true });
	});

	test("metadata before a split-turn cut is kept and the turn start is still found", () => {
		const b = new Branch();
		b.user(text(10)); // e0
		b.assistant(text(300)); // e1
		b.modelChange(); // e2
		b.assistant(text(300)); // e3
		const cut = findCutPoint(b.entries, 0, b.entries.length, 300);
		expect(cut).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: 0, isSplitTurn: true });
	});

	test("keeps everything when the budget is never reached; startIndex without cut points", () => {
		const b = new Branch();
		b.modelChange(); // e0
		b.user("hi"); // e1
		b.assistant("hello"); // e2
		expect(findCutPoint(b.entries, 0, 3, 1000).firstKeptEntryIndex).toBe(0);
		expect(findCutPoint(b.entries, 0, 1, 1000)).toEqual({
			firstKeptEntryIndex: 0,
			turnStartIndex: -1,
			isSplitTurn: false,
		});
	});

	test("custom_message and branch_summary entries are turn starts", () => {
		const b = new Branch();
		b.user(text(100)); // e0
		b.assistant(text(100)); // e1
		b.entries.push({
			type: "custom_message",
			id: "cm",
			parentId: "e1",
			timestamp: "2025-01-01T00:00:00.000Z",
			customType: "note",
			content: text(100),
			display: true,
		});
		b.assistant(text(100)); // e3
		const cut = findCutPoint(b.entries, 0, b.entries.length, 200);
		expect(cut).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: -1, isSplitTurn: false });
	});
});
