/**
 * The append half of `SessionManager`'s API: one method per entry type, each adding a child of the current leaf
 * and moving the leaf to it (through `SessionCore.appendEntry`, which decides when it reaches the disk).
 */
import { getCurrentSystemMessage, type ImageContent, type Message, type TextContent, type Usage } from "../ai/index.ts";
import { SessionCore } from "./core.ts";
import { clean } from "./entries.ts";
import { newEntryId } from "./ids.ts";
import type {
	BashExecutionMessage,
	BranchSummaryEntry,
	CompactionEntry,
	ContextEditEntry,
	CustomEntry,
	CustomMessage,
	CustomMessageEntry,
	LabelEntry,
	ModelChangeEntry,
	SessionInfoEntry,
	SessionMessageEntry,
	SessionProjection,
	SystemMessage,
	ThinkingLevelChangeEntry,
	UsageEntry,
} from "./types.ts";

/** What `appendMessage` takes: summaries have their own entry types (`appendCompaction`, `branchWithSummary`). */
export type AppendableMessage = Message | CustomMessage | BashExecutionMessage | SystemMessage;

export abstract class SessionAppender extends SessionCore {
	/** The active branch's context with its source entries (the manager's). */
	abstract buildSessionProjection(): SessionProjection;

	/** Appends a message; returns its entry id. */
	appendMessage(message: AppendableMessage): string {
		const role = (message as { role: string }).role;
		if (role === "compactionSummary" || role === "branchSummary") {
			throw new Error(`${role} messages are written with appendCompaction() / branchWithSummary()`);
		}
		return this.appendEntry<SessionMessageEntry>({ type: "message", message }).id;
	}

	appendThinkingLevelChange(thinkingLevel: string): string {
		return this.appendEntry<ThinkingLevelChangeEntry>({ type: "thinking_level_change", thinkingLevel }).id;
	}

	appendModelChange(provider: string, modelId: string): string {
		return this.appendEntry<ModelChangeEntry>({ type: "model_change", provider, modelId }).id;
	}

	/** Appends model usage that is not in context (e.g. cache warming); returns the entry. */
	appendUsage(kind: string, provider: string, model: string, usage: Usage, note?: string): UsageEntry {
		return this.appendEntry<UsageEntry>(clean({ type: "usage", kind, provider, model, usage, note }));
	}

	/**
	 * Appends a compaction; `firstKeptEntryId` null keeps nothing (the entry's own id is stored). Its
	 * `systemMessage` checkpoint is the prompt and tools replayed from the branch's context at this point (with the
	 * entry's time), unless one is given.
	 */
	appendCompaction<T = unknown>(
		summary: string,
		firstKeptEntryId: string | null,
		tokensBefore: number,
		details?: T,
		fromHook?: boolean,
		usage?: Usage,
		systemMessage?: SystemMessage,
	): string {
		const id = newEntryId((candidate) => this.store.has(candidate));
		const fields = { type: "compaction" as const, summary, firstKeptEntryId: firstKeptEntryId ?? id, tokensBefore };
		const now = new Date();
		const replayed = systemMessage ?? getCurrentSystemMessage(this.buildSessionProjection().messages);
		const checkpoint = replayed && { ...replayed, timestamp: systemMessage ? replayed.timestamp : now.getTime() };
		const entry = clean({ ...fields, details, usage, fromHook, systemMessage: checkpoint });
		return this.appendEntry<CompactionEntry>(entry, id, now).id;
	}

	/** Appends a branch summary at the current leaf (`fromId`: the abandoned leaf it summarizes). */
	appendBranchSummary<T = unknown>(
		fromId: string,
		summary: string,
		details?: T,
		fromHook?: boolean,
		usage?: Usage,
	): string {
		const fields = { type: "branch_summary" as const, fromId, summary, details, usage, fromHook };
		return this.appendEntry<BranchSummaryEntry>(clean(fields)).id;
	}

	appendCustomEntry(customType: string, data?: unknown): string {
		return this.appendEntry<CustomEntry>(clean({ type: "custom", customType, data })).id;
	}

	appendCustomMessageEntry<T = unknown>(
		customType: string,
		content: string | (TextContent | ImageContent)[],
		display: boolean,
		details?: T,
	): string {
		const fields = { type: "custom_message" as const, customType, content, display, details };
		return this.appendEntry<CustomMessageEntry>(clean(fields)).id;
	}

	appendSessionInfo(name: string): string {
		return this.appendEntry<SessionInfoEntry>({ type: "session_info", name: name.trim() }).id;
	}

	/** Sets (or with undefined/"" clears) the label of an existing entry. */
	appendLabelChange(targetId: string, label: string | undefined): string {
		if (!this.store.has(targetId)) throw new Error(`Entry ${targetId} not found`);
		const value = label === "" ? undefined : label;
		return this.appendEntry<LabelEntry>(clean({ type: "label", targetId, label: value })).id;
	}

	/** Branch-local edit of an earlier entry's contribution to the context (null omits it). */
	appendContextEdit(targetId: string, replacement: ContextEditEntry["replacement"]): string {
		if (!this.store.has(targetId)) throw new Error(`Entry ${targetId} not found`);
		return this.appendEntry<ContextEditEntry>({ type: "context_edit", targetId, replacement }).id;
	}
}
