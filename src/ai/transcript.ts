/**
 * The prompt and tool loadout carried by a transcript's system messages (pi-ai 0.86+). A leading system message
 * declares the prompt (`content` and named `sections`) and the tools; later ones append content, patch sections by
 * name (`null` removes one) and add or remove tools. These helpers replay them (`getCurrentSystemMessage`), fold a
 * `Context`'s `systemPrompt`/`tools` into the transcript (`normalizeContext`), collapse a transcript for APIs
 * without mid-conversation system messages, and diff tool loadouts (`getToolStateChanges`).
 */
import type { Context, Message, SystemMessage, Tool, ToolReference, TranscriptMessage } from "./types.ts";

/** Any message list: only entries whose role is `"system"` are read, so agent transcripts pass unfiltered. */
export type TranscriptMessages = readonly { role: string }[];

/** A context whose prompt and tools are carried by its system messages. */
export interface TranscriptContext {
	messages: TranscriptMessage[];
}

function isSystem(message: { role: string }): message is SystemMessage {
	return message.role === "system";
}

/** The text of string or block content: text blocks joined by `separator`, other blocks left out. */
export function textOfContent(content: string | readonly { type: string; text?: string }[], separator = "\n"): string {
	if (typeof content === "string") return content;
	let out = "";
	let first = true;
	for (const block of content) {
		if (block.type !== "text") continue;
		out += first ? (block.text ?? "") : separator + (block.text ?? "");
		first = false;
	}
	return out;
}

/** A system message rendered as one prompt: its content, then each section, blank lines between. */
export function getSystemMessageText(message: Pick<SystemMessage, "content" | "sections">): string {
	const parts = [textOfContent(message.content)];
	for (const text of Object.values(message.sections ?? {})) if (text !== null) parts.push(text);
	return parts.filter((part) => part.length > 0).join("\n\n");
}

/**
 * A later system message as text for APIs that take system messages mid-conversation: its content, then each
 * section change framed by name. The framing is for the request only.
 */
export function renderSystemMessageUpdate(message: Pick<SystemMessage, "content" | "sections">): string {
	const parts: string[] = [];
	const text = textOfContent(message.content);
	if (text.length > 0) parts.push(text);
	for (const [name, value] of Object.entries(message.sections ?? {})) {
		parts.push(
			value === null
				? `Removed system prompt section "${name}".`
				: `Updated system prompt section "${name}":\n\n${value}`,
		);
	}
	return parts.join("\n\n");
}

/** The leading system message for a prompt and tools; undefined when both are empty. */
export function createInitialSystemMessage(
	systemPrompt: string | undefined,
	tools: Tool[] | undefined,
): SystemMessage | undefined {
	const hasPrompt = systemPrompt !== undefined && systemPrompt.length > 0;
	const hasTools = tools !== undefined && tools.length > 0;
	if (!hasPrompt && !hasTools) return undefined;
	return { role: "system", content: systemPrompt ?? "", ...(hasTools ? { toolsAdded: tools } : {}), timestamp: 0 };
}

/** `Context.systemPrompt` and `Context.tools` folded into a leading system message. */
export function normalizeContext(context: Context): TranscriptContext {
	const initial = createInitialSystemMessage(context.systemPrompt, context.tools);
	return { messages: initial ? [initial, ...context.messages] : context.messages };
}

/** The transcript's first message when it is a system message. */
export function getInitialSystemMessage(messages: TranscriptMessages): SystemMessage | undefined {
	const first = messages[0];
	return first && isSystem(first) ? first : undefined;
}

/** The messages without a leading system message. */
export function withoutInitialSystemMessage<T extends { role: string }>(messages: T[]): T[] {
	return getInitialSystemMessage(messages) ? messages.slice(1) : messages;
}

/** The tools available after every system message's removals and additions, in order. */
export function getCurrentTools(messages: TranscriptMessages): Tool[] {
	const tools = new Map<string, Tool>();
	for (const message of messages) {
		if (!isSystem(message)) continue;
		for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
		for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
	}
	return [...tools.values()];
}

/**
 * Every system message replayed into one: contents joined by blank lines, sections patched by name, the current
 * tools, and the first system message's timestamp. Undefined when the transcript declares nothing.
 */
export function getCurrentSystemMessage(messages: TranscriptMessages): SystemMessage | undefined {
	const content: string[] = [];
	const sections = new Map<string, string>();
	let timestamp: number | undefined;
	for (const message of messages) {
		if (!isSystem(message)) continue;
		timestamp ??= message.timestamp;
		const text = textOfContent(message.content);
		if (text.length > 0) content.push(text);
		for (const [name, value] of Object.entries(message.sections ?? {})) {
			if (value === null) sections.delete(name);
			else sections.set(name, value);
		}
	}
	const tools = getCurrentTools(messages);
	if (timestamp === undefined && tools.length === 0) return undefined;
	return {
		role: "system",
		content: content.join("\n\n"),
		...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
		...(tools.length > 0 ? { toolsAdded: tools } : {}),
		timestamp: timestamp ?? 0,
	};
}

/** The prompt text after replaying every system message. */
export function getCurrentSystemPrompt(messages: TranscriptMessages): string {
	const message = getCurrentSystemMessage(messages);
	return message ? getSystemMessageText(message) : "";
}

