import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync } from "node:fs";
import { getCurrentSystemPrompt, getCurrentTools } from "../../../src/ai/index.ts";
import {
	buildSessionContext,
	type CompactionEntry,
	SessionManager,
	type SystemMessage,
} from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, tempDir, textOf, toolCallAssistant, toolResult, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

const roles = (m: SessionManager) => m.buildSessionContext().messages.map((x) => x.role);
const texts = (m: SessionManager) => m.buildSessionContext().messages.map((x) => textOf(x as never));

describe("settings in effect", () => {
	test("defaults: thinking off, no model", () => {
		const m = SessionManager.inMemory("/p");
		expect(m.buildSessionContext()).toEqual({ messages: [], thinkingLevel: "off", model: null });
	});

	test("latest thinking change and latest model change or assistant message on the branch win", () => {
		const m = SessionManager.inMemory("/p");
		m.appendThinkingLevelChange("low");
		m.appendMessage(user("q"));
		m.appendMessage(assistant("a", "gpt-4o", "openai"));
		expect(m.buildSessionContext().model).toEqual({ provider: "openai", modelId: "gpt-4o" });
		const fork = m.appendModelChange("anthropic", "claude-opus-4-5");
		m.appendThinkingLevelChange("high");
		expect(m.buildSessionContext()).toMatchObject({
			thinkingLevel: "high",
			model: { provider: "anthropic", modelId: "claude-opus-4-5" },
		});
		m.appendMessage(user("q2"));
		m.appendMessage(assistant("a2", "claude-sonnet-4-5"));
		expect(m.buildSessionContext().model?.modelId).toBe("claude-sonnet-4-5");
		m.branch(fork);
		expect(m.buildSessionContext()).toMatchObject({ thinkingLevel: "low", model: { modelId: "claude-opus-4-5" } });
	});
});

