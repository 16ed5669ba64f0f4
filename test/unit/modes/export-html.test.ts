import { describe, expect, test } from "bun:test";
import { renderSessionHtml } from "../../../src/modes/index.ts";
import type { SessionEntry } from "../../../src/session/index.ts";

const at = "2026-01-01T00:00:00.000Z";
let n = 0;
function entry(parentId: string | null, fields: Record<string, unknown>): SessionEntry {
	n++;
	return { id: `e${n}`, parentId, timestamp: at, ...fields } as unknown as SessionEntry;
}

describe("renderSessionHtml", () => {
	test("the active branch as static, escaped HTML: messages, thinking, tools, images, bash, summaries", () => {
		const user = entry(null, {
			type: "message",
			message: { role: "user", content: "<script>alert(1)</script>", timestamp: 1 },
		});
		const abandoned = entry(user.id, {
			type: "message",
			message: {
				role: "assistant",
				content: [{ type: "text", text: "ABANDONED" }],
				provider: "p",
				model: "m",
				timestamp: 2,
			},
		});
		const assistant = entry(user.id, {
			type: "message",
			message: {
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "pondering" },
					{ type: "text", text: "Let me look" },
					{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a&b.txt" } },
				],
				provider: "mock",
				model: "mock-1",
				usage: { input: 10, output: 5 },
				stopReason: "toolUse",
				timestamp: 3,
			},
		});
		const result = entry(assistant.id, {
			type: "message",
			message: {
				role: "toolResult",
				toolCallId: "c1",
				toolName: "read",
				isError: true,
				content: [
					{ type: "text", text: "no such file" },
					{ type: "image", data: "AAAA", mimeType: 'image/png" onerror="x' },
				],
				timestamp: 4,
			},
		});
		const bash = entry(result.id, {
			type: "message",
			message: {
				role: "bashExecution",
				command: "ls",
				output: "x.txt",
				exitCode: 0,
				cancelled: false,
				truncated: false,
				timestamp: 5,
			},
		});
		const hidden = entry(bash.id, { type: "custom_message", customType: "note", content: "HIDDEN", display: false });
		const compaction = entry(hidden.id, {
			type: "compaction",
			summary: "## Goal",
			firstKeptEntryId: user.id,
			tokensBefore: 42,
		});
		const model = entry(compaction.id, { type: "model_change", provider: "mock", modelId: "mock-2" });
		const name = entry(model.id, { type: "session_info", name: "My <session>" });
		const html = renderSessionHtml({
			header: { type: "session", version: 3, id: "sid", timestamp: at, cwd: "/work" },
			entries: [user, abandoned, assistant, result, bash, hidden, compaction, model, name],
			leafId: name.id,
			systemPrompt: "You are <pi>",
			tools: [{ name: "read", description: "Reads files" }],
		});
		expect(html).not.toContain("<script>");
		expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
		expect(html).toContain("<title>My &lt;session&gt;</title>");
		expect(html).not.toContain("ABANDONED");
		expect(html).toContain('<details class="thinking"><summary>Thinking</summary><pre>pondering</pre></details>');
		expect(html).toContain("a&amp;b.txt");
		expect(html).toContain("mock/mock-1 · 10 in · 5 out");
		expect(html).toContain('class="msg tool error"');
		// A mime type that is not one is not trusted into the attribute.
		expect(html).toContain('<img alt="image" src="data:image/png;base64,AAAA">');
		expect(html).toContain("$ ls");
		expect(html).not.toContain("HIDDEN");
		expect(html).toContain("42 tokens before");
		expect(html).toContain("Model: mock/mock-2");
		expect(html).toContain("You are &lt;pi&gt;");
		expect(html).toContain("<b>read</b> Reads files");
	});
});
