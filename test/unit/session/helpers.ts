/** Shared builders for the session tests. */
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "../../../src/ai/index.ts";

/** pi's own session files, read-only, in the `shared/` folder beside the repository. */
export const FIXTURES = join(import.meta.dir, "..", "..", "..", "..", "shared", "fixtures", "pi-sessions");

const created: string[] = [];

/** Removes the temp dirs made so far; each test file calls it in `afterAll` (bun test fires no "exit" event). */
export function cleanupTempDirs(): void {
	for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-session-"));
	created.push(dir);
	return dir;
}

/** Copies a real pi fixture into `dir` (writable); the original is never touched. */
export function copyFixture(name: string, dir: string): string {
	const target = join(dir, name);
	copyFileSync(join(FIXTURES, name), target);
	chmodSync(target, 0o644);
	return target;
}

export const usage = {
	input: 10,
	output: 5,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 15,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

export function user(text: string, timestamp = 1_700_000_000_000): UserMessage {
	return { role: "user", content: text, timestamp };
}

export function assistant(text: string, model = "claude-sonnet-4-5", provider = "anthropic"): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "anthropic-messages",
		provider,
		model,
		usage,
		stopReason: "stop",
		timestamp: 1_700_000_000_001,
	};
}

export function toolCallAssistant(callId: string): AssistantMessage {
	return {
		...assistant(""),
		content: [{ type: "toolCall", id: callId, name: "bash", arguments: { command: "ls" } }],
		stopReason: "toolUse",
	};
}

export function toolResult(callId: string, text: string): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: callId,
		toolName: "bash",
		content: [{ type: "text", text }],
		isError: false,
		timestamp: 1_700_000_000_002,
	};
}

/** The file's lines, parsed (the last line must end with "\n"). */
export function readJsonl(path: string): Record<string, any>[] {
	const text = readFileSync(path, "utf8");
	if (text.length > 0 && !text.endsWith("\n")) throw new Error(`${path} does not end with a newline`);
	return text
		.split("\n")
		.filter((l) => l.trim() !== "")
		.map((l) => JSON.parse(l));
}

/** Text of a context message, for assertions. */
export function textOf(message: { content?: unknown; summary?: unknown }): string {
	if (typeof message.summary === "string") return message.summary;
	const content = message.content;
	if (typeof content === "string") return content;
	if (Array.isArray(content)) return content.map((b: any) => b.text ?? b.thinking ?? "").join("");
	return "";
}
