/** Entry builders for the compaction tests: a linear branch with ids e0, e1, …. */
import type { AssistantMessage, ToolResultMessage, Usage } from "../../../src/ai/index.ts";
import type { SessionEntry, StoredMessage } from "../../../src/session/index.ts";

export function usage(input = 0, output = 0): Usage {
	return {
		input,
		output,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: input + output,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

export function assistantMsg(text: string, calls: { id: string; name: string; args: object }[] = []): AssistantMessage {
	return {
		role: "assistant",
		content: [
			...(text ? [{ type: "text" as const, text }] : []),
			...calls.map((c) => ({ type: "toolCall" as const, id: c.id, name: c.name, arguments: { ...c.args } })),
		],
		api: "anthropic-messages",
		provider: "anthropic",
		model: "m",
		usage: usage(),
		stopReason: calls.length > 0 ? "toolUse" : "stop",
		timestamp: 1,
	};
}

export function toolResultMsg(id: string, text: string, toolName = "read"): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: id,
		toolName,
		content: [{ type: "text", text }],
		isError: false,
		timestamp: 1,
	};
}

/** Builds a linear branch: each item is a message or a ready entry without id/parentId. */
export class Branch {
	readonly entries: SessionEntry[] = [];

	private push(partial: Record<string, unknown>): string {
		const id = `e${this.entries.length}`;
		const parentId = this.entries.at(-1)?.id ?? null;
		this.entries.push({ ...partial, id, parentId, timestamp: "2025-01-01T00:00:00.000Z" } as SessionEntry);
		return id;
	}

	msg(message: StoredMessage): string {
		return this.push({ type: "message", message });
	}

	user(text: string): string {
		return this.msg({ role: "user", content: text, timestamp: 1 });
	}

	assistant(text: string, calls: { id: string; name: string; args: object }[] = []): string {
		return this.msg(assistantMsg(text, calls));
	}

	tool(id: string, text: string, toolName = "read"): string {
		return this.msg(toolResultMsg(id, text, toolName));
	}

	modelChange(): string {
		return this.push({ type: "model_change", provider: "anthropic", modelId: "x" });
	}

	compaction(summary: string, firstKeptEntryId: string, details?: object): string {
		return this.push({ type: "compaction", summary, firstKeptEntryId, tokensBefore: 1000, details });
	}
}

/** Text of about `tokens` estimated tokens. */
export function text(tokens: number, letter = "x"): string {
	return letter.repeat(tokens * 4);
}