/** The transcript with its system messages replayed into one leading system message. */
export function collapseSystemMessages(context: TranscriptContext): TranscriptContext {
	const head = getCurrentSystemMessage(context.messages);
	const rest = context.messages.filter((message) => !isSystem(message));
	return { messages: head ? [head, ...rest] : rest };
}

/** Later system messages stay where the model accepts them; otherwise the transcript is collapsed. */
export function resolveTranscript(
	context: TranscriptContext,
	supportsMidConvoSystemMessages: boolean | undefined,
): TranscriptContext {
	return supportsMidConvoSystemMessages ? context : collapseSystemMessages(context);
}

/** A tool as the model sees it: name, description, parameters (a JSON copy: no symbol keys), constrained sampling. */
export function toToolDeclaration(tool: Tool): Tool {
	return {
		name: tool.name,
		description: tool.description,
		parameters: JSON.parse(JSON.stringify(tool.parameters ?? {})),
		...(tool.constrainedSampling === undefined ? {} : { constrainedSampling: tool.constrainedSampling }),
	};
}

/** Whether two tools declare the same interface (compared as serialized declarations). */
export function declarationsEqual(left: Tool, right: Tool): boolean {
	return JSON.stringify(toToolDeclaration(left)) === JSON.stringify(toToolDeclaration(right));
}

export interface ToolStateChanges {
	toolsAdded: Tool[];
	toolsRemoved: ToolReference[];
}

/** The changes from one complete tool set to another; a changed definition is a removal and an addition. */
export function getToolStateChanges(previous: readonly Tool[], current: readonly Tool[]): ToolStateChanges {
	const before = new Map(previous.map((tool) => [tool.name, tool]));
	const after = new Map(current.map((tool) => [tool.name, tool]));
	const differs = (tool: Tool, other: Tool | undefined) => other === undefined || !declarationsEqual(tool, other);
	return {
		toolsAdded: current.filter((tool) => differs(tool, before.get(tool.name))).map(toToolDeclaration),
		toolsRemoved: previous.filter((tool) => differs(tool, after.get(tool.name))).map((tool) => ({ name: tool.name })),
	};
}

/** Every tool definition the transcript declares, the last definition of a name winning, in first-declared order. */
export function getDeclaredTools(messages: TranscriptMessages): Tool[] {
	const definitions = new Map<string, Tool>();
	for (const message of messages) {
		if (!isSystem(message)) continue;
		for (const tool of message.toolsAdded ?? []) definitions.set(tool.name, tool);
	}
	return [...definitions.values()];
}

/** Whether some tool name is declared twice with different definitions. */
export function hasToolRedefinitions(messages: TranscriptMessages): boolean {
	const declared = new Map<string, Tool>();
	for (const message of messages) {
		if (!isSystem(message)) continue;
		for (const tool of message.toolsAdded ?? []) {
			const previous = declared.get(tool.name);
			if (previous !== undefined && !declarationsEqual(previous, tool)) return true;
			declared.set(tool.name, tool);
		}
	}
	return false;
}

/** Whether the tool history removes a tool or declares a name twice (an addition-only transport cannot replay it). */
export function hasNonAdditiveToolChanges(messages: TranscriptMessages): boolean {
	const declared = new Set<string>();
	for (const message of messages) {
		if (!isSystem(message)) continue;
		if ((message.toolsRemoved?.length ?? 0) > 0) return true;
		for (const tool of message.toolsAdded ?? []) {
			if (declared.has(tool.name)) return true;
			declared.add(tool.name);
		}
	}
	return false;
}

export interface TranscriptTools {
	/** The tools for the request's top-level field. */
	requestTools: Tool[];
	/** Whether later system messages bring their own additions (else `requestTools` is the whole current set). */
	anchorsAdditions: boolean;
}

/** Which tools go in the request's tool field, and whether later additions stay where they appear. */
export function resolveTranscriptTools(messages: TranscriptMessages, supportsToolAdditions: boolean): TranscriptTools {
	const anchorsAdditions = supportsToolAdditions && !hasNonAdditiveToolChanges(messages);
	return {
		requestTools: anchorsAdditions ? (getInitialSystemMessage(messages)?.toolsAdded ?? []) : getCurrentTools(messages),
		anchorsAdditions,
	};
}

/** What a built-in provider sends: one prompt, the current tools, and the chat messages without system messages. */
export interface RequestView {
	systemPrompt?: string;
	tools?: Tool[];
	messages: Message[];
}

/**
 * A context as our built-in providers read it. Without system messages it is the context itself; with them
 * (none of the catalogued models takes system messages mid-conversation) the prompt and tools are replayed from
 * `systemPrompt`/`tools` and every system message, and the system messages are dropped.
 */
export function requestView(context: Context): RequestView {
	if (!context.messages.some(isSystem)) return context as RequestView;
	const messages = normalizeContext(context).messages;
	const head = getCurrentSystemMessage(messages);
	const prompt = head ? getSystemMessageText(head) : "";
	return {
		...(prompt ? { systemPrompt: prompt } : {}),
		...(head?.toolsAdded?.length ? { tools: head.toolsAdded } : {}),
		messages: messages.filter((message): message is Message => !isSystem(message)),
	};
}
