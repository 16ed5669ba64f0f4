/**
 * Context building: from the path root → leaf to what the LLM sees.
 *
 * 1. Settings come from the whole path: the latest `thinking_level_change` ("off" if none); the latest
 *    `model_change` or assistant message gives the model.
 * 2. Selection: without a compaction, every entry of the path. With one, the latest: the compaction entry, then
 *    the entries from its `firstKeptEntryId` up to it (without system messages: the compaction's checkpoint holds
 *    them), then everything after it. A `firstKeptEntryId` not on the path (or the compaction's own id) keeps
 *    nothing.
 * 3. Projection: `message` → the stored message (system messages included: they carry the prompt and tools),
 *    the selected compaction → its `systemMessage` checkpoint (if any) then `compactionSummary` (an older
 *    compaction inside the kept range gives nothing), `branch_summary` → `branchSummary`, `custom_message` →
 *    `custom`; everything else gives nothing. The latest `context_edit` on the path for a
 *    user/assistant/toolResult/custom entry omits it (`null`) or replaces its content (strings become one text
 *    block for assistant and tool results); the stored entry is not changed.
 */

import type { AgentMessage } from "../agent/index.ts";
import { isDeferred } from "./lazy-content.ts";
import type { EntryNode } from "./store.ts";
import { nodeFor } from "./store.ts";
import type {
	CompactionEntry,
	ContextEditEntry,
	SessionEntry,
	SessionModelRef,
	SessionProjection,
	StoredMessage,
	StoredThinkingLevel,
} from "./types.ts";

export type Materialize = (node: EntryNode) => SessionEntry | undefined;
/** Optional: parse many nodes at once before they are asked for one by one. */
export type Prefetch = (nodes: EntryNode[]) => void;

/** Settings a path may fall back to (a v1 header's model and thinking level). */
export interface ContextDefaults {
	model?: SessionModelRef | null;
	thinkingLevel?: StoredThinkingLevel;
}

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);

function roleOf(node: EntryNode, get: Materialize): string | undefined {
	if (node.type !== "message") return undefined;
	if (node.role !== undefined) return node.role;
	const entry = get(node);
	return entry?.type === "message" ? entry.message.role : undefined;
}

function latestCompaction(path: EntryNode[], get: Materialize): { index: number; entry?: CompactionEntry } {
	for (let i = path.length - 1; i >= 0; i--) {
		const node = path[i]!;
		if (node.type !== "compaction") continue;
		const entry = get(node);
		if (entry?.type === "compaction") return { index: i, entry };
	}
	return { index: -1 };
}

/** The nodes whose entries make up the context (step 2). */
export function selectContextNodes(path: EntryNode[], get: Materialize): EntryNode[] {
	const { index, entry } = latestCompaction(path, get);
	if (!entry) return path;
	const selected: EntryNode[] = [path[index]!];
	let kept = -1;
	for (let i = 0; i < index; i++) {
		if (path[i]!.id === entry.firstKeptEntryId) {
			kept = i;
			break;
		}
	}
	if (kept >= 0) {
		for (let i = kept; i < index; i++) {
			const node = path[i]!;
			if (roleOf(node, get) === "system") continue;
			selected.push(node);
		}
	}
	for (let i = index + 1; i < path.length; i++) selected.push(path[i]!);
	return selected;
}

