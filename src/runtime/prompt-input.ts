/**
 * What a prompt goes through before the agent sees it, as pi 0.87.1 orders it: the extension `input` event (with
 * its source, and the streaming behaviour when the agent is busy), then `/skill:` and prompt-template expansion,
 * then — for a prompt that starts a run — `before_agent_start`. The hooks are the extension bridge's; a session
 * without extensions runs none of them.
 */
import type { AgentMessage } from "../agent/index.ts";
import type { ImageContent } from "../ai/index.ts";
import type {
	CustomMessageInput as ExtensionCustomMessage,
	NormalizedSystemPromptOptions,
} from "../extensions/index.ts";

/** Who typed the text: the user at a terminal or in print mode, an RPC client, or an extension. */
export type InputSource = "interactive" | "rpc" | "extension";

/** How a message is queued while the agent is busy. */
export type StreamingBehavior = "steer" | "followUp";

export interface InputResult {
	text: string;
	images?: ImageContent[];
}

export interface BeforeAgentStartResult {
	/** Extension messages sent right after the user message. */
	messages: AgentMessage[];
}

export interface PromptHooks {
	/** The `input` event; undefined when an extension handled the input. Abandoned when `signal` aborts. */
	input?(
		text: string,
		images: ImageContent[] | undefined,
		source: InputSource,
		streamingBehavior: StreamingBehavior | undefined,
		signal: AbortSignal,
	): Promise<InputResult | undefined>;
	/**
	 * The `before_agent_start` event for a prompt that starts a run. Handlers edit `options` in place; a returned
	 * `systemPrompt` is stored as `options.forceSystemPrompt`.
	 */
	beforeAgentStart?(
		text: string,
		images: ImageContent[] | undefined,
		options: NormalizedSystemPromptOptions,
		signal: AbortSignal,
	): Promise<BeforeAgentStartResult>;
}

export interface PromptOptions {
	images?: ImageContent[];
	/** Default "interactive". */
	source?: InputSource;
	/** While the agent is busy, queue the prompt this way; without it a busy agent refuses the prompt. */
	streamingBehavior?: StreamingBehavior;
	/** Expand `/skill:` and prompt templates (default true; `pi.sendUserMessage` turns it off). */
	expand?: boolean;
	/** Called once the prompt is accepted, queued or handled, before the run starts (RPC answers here). */
	onAccepted?: () => void;
}

export const BUSY_MESSAGE =
	"Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

export function userMessage(text: string, images: ImageContent[] | undefined): AgentMessage {
	return {
		role: "user",
		// Always blocks, as pi stores a prompt (text first, then any images).
		content: [{ type: "text", text }, ...(images ?? [])],
		timestamp: Date.now(),
	};
}

/**
 * A custom message as extensions hand it over (`sendMessage`, `before_agent_start`, boundary entries): the typed
 * `CustomMessageInput` of the extension API, read leniently because untyped extensions leave out `display` or
 * pass no content.
 */
export type CustomMessageInput = Omit<ExtensionCustomMessage, "content" | "display"> & {
	content?: unknown;
	display?: boolean;
};

/** A `custom` transcript message: missing content becomes [], `display` defaults to true. */
export function customMessage(input: CustomMessageInput): AgentMessage {
	return {
		role: "custom",
		customType: input.customType,
		content: input.content ?? [],
		display: input.display ?? true,
		...(input.details !== undefined ? { details: input.details } : {}),
		timestamp: Date.now(),
	} as unknown as AgentMessage;
}

/** The text of a user (or custom) message, images left out; text blocks joined by `separator`. */
export function messageText(message: AgentMessage, separator = "\n"): string {
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((b: { type?: string }) => b.type === "text")
		.map((b: { text?: string }) => b.text ?? "")
		.join(separator);
}

/** Text and images of `pi.sendUserMessage` content (a string, or text and image blocks). */
export function splitContent(content: string | readonly { type: string }[]): InputResult {
	if (typeof content === "string") return { text: content };
	const text = content
		.filter((part) => part.type === "text")
		.map((part) => (part as { text?: string }).text ?? "")
		.join("\n");
	const images = content.filter((part) => part.type === "image") as ImageContent[];
	return images.length > 0 ? { text, images } : { text };
}
