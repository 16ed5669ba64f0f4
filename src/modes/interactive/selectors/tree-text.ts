/**
 * What the session tree shows, searches and copies for one entry (pi 0.87.1's rules): the one-line row text by
 * entry type and message role (tool results as their call, `[read: path:1-20]`), the searchable text (label, role
 * and the first 200 characters of the text content), the text `app.message.copy` copies, and the label time.
 */
import type { SessionEntry } from "../../../session/index.ts";
import { theme } from "../components/style.ts";

type Block = { type?: string; text?: string };

/** Every text block joined (string content as is). */
export function fullText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	let out = "";
	for (const block of content as Block[]) {
		if (block && typeof block === "object" && block.type === "text" && typeof block.text === "string")
			out += block.text;
	}
	return out;
}

const shortText = (content: unknown): string => fullText(content).slice(0, 200);
const oneLine = (text: string): string => text.replace(/[\n\t]/g, " ").trim();

/** Whether any text block has non-blank text. */
export function hasText(content: unknown): boolean {
	if (typeof content === "string") return content.trim().length > 0;
	if (!Array.isArray(content)) return false;
	return (content as Block[]).some((b) => b && typeof b === "object" && b.type === "text" && !!b.text?.trim());
}

interface MessageLike {
	role: string;
	content?: unknown;
	stopReason?: string;
	errorMessage?: string;
	command?: string;
	toolCallId?: string;
	toolName?: string;
}

/** An assistant message the tree lists: it has text, or it ended in an error or abort (not a plain tool call). */
export function assistantListed(message: MessageLike): boolean {
	if (hasText(message.content)) return true;
	return !!message.stopReason && message.stopReason !== "stop" && message.stopReason !== "toolUse";
}

/** The searchable text of an entry without its label, lower-cased. */
export function searchText(entry: SessionEntry): string {
	const parts: string[] = [];
	const e = entry as SessionEntry & Record<string, unknown>;
	switch (entry.type) {
		case "message": {
			const message = (e as unknown as { message: MessageLike }).message;
			parts.push(message.role);
			if (message.content) parts.push(shortText(message.content));
			if (message.role === "bashExecution" && message.command) parts.push(message.command);
			break;
		}
		case "custom_message":
			parts.push(String(e.customType), typeof e.content === "string" ? e.content : shortText(e.content));
			break;
		case "compaction":
			parts.push("compaction");
			break;
		case "branch_summary":
			parts.push("branch summary", String(e.summary));
			break;
		case "session_info":
			parts.push("title");
			if (e.name) parts.push(String(e.name));
			break;
		case "model_change":
			parts.push("model", String(e.modelId));
			break;
		case "thinking_level_change":
			parts.push("thinking", String(e.thinkingLevel));
			break;
		case "custom":
			parts.push("custom", String(e.customType));
			break;
		case "context_edit":
			parts.push("context edit", e.replacement === null ? "omit" : "replace", String(e.targetId));
			break;
		case "label":
			parts.push("label", typeof e.label === "string" ? e.label : "");
			break;
	}
	return parts.join(" ").toLowerCase();
}

export interface ToolCallInfo {
	name: string;
	arguments: Record<string, unknown>;
}