describe("messages", () => {
	test("stored messages in branch order; state entries never reach the LLM", () => {
		const m = SessionManager.inMemory("/p");
		m.appendMessage(user("q"));
		m.appendMessage(toolCallAssistant("c1"));
		m.appendMessage(toolResult("c1", "out"));
		m.appendCustomEntry("ext", { state: 1 });
		m.appendLabelChange(m.getLeafId()!, "mark");
		m.appendSessionInfo("name");
		m.appendUsage("cache_warm", "anthropic", "m", {
			input: 0,
			output: 0,
			cacheRead: 1,
			cacheWrite: 0,
			totalTokens: 1,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		});
		m.appendModelChange("openai", "gpt-4o");
		m.appendThinkingLevelChange("high");
		m.appendMessage(assistant("done"));
		expect(roles(m)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(m.buildSessionContext().messages[0]).toBe((m.getEntries()[0] as unknown as { message: never }).message);
	});

	test("custom_message entries become custom messages (details kept, not sent); custom roles pass through", () => {
		const m = SessionManager.inMemory("/p");
		m.appendMessage(user("q"));
		const id = m.appendCustomMessageEntry("my-ext", "Injected", true, { note: 1 });
		m.appendMessage({ role: "custom", customType: "x", content: "as message", display: false, timestamp: 5 });
		const messages = m.buildSessionContext().messages;
		const entry = m.getEntry(id)!;
		expect(messages[1]).toEqual({
			role: "custom",
			customType: "my-ext",
			content: "Injected",
			display: true,
			details: { note: 1 },
			timestamp: Date.parse(entry.timestamp),
		});
		expect(messages[2]).toMatchObject({ role: "custom", content: "as message" });
	});

	test("branch summaries become branchSummary messages on the branch that holds them", () => {
		const m = SessionManager.inMemory("/p");
		m.appendMessage(user("q"));
		const a = m.appendMessage(assistant("a"));
		m.appendMessage(user("abandoned"));
		const old = m.appendMessage(assistant("abandoned!"));
		const s = m.branchWithSummary(a, "we tried X");
		m.appendMessage(user("new"));
		const ctx = m.buildSessionContext().messages;
		expect(ctx.map((x) => x.role)).toEqual(["user", "assistant", "branchSummary", "user"]);
		expect(ctx[2]).toEqual({
			role: "branchSummary",
			summary: "we tried X",
			fromId: old,
			timestamp: Date.parse(m.getEntry(s)!.timestamp),
		});
		m.branch(old);
		expect(texts(m)).toEqual(["q", "a", "abandoned", "abandoned!"]);
	});
});

describe("compaction", () => {
	function compacted() {
		const m = SessionManager.inMemory("/p");
		m.appendMessage(user("u1"));
		m.appendMessage(assistant("a1"));
		const u2 = m.appendMessage(user("u2"));
		m.appendMessage(assistant("a2"));
		return { m, u2 };
	}

	test("summary first, then kept entries from firstKeptEntryId, then entries after", () => {
		const { m, u2 } = compacted();
		const c = m.appendCompaction("SUMMARY", u2, 12345);
		m.appendMessage(user("u3"));
		const ctx = m.buildSessionContext().messages;
		expect(ctx[0]).toEqual({
			role: "compactionSummary",
			summary: "SUMMARY",
			tokensBefore: 12345,
			timestamp: Date.parse(m.getEntry(c)!.timestamp),
		});
		expect(texts(m)).toEqual(["SUMMARY", "u2", "a2", "u3"]);
		expect(m.buildContextEntries().map((e) => e.type)).toEqual(["compaction", "message", "message", "message"]);
		expect(m.getBranch()).toHaveLength(6);
	});

	test("the latest compaction wins; older summaries are dropped", () => {
		const { m, u2 } = compacted();
		m.appendCompaction("OLD", u2, 1);
		const u3 = m.appendMessage(user("u3"));
		m.appendMessage(assistant("a3"));
		m.appendCompaction("NEW", u3, 2);
		expect(texts(m)).toEqual(["NEW", "u3", "a3"]);
	});

	test("retain-none keeps nothing before the compaction", () => {
		const { m } = compacted();
		m.appendCompaction("ALL", null, 1);
		m.appendMessage(user("after"));
		expect(texts(m)).toEqual(["ALL", "after"]);
	});

	test("a compaction on another branch does not apply", () => {
		const { m, u2 } = compacted();
		const leaf = m.getLeafId()!;
		m.appendCompaction("S", u2, 1);
		m.branch(leaf);
		expect(texts(m)).toEqual(["u1", "a1", "u2", "a2"]);
	});
});

describe("context edits", () => {
	test("null omits, replacements change only content, latest wins, raw entries untouched", () => {
		const m = SessionManager.inMemory("/p");
		const u1 = m.appendMessage(user("secret key"));
		const a1 = m.appendMessage(assistant("long answer"));
		const c1 = m.appendCustomMessageEntry("ext", "ctx", true);
		m.appendMessage(user("u2"));
		m.appendContextEdit(u1, { content: "first edit" });
		m.appendContextEdit(u1, { content: "[redacted]" });
		m.appendContextEdit(a1, { content: "short" });
		m.appendContextEdit(c1, null);
		const ctx = m.buildSessionContext().messages;
		expect(ctx.map((x) => x.role)).toEqual(["user", "assistant", "user"]);
		expect(ctx[0]).toMatchObject({ role: "user", content: "[redacted]", timestamp: 1_700_000_000_000 });
		expect(ctx[1]).toMatchObject({
			role: "assistant",
			content: [{ type: "text", text: "short" }],
			model: "claude-sonnet-4-5",
		});
		expect((m.getEntry(u1) as { message: { content: string } }).message.content).toBe("secret key");
		const projection = m.buildSessionProjection();
		expect(projection.entries.find((p) => p.sourceEntry.id === c1)?.messages).toEqual([]);
	});

	test("edits are branch-relative", () => {
		const m = SessionManager.inMemory("/p");
		const u1 = m.appendMessage(user("original"));
		const a1 = m.appendMessage(assistant("a"));
		m.appendContextEdit(u1, null);
		expect(texts(m)).toEqual(["a"]);
		m.branch(a1);
		expect(texts(m)).toEqual(["original", "a"]);
	});
});

describe("system messages (newer pi)", () => {
	const sys = (fields: Partial<SystemMessage>): SystemMessage => ({
		role: "system",
		content: "",
		timestamp: 1,
		...fields,
	});

	test("stay in the messages in order; replaying them gives the prompt and tools", () => {
		const m = SessionManager.inMemory("/p");
		m.appendMessage(
			sys({
				sections: { preamble: "You are pi.", tools: "<tools/>" },
				toolsAdded: [
					{ name: "read", description: "r", parameters: {} as never },
					{ name: "write", description: "w", parameters: {} as never },
				],
			}),
		);
		m.appendMessage(user("q"));
		m.appendMessage(sys({ sections: { tools: null, skills: "<skills/>" }, toolsRemoved: [{ name: "write" }] }));
		m.appendMessage(sys({ content: "Be brief." }));
		const ctx = m.buildSessionContext();
		expect(ctx.messages.map((x) => x.role)).toEqual(["system", "user", "system", "system"]);
		expect(getCurrentSystemPrompt(ctx.messages)).toBe("Be brief.\n\nYou are pi.\n\n<skills/>");
		expect(getCurrentTools(ctx.messages).map((t) => t.name)).toEqual(["read"]);
	});

	test("a compaction's systemMessage is the checkpoint; kept system messages are dropped in its favor", () => {
		const m = SessionManager.inMemory("/p");
		const u1 = m.appendMessage(user("u1"));
		const before = m.appendMessage(sys({ sections: { old: "pre-compaction" } }));
		m.appendMessage(assistant("a1"));
		const checkpoint = sys({ content: "Checkpoint prompt.", toolsAdded: [{ name: "bash" } as never] });
		m.appendCompaction("S", u1, 1, undefined, undefined, undefined, checkpoint);
		m.appendMessage(sys({ sections: { later: "added after" } }));
		const ctx = m.buildSessionContext();
		expect(ctx.messages.map((x) => x.role)).toEqual(["system", "compactionSummary", "user", "assistant", "system"]);
		expect(getCurrentSystemPrompt(ctx.messages)).toBe("Checkpoint prompt.\n\nadded after");
		expect(getCurrentTools(ctx.messages)).toEqual([{ name: "bash" } as never]);
		const selected = m.buildContextEntries().map((e) => e.id);
		expect(selected).not.toContain(before);
		expect(selected).toContain(u1);
	});

	test("without a checkpoint given, a compaction records the replayed prompt and tools at its own time", () => {
		const m = SessionManager.inMemory("/p");
		m.appendMessage(
			sys({ sections: { preamble: "P", cwd: "<cwd>/p</cwd>" }, toolsAdded: [{ name: "read" } as never] }),
		);
		const u1 = m.appendMessage(user("u1"));
		m.appendMessage(assistant("a1"));
		m.appendMessage(sys({ sections: { cwd: null } }));
		const id = m.appendCompaction("S", u1, 1);
		const entry = m.getEntry(id) as CompactionEntry;
		expect(entry.systemMessage).toEqual({
			role: "system",
			content: "",
			sections: { preamble: "P" },
			toolsAdded: [{ name: "read" } as never],
			timestamp: Date.parse(entry.timestamp),
		});
	});
});

describe("files and foreign entries", () => {
	test("a reopened (lazily parsed) file builds the same context as memory did", () => {
		const dir = tempDir();
		const m = SessionManager.create("/p", dir);
		m.appendMessage(user("u1"));
		m.appendMessage(toolCallAssistant("c"));
		m.appendMessage(toolResult("c", "r"));
		const u2 = m.appendMessage(user("u2"));
		m.appendMessage(assistant("a2"));
		m.appendCompaction("S", u2, 9);
		m.appendMessage(user("u3"));
		const expected = JSON.parse(JSON.stringify(m.buildSessionContext()));
		m.close();
		const again = SessionManager.open(m.getSessionFile()!);
		expect(again.buildSessionContext()).toEqual(expected);
		expect(buildSessionContext(again.getEntries())).toEqual(expected);
		again.close();
	});

	test("entries of unknown types are kept in the tree and the file, never in context", () => {
		const dir = tempDir();
		const m = SessionManager.create("/p", dir);
		m.appendMessage(user("u1"));
		const a1 = m.appendMessage(assistant("a1"));
		m.close();
		const future = { type: "future_thing", id: "f0f0f0f0", parentId: a1, timestamp: new Date().toISOString(), x: [1] };
		appendFileSync(m.getSessionFile()!, `${JSON.stringify(future)}\n`);
		const again = SessionManager.open(m.getSessionFile()!);
		expect(again.getEntry("f0f0f0f0")).toEqual(future as never);
		expect(again.getLeafId()).toBe("f0f0f0f0");
		again.appendMessage(user("u2"));
		expect(texts(again)).toEqual(["u1", "a1", "u2"]);
		const fork = again.forkToNewFile()!;
		expect(readFileSync(fork, "utf8")).toContain(JSON.stringify(future));
		expect(again.getDiagnostics()).toEqual([]);
		again.close();
	});
});
