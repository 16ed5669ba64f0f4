/** Which context messages a branch entry contributes, with the branch's `context_edit`s applied. */
import type { AgentMessage } from "../agent/index.ts";
import type { ContextEditEntry, SessionEntry } from "../session/index.ts";

export type ContextEdits = Map<string, ContextEditEntry["replacement"]>;

/** The latest `context_edit` per target on the path (later edits win). */
export function collectEdits(entries: readonly SessionEntry[]): ContextEdits {
	const edits: ContextEdits = new Map();
	for (const entry of entries) if (entry.type === "context_edit") edits.set(entry.targetId, entry.replacement);
	return edits;
}

function isoToMs(iso: string): number {
	const ms = Date.parse(iso);
	return Number.isNaN(ms) ? 0 : ms;
}

function edited(message: AgentMessage, edits: ContextEdits | undefined, id: string): AgentMessage | undefined {
	const edit = edits?.get(id);
	if (edit === undefined) return message;
	if (edit === null) return undefined;
	const role = message.role;
	if (role !== "user" && role !== "assistant" && role !== "toolResult" && role !== "custom") return message;
	const text = typeof edit.content === "string" && (role === "assistant" || role === "toolResult");
	const content = text ? [{ type: "text" as const, text: edit.content as string }] : edit.content;
	return { ...message, content } as AgentMessage;
}

/**
 * The model-visible message of one entry, or undefined for state-only entries, system messages, omitted entries and
 * compactions (a compaction's summary travels separately as `previousSummary`).
 */
export function entryMessage(entry: SessionEntry, edits?: ContextEdits): AgentMessage | undefined {
	switch (entry.type) {
		case "message":
			if (entry.message.role === "system") return undefined;
			return edited(entry.message, edits, entry.id);
		case "custom_message": {
			const message: AgentMessage = {
				role: "custom",
				customType: entry.customType,
				content: entry.content,
				display: entry.display,
				timestamp: isoToMs(entry.timestamp),
			};
			if (entry.details !== undefined) message.details = entry.details;
			return edited(message, edits, entry.id);
		}
		case "branch_summary":
			return {
				role: "branchSummary",
				summary: entry.summary,
				fromId: entry.fromId,
				timestamp: isoToMs(entry.timestamp),
			};
		default:
			return undefined;
	}
}

/** Messages of `entries[from..to)`. */
export function messagesBetween(
	entries: readonly SessionEntry[],
	from: number,
	to: number,
	edits?: ContextEdits,
): AgentMessage[] {
	const out: AgentMessage[] = [];
	for (let i = Math.max(0, from); i < to; i++) {
		const message = entryMessage(entries[i]!, edits);
		if (message) out.push(message);
	}
	return out;
}
