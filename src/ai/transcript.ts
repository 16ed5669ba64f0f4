/**
 * pi 0.87's transcript helpers for custom providers. Newer pi keeps the system prompt and tool declarations as
 * `role: "system"` messages inside the transcript; our contexts carry `systemPrompt` and `tools` beside the
 * messages (and sessions from newer pi may still hold system messages). These helpers give custom providers the
 * 0.87 view either way: `collapseSystemMessages` leads with one system message holding the current prompt and
 * tools, and the getters read it back.
 */
import type { Context, Tool } from "./types.ts";

export interface SystemMessageLike {
	role: "system";
	content: string;
	/** Named prompt sections; `null` removes one. */
	sections?: Record<string, string | null>;
	toolsAdded?: Tool[];
	toolsRemoved?: string[];
	timestamp: number;
}

type AnyMessage = { role: string } & Record<string, unknown>;

function isSystem(m: unknown): m is SystemMessageLike {
	return (m as { role?: string } | null)?.role === "system";
}

/** The prompt after replaying every system message: content appended, sections replaced or removed. */
export function getCurrentSystemPrompt(messages: readonly unknown[]): string {
	let base = "";
	const sections = new Map<string, string>();
	for (const m of messages) {
		if (!isSystem(m)) continue;
		if (m.content) base = base ? `${base}\n\n${m.content}` : m.content;
		for (const [name, text] of Object.entries(m.sections ?? {})) {
			if (text === null) sections.delete(name);
			else sections.set(name, text);
		}
	}
	return [base, ...sections.values()].filter((part) => part !== "").join("\n\n");
}

/** The tools declared by the system messages, later additions replacing earlier ones of the same name. */
export function getCurrentTools(messages: readonly unknown[]): Tool[] {
	const tools = new Map<string, Tool>();
	for (const m of messages) {
		if (!isSystem(m)) continue;
		for (const name of m.toolsRemoved ?? []) tools.delete(name);
		for (const tool of m.toolsAdded ?? []) tools.set(tool.name, tool);
	}
	return [...tools.values()];
}

/** One leading system message with the current prompt and tools; later system messages dropped. */
export function collapseSystemMessages(context: Context): Context {
	const messages = context.messages as unknown as AnyMessage[];
	const leading: SystemMessageLike = {
		role: "system",
		content: getCurrentSystemPrompt([
			...(context.systemPrompt ? [{ role: "system", content: context.systemPrompt, timestamp: 0 }] : []),
			...messages,
		]),
		toolsAdded: [...(context.tools ?? []), ...getCurrentTools(messages)],
		timestamp: 0,
	};
	return {
		...context,
		messages: [leading, ...messages.filter((m) => !isSystem(m))] as unknown as Context["messages"],
	};
}
