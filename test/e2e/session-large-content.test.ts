/**
 * A resumed session whose tool outputs and images are large (their contents are left on disk and read on use):
 * the next request carries them byte for byte, and the session goes on in the same file, which reopens whole.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "../../src/session/index.ts";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { mockAssistant } from "../reliability/big-session.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

const T = "2026-01-01T00:00:00.000Z";

test("a resumed session's large tool output and image reach the model whole", async () => {
	const home = makeTempDir("pi-large-home-");
	writeMockModels(home, server.url);
	const output = `${'line "one" \\ two – ü\n'.repeat(20_000)}end`;
	const image = Buffer.alloc(200 * 1024, 5).toString("base64");
	const call = { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } };
	const lines = [
		{ type: "session", version: 3, id: "0194f0c0-0000-7000-8000-00000000aaaa", timestamp: T, cwd: home },
		{
			type: "message",
			id: "a0000001",
			parentId: null,
			timestamp: T,
			message: { role: "user", content: "go", timestamp: 1 },
		},
		{
			type: "message",
			id: "a0000002",
			parentId: "a0000001",
			timestamp: T,
			message: mockAssistant([call], 2, "toolUse"),
		},
		{
			type: "message",
			id: "a0000003",
			parentId: "a0000002",
			timestamp: T,
			message: {
				role: "toolResult",
				toolCallId: "call_1",
				toolName: "read",
				content: [
					{ type: "text", text: output },
					{ type: "image", data: image, mimeType: "image/png" },
				],
				isError: false,
				timestamp: 3,
			},
		},
		{
			type: "message",
			id: "a0000004",
			parentId: "a0000003",
			timestamp: T,
			message: mockAssistant([{ type: "text", text: "read it" }], 4),
		},
	];
	const file = join(home, "big.jsonl");
	writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
	const before = readFileSync(file);

	const sent = server.requests.length;
	server.push({ kind: "reply", text: "next answer" });
	const run = await runPiAsync(["-p", "--session", file, "next"], { home });
	expect(run.stderr).toBe("");
	expect(run.stdout).toContain("next answer");

	const body = server.requests[sent]!.body as { messages: { role: string; content: unknown }[] };
	const results = body.messages.flatMap((m) =>
		Array.isArray(m.content) ? (m.content as { type: string; content?: unknown }[]) : [],
	);
	const toolResult = results.find((part) => part.type === "tool_result") as { content: unknown[] };
	expect(toolResult.content).toEqual([
		{ type: "text", text: output },
		{ type: "image", source: { type: "base64", media_type: "image/png", data: image } },
	]);

	// The old lines are untouched; the new turn follows them, and the file reopens with every content whole.
	const after = readFileSync(file);
	expect(after.subarray(0, before.length).equals(before)).toBe(true);
	const reopened = SessionManager.open(file, undefined, undefined, { readOnly: true });
	const messages = (reopened.buildSessionContext().messages as { role: string; content: unknown }[]).filter(
		(m) => m.role !== "system",
	);
	expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant"]);
	expect(JSON.stringify(messages[2]!.content)).toBe(JSON.stringify(lines[3]!.message!.content));
	expect(reopened.getDiagnostics()).toEqual([]);
});