/** The row text of an entry; `toolCall` finds the call a tool result answers. */
export function rowText(entry: SessionEntry, toolCall: (id: string) => ToolCallInfo | undefined): string {
	const t = theme();
	const e = entry as SessionEntry & Record<string, unknown>;
	switch (entry.type) {
		case "message": {
			const m = (e as unknown as { message: MessageLike }).message;
			if (m.role === "user") return t.fg("accent", "user: ") + oneLine(shortText(m.content));
			if (m.role === "assistant") {
				const text = oneLine(shortText(m.content));
				const head = t.fg("success", "assistant: ");
				if (text) return head + text;
				if (m.stopReason === "aborted") return head + t.fg("muted", "(aborted)");
				if (m.errorMessage) return head + t.fg("error", oneLine(m.errorMessage).slice(0, 80));
				return head + t.fg("muted", "(no content)");
			}
			if (m.role === "toolResult") {
				const call = m.toolCallId ? toolCall(m.toolCallId) : undefined;
				return t.fg("muted", call ? formatToolCall(call.name, call.arguments) : `[${m.toolName ?? "tool"}]`);
			}
			if (m.role === "bashExecution") return t.fg("dim", `[bash]: ${oneLine(m.command ?? "")}`);
			return t.fg("dim", `[${m.role}]`);
		}
		case "custom_message": {
			const content = typeof e.content === "string" ? e.content : fullText(e.content);
			return t.fg("customMessageLabel", `[${String(e.customType)}]: `) + oneLine(content);
		}
		case "compaction":
			return t.fg("borderAccent", `[compaction: ${Math.round(Number(e.tokensBefore) / 1000)}k tokens]`);
		case "branch_summary":
			return t.fg("warning", "[branch summary]: ") + oneLine(String(e.summary));
		case "model_change":
			return t.fg("dim", `[model: ${String(e.modelId)}]`);
		case "thinking_level_change":
			return t.fg("dim", `[thinking: ${String(e.thinkingLevel)}]`);
		case "custom":
			return t.fg("dim", `[custom: ${String(e.customType)}]`);
		case "context_edit":
			return t.fg("dim", `[context ${e.replacement === null ? "omit" : "replace"}: ${String(e.targetId)}]`);
		case "label":
			return t.fg("dim", `[label: ${typeof e.label === "string" ? e.label : "(cleared)"}]`);
		case "session_info":
			return e.name
				? t.fg("dim", "[title: ") + t.fg("dim", String(e.name)) + t.fg("dim", "]")
				: t.fg("dim", "[title: ") + t.italic(t.fg("dim", "empty")) + t.fg("dim", "]");
		default:
			return "";
	}
}

/** What `app.message.copy` copies from an entry (undefined: nothing to copy). */
export function copyText(entry: SessionEntry): string | undefined {
	const e = entry as SessionEntry & Record<string, unknown>;
	let text: string | undefined;
	if (entry.type === "message") {
		const m = (e as unknown as { message: MessageLike }).message;
		if (m.role === "bashExecution") text = m.command;
		else if ("content" in m) {
			text = fullText(m.content);
			if (!text && m.role === "assistant") text = m.errorMessage;
		}
	} else if (entry.type === "custom_message") text = fullText(e.content);
	else if (entry.type === "compaction" || entry.type === "branch_summary") text = String(e.summary ?? "");
	return text?.trim() ? text : undefined;
}

function shortenPath(path: string): string {
	const home = process.env.HOME || process.env.USERPROFILE || "";
	return home && path.startsWith(home) ? `~${path.slice(home.length)}` : path;
}

/** A tool call as one bracketed line: `[read: ~/a.ts:1-20]`, `[bash: npm test]`, `[name: {json}]`. */
export function formatToolCall(name: string, args: Record<string, unknown>): string {
	const path = (fallback = "") => shortenPath(String(args.path || args.file_path || fallback));
	switch (name) {
		case "read": {
			let display = path();
			const offset = args.offset as number | undefined;
			const limit = args.limit as number | undefined;
			if (offset !== undefined || limit !== undefined) {
				const start = offset ?? 1;
				const end = limit !== undefined ? start + limit - 1 : "";
				display += `:${start}${end ? `-${end}` : ""}`;
			}
			return `[read: ${display}]`;
		}
		case "write":
		case "edit":
			return `[${name}: ${path()}]`;
		case "bash": {
			const raw = String(args.command || "");
			return `[bash: ${raw
				.replace(/[\n\t]/g, " ")
				.trim()
				.slice(0, 50)}${raw.length > 50 ? "..." : ""}]`;
		}
		case "grep":
			return `[grep: /${String(args.pattern || "")}/ in ${shortenPath(String(args.path || "."))}]`;
		case "find":
			return `[find: ${String(args.pattern || "")} in ${shortenPath(String(args.path || "."))}]`;
		case "ls":
			return `[ls: ${shortenPath(String(args.path || "."))}]`;
		default: {
			const json = JSON.stringify(args) ?? "";
			return `[${name}: ${json.slice(0, 40)}${json.length > 40 ? "..." : ""}]`;
		}
	}
}

/** `HH:MM` today, `M/D HH:MM` this year, else `YY/M/D HH:MM` (local time). */
export function labelTime(timestamp: string, now = new Date()): string {
	const date = new Date(timestamp);
	const time = `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
	const sameYear = date.getFullYear() === now.getFullYear();
	if (sameYear && date.getMonth() === now.getMonth() && date.getDate() === now.getDate()) return time;
	const md = `${date.getMonth() + 1}/${date.getDate()}`;
	return sameYear ? `${md} ${time}` : `${String(date.getFullYear()).slice(-2)}/${md} ${time}`;
}