function settings(path: EntryNode[], get: Materialize, defaults: ContextDefaults) {
	let thinkingLevel: StoredThinkingLevel | undefined;
	let model: SessionModelRef | null | undefined;
	for (let i = path.length - 1; i >= 0 && (thinkingLevel === undefined || model === undefined); i--) {
		const node = path[i]!;
		if (thinkingLevel === undefined && node.type === "thinking_level_change") {
			const entry = get(node);
			if (entry?.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
		} else if (model === undefined && node.type === "model_change") {
			const entry = get(node);
			if (entry?.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
		} else if (model === undefined && roleOf(node, get) === "assistant") {
			const entry = get(node);
			const message = entry?.type === "message" ? entry.message : undefined;
			if (message?.role === "assistant" && typeof message.provider === "string" && typeof message.model === "string") {
				model = { provider: message.provider, modelId: message.model };
			}
		}
	}
	return { thinkingLevel: thinkingLevel ?? defaults.thinkingLevel ?? "off", model: model ?? defaults.model ?? null };
}

function timestampMs(iso: string): number {
	const ms = Date.parse(iso);
	return Number.isNaN(ms) ? 0 : ms;
}

function withContent(message: AgentMessage, content: ContextEditEntry["replacement"] & object): AgentMessage {
	const role = message.role;
	const value =
		typeof content.content === "string" && (role === "assistant" || role === "toolResult")
			? [{ type: "text" as const, text: content.content }]
			: content.content;
	return { ...message, content: value } as AgentMessage;
}

/** The context messages one selected entry contributes (step 3). */
export function entryToMessages(
	entry: SessionEntry,
	edits: Map<string, ContextEditEntry["replacement"]>,
): AgentMessage[] {
	switch (entry.type) {
		case "message": {
			const message = entry.message;
			const edit = edits.get(entry.id);
			if (edit === undefined || !EDITABLE_ROLES.has(message.role)) return [message];
			return edit === null ? [] : [withContent(message, edit)];
		}
		case "compaction": {
			const summary: AgentMessage = {
				role: "compactionSummary",
				summary: entry.summary,
				tokensBefore: entry.tokensBefore,
				timestamp: timestampMs(entry.timestamp),
			};
			return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
		}
		case "branch_summary":
			return [
				{
					role: "branchSummary",
					summary: entry.summary,
					fromId: entry.fromId,
					timestamp: timestampMs(entry.timestamp),
				},
			];
		case "custom_message": {
			const message: AgentMessage = {
				role: "custom",
				customType: entry.customType,
				content: entry.content,
				display: entry.display,
				timestamp: timestampMs(entry.timestamp),
			};
			if (entry.details !== undefined) message.details = entry.details;
			const edit = edits.get(entry.id);
			if (edit === undefined) return [message];
			return edit === null ? [] : [withContent(message, edit)];
		}
		default:
			return [];
	}
}

/** Steps 1–3 over a path (root → leaf). */
export function projectPath(
	path: EntryNode[],
	get: Materialize,
	defaults: ContextDefaults = {},
	prefetch?: Prefetch,
): SessionProjection {
	const edits = new Map<string, ContextEditEntry["replacement"]>();
	for (const node of path) {
		if (node.type !== "context_edit") continue;
		const entry = get(node);
		if (entry?.type === "context_edit") edits.set(entry.targetId, entry.replacement);
	}
	const entries: SessionProjection["entries"] = [];
	const messages: AgentMessage[] = [];
	const selected = selectContextNodes(path, get);
	prefetch?.(selected);
	for (let i = 0; i < selected.length; i++) {
		const entry = get(selected[i]!);
		if (!entry) continue;
		// Only the selected compaction (first) stands for what it summarised; an older one kept in range gives nothing.
		const produced = entry.type === "compaction" && i > 0 ? [] : entryToMessages(entry, edits);
		entries.push({ sourceEntry: entry, messages: produced });
		for (const m of produced) messages.push(m);
	}
	return { entries, messages, ...settings(path, get, defaults) };
}

/** The path root → `leafId` through plain entries (for the standalone functions below). */
function pathOf(
	entries: SessionEntry[],
	leafId: string | null | undefined,
	byId?: Map<string, SessionEntry>,
): EntryNode[] {
	const index = byId ?? new Map(entries.map((e) => [e.id, e]));
	const out: EntryNode[] = [];
	const seen = new Set<string>();
	let current = leafId === undefined ? entries.at(-1) : leafId === null ? undefined : index.get(leafId);
	while (current && !seen.has(current.id)) {
		seen.add(current.id);
		out.push(nodeFor(current));
		current = current.parentId === null ? undefined : index.get(current.parentId);
	}
	return out.reverse();
}

const plain: Materialize = (node) => node.entry;

/** Compaction-aware entry list for the branch ending at `leafId` (default: the last entry). */
export function buildContextEntries(
	entries: SessionEntry[],
	leafId?: string | null,
	byId?: Map<string, SessionEntry>,
): SessionEntry[] {
	return selectContextNodes(pathOf(entries, leafId, byId), plain).flatMap((n) => (n.entry ? [n.entry] : []));
}

export function buildSessionProjection(
	entries: SessionEntry[],
	leafId?: string | null,
	byId?: Map<string, SessionEntry>,
): SessionProjection {
	return projectPath(pathOf(entries, leafId, byId), plain);
}

export function buildSessionContext(entries: SessionEntry[], leafId?: string | null, byId?: Map<string, SessionEntry>) {
	const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId, byId);
	return { messages, thinkingLevel, model };
}

/**
 * pi's `sessionEntryToContextMessages`: the messages one entry stands for, without the branch's context edits —
 * a message as stored (system messages included; missing content as empty), a custom message, a branch summary,
 * a compaction's summary (after its system-prompt checkpoint, if any); nothing for state-only entries.
 */
export function sessionEntryToContextMessages(entry: SessionEntry): StoredMessage[] {
	if (entry.type === "message") {
		const message = entry.message as StoredMessage & { content?: unknown };
		// A deferred content (see lazy-content.ts) is always there; asking for it would read it from disk.
		if (isDeferred(message) || message.content != null) return [message];
		return [{ ...message, content: message.role === "system" ? "" : [] } as StoredMessage];
	}
	if (entry.type === "branch_summary" && !entry.summary) return [];
	return entryToMessages(entry, new Map());
}

/** The latest compaction entry in `entries`, or null. */
export function getLatestCompactionEntry(entries: SessionEntry[]): CompactionEntry | null {
	for (let i = entries.length - 1; i >= 0; i--) {
		const e = entries[i]!;
		if (e.type === "compaction") return e;
	}
	return null;
}
