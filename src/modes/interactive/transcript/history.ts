/**
 * Messages into the chat, one at a time (a user message as it starts, a custom message, a `!command`, a summary) or
 * as a whole history: a resumed session's context entries, or a list of context messages. Assistant messages
 * bring their tool calls, and each tool call is matched with its result further down (one map, so a long history
 * is drawn in one pass).
 */
import type { AgentMessage } from "../../../agent/index.ts";
import { parseSkillBlock } from "../../../resources/index.ts";
import { type SessionEntry, type StoredMessage, sessionEntryToContextMessages } from "../../../session/index.ts";
import { Spacer } from "../../../tui/index.ts";
import type { ToolExecutionComponent } from "../components/index.ts";
import type { ChatState } from "./state.ts";

type HistoryItem =
	| StoredMessage
	| SessionEntry
	| { type: "summary_cost"; kind: "compaction" | "branch_summary"; usage: NonNullable<CompactionUsage> };
type CompactionUsage = Extract<SessionEntry, { type: "compaction" }>["usage"];

/** The text blocks of a user message joined, as pi shows them (images are not drawn). */
export function userMessageText(message: { content: unknown }): string {
	const content = message.content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	let text = "";
	for (const block of content) if (block?.type === "text" && typeof block.text === "string") text += block.text;
	return text;
}

/** The text a tool call shows after an aborted or failed reply. */
export function abortedToolText(state: ChatState, message: { stopReason?: string; errorMessage?: string }): string {
	if (message.stopReason !== "aborted") return message.errorMessage || "Error";
	const attempts = state.retryAttempt;
	return attempts > 0 ? `Aborted after ${attempts} retry attempt${attempts > 1 ? "s" : ""}` : "Operation aborted";
}

/** Adds one message the way pi's chat shows it; tool results are left to their tool call. */
export function addMessage(state: ChatState, message: AgentMessage | StoredMessage, fromHistory = false): void {
	const { chat, factory } = state;
	switch (message.role) {
		case "bashExecution":
			chat.addChild(factory.bashResult(message));
			return;
		case "custom":
			if (message.display) chat.addChild(factory.custom(message));
			return;
		case "compactionSummary":
			chat.addChild(new Spacer(1));
			chat.addChild(factory.compaction(message));
			return;
		case "branchSummary":
			chat.addChild(new Spacer(1));
			chat.addChild(factory.branchSummary(message));
			return;
		case "user": {
			const text = userMessageText(message);
			if (!text) return;
			if (chat.children.length > 0) chat.addChild(new Spacer(1));
			const skill = parseSkillBlock(text);
			if (skill) {
				chat.addChild(factory.skill(skill));
				if (skill.userMessage) {
					chat.addChild(new Spacer(1));
					chat.addChild(factory.user(skill.userMessage));
				}
			} else chat.addChild(factory.user(text));
			if (fromHistory) state.onHistoryUserText?.(text);
			return;
		}
		case "assistant":
			chat.addChild(factory.assistant(message));
			return;
		default:
			// toolResult: drawn inside its tool call; system: prompt state, never shown; unknown roles: nothing.
			return;
	}
}

/** Draws context messages (and custom/usage entries among them) in order; see `renderEntries`. */
export function renderItems(state: ChatState, items: Iterable<HistoryItem>): void {
	const { chat, factory, notices } = state;
	state.pendingTools.clear();
	const waiting = new Map<string, ToolExecutionComponent>();
	for (const item of items) {
		if (!("role" in item)) {
			if (item.type === "custom") {
				const component = factory.entry(item as never);
				if (component) chat.addChild(component);
			} else if (item.type === "usage" && (item as { kind?: string }).kind === "cache_warm") {
				if (factory.showCacheNotices) notices.cacheWarming(item as never);
			} else if (item.type === "summary_cost") {
				const notice = item as Extract<HistoryItem, { type: "summary_cost" }>;
				if (factory.showCacheNotices) notices.summaryCost(notice.kind, notice.usage);
			}
			continue;
		}
		const message = item as StoredMessage;
		if (message.role === "assistant") {
			addMessage(state, message, true);
			const failed = message.stopReason === "aborted" || message.stopReason === "error";
			for (const block of message.content) {
				if (block.type !== "toolCall") continue;
				const component = factory.tool(block.name, block.id, block.arguments);
				chat.addChild(component);
				if (failed)
					component.updateResult({ content: [{ type: "text", text: abortedToolText(state, message) }], isError: true });
				else waiting.set(block.id, component);
			}
		} else if (message.role === "toolResult") {
			const component = waiting.get(message.toolCallId);
			if (component) {
				component.updateResult(message);
				waiting.delete(message.toolCallId);
			}
		} else addMessage(state, message, true);
	}
	for (const [id, component] of waiting) state.pendingTools.set(id, component);
	state.ui.requestRender();
}

/**
 * Draws a session's compaction-aware context entries (`SessionManager.buildContextEntries()`): each entry as the
 * messages it stands for, custom entries through their entry renderers, and with `showCacheMissNotices` the
 * billing of summaries and cache warming.
 */
export function renderEntries(state: ChatState, entries: Iterable<SessionEntry>): void {
	renderItems(state, expandEntries(entries));
}

function* expandEntries(entries: Iterable<SessionEntry>): Generator<HistoryItem> {
	for (const entry of entries) {
		if (entry.type === "custom" || (entry.type === "usage" && entry.kind === "cache_warm")) {
			yield entry;
			continue;
		}
		const messages = sessionEntryToContextMessages(entry);
		yield* messages;
		if ((entry.type === "compaction" || entry.type === "branch_summary") && entry.usage && messages.length > 0)
			yield { type: "summary_cost", kind: entry.type, usage: entry.usage };
	}
}
