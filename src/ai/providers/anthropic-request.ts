/**
 * Request body of `anthropic-messages`, field for field as pi-ai 0.87.1 builds it:
 * - `cache_control` on the system prompt, on the last tool, and on the last block of the conversation when the
 *   conversation ends with a user turn (a plain-string user turn becomes one text block to carry it);
 * - user text travels as a string when the message is a string, empty text blocks are dropped;
 * - a run of tool results is one user turn; a result's `content` is one string (text parts joined with "\n") unless
 *   it has images, and `is_error` is always present;
 * - thinking: budget-based (`enabled` with `display`), adaptive for models whose compat forces it, and
 *   `{type: "disabled"}` when a reasoning model is asked not to think (unless its map says "off" is unsupported).
 */
import { requestView } from "../transcript.ts";
import type {
	AnthropicMessagesCompat,
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	StreamOptions,
	TextContent,
	ToolResultMessage,
} from "../types.ts";
import { cacheRetention } from "./simple-options.ts";
import { transformMessages } from "./transform-messages.ts";

export interface AnthropicOptions extends StreamOptions {
	thinkingEnabled?: boolean;
	thinkingBudgetTokens?: number;
	/** `thinking.display` ("summarized" unless set). */
	thinkingDisplay?: "summarized" | "omitted";
	/** `output_config.effort` with adaptive thinking. */
	effort?: "low" | "medium" | "high" | "xhigh" | "max";
	interleavedThinking?: boolean;
	toolChoice?: "auto" | "any" | "none" | { type: "tool"; name: string };
}

/** The model's compat with pi's defaults filled in. */
export function anthropicCompat(model: Model): Required<AnthropicMessagesCompat> {
	const compat = model.compat ?? {};
	return {
		supportsEagerToolInputStreaming: compat.supportsEagerToolInputStreaming ?? true,
		supportsLongCacheRetention: compat.supportsLongCacheRetention ?? true,
		supportsCacheControlOnTools: compat.supportsCacheControlOnTools ?? true,
		supportsTemperature: compat.supportsTemperature ?? true,
		allowEmptySignature: compat.allowEmptySignature ?? false,
		forceAdaptiveThinking: compat.forceAdaptiveThinking ?? false,
	};
}

/** Claude subscription (OAuth) access tokens, sent as a bearer token with Claude Code's identity. */
export function isOAuthToken(apiKey: string | undefined): boolean {
	return !!apiKey && apiKey.includes("sk-ant-oat");
}

/** The identity line a Claude subscription request must start its system prompt with. */
const CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";

/** Claude Code's tool names; a tool whose name matches one (ignoring case) is sent in that spelling under OAuth. */
const CLAUDE_CODE_TOOLS = [
	"Read",
	"Write",
	"Edit",
	"Bash",
	"Grep",
	"Glob",
	"AskUserQuestion",
	"EnterPlanMode",
	"ExitPlanMode",
	"KillShell",
	"NotebookEdit",
	"Skill",
	"Task",
	"TaskOutput",
	"TodoWrite",
	"WebFetch",
	"WebSearch",
];
const CLAUDE_CODE_NAMES = new Map(CLAUDE_CODE_TOOLS.map((name) => [name.toLowerCase(), name]));

export function toClaudeCodeName(name: string): string {
	return CLAUDE_CODE_NAMES.get(name.toLowerCase()) ?? name;
}

/** A tool name from the model back to the name of the tool offered (matched ignoring case). */
export function fromClaudeCodeName(name: string, tools: readonly { name: string }[] | undefined): string {
	const lower = name.toLowerCase();
	return tools?.find((tool) => tool.name.toLowerCase() === lower)?.name ?? name;
}

type Block = Record<string, unknown>;
type Turn = { role: "user" | "assistant"; content: string | Block[] };

export function buildRequest(model: Model, full: Context, options: AnthropicOptions | undefined) {
	const context = requestView(full);
	const compat = anthropicCompat(model);
	const cache = cacheRetention(options);
	const cacheControl =
		cache === "none"
			? undefined
			: cache === "long" && compat.supportsLongCacheRetention
				? { type: "ephemeral", ttl: "1h" }
				: { type: "ephemeral" };
	const oauth = isOAuthToken(options?.apiKey);
	const body: Record<string, unknown> = {
		model: model.id,
		messages: convertMessages(
			transformMessages(context.messages, model),
			model,
			cacheControl,
			compat.allowEmptySignature,
			oauth,
		),
		max_tokens: options?.maxTokens ?? model.maxTokens,
		stream: true,
	};
	const cached = cacheControl ? { cache_control: cacheControl } : {};
	const system = [
		...(oauth ? [{ type: "text", text: CLAUDE_CODE_IDENTITY, ...cached }] : []),
		...(context.systemPrompt ? [{ type: "text", text: context.systemPrompt, ...cached }] : []),
	];
	if (system.length > 0) body.system = system;
	if (options?.temperature !== undefined && !options.thinkingEnabled && compat.supportsTemperature) {
		body.temperature = options.temperature;
	}
	const tools = context.tools ?? [];
	if (tools.length > 0) {
		const toolCache = compat.supportsCacheControlOnTools ? cacheControl : undefined;
		body.tools = tools.map((tool, index) => {
			const schema = tool.parameters as { properties?: unknown; required?: unknown };
			return {
				name: oauth ? toClaudeCodeName(tool.name) : tool.name,
				description: tool.description,
				...(compat.supportsEagerToolInputStreaming ? { eager_input_streaming: true } : {}),
				input_schema: { type: "object", properties: schema.properties ?? {}, required: schema.required ?? [] },
				...(toolCache && index === tools.length - 1 ? { cache_control: toolCache } : {}),
			};
		});
	}
	applyThinking(body, model, compat, options);
	const userId = options?.metadata?.user_id;
	if (typeof userId === "string") body.metadata = { user_id: userId };
	if (options?.toolChoice) {
		body.tool_choice = typeof options.toolChoice === "string" ? { type: options.toolChoice } : options.toolChoice;
	}
	return body;
}

function applyThinking(
	body: Record<string, unknown>,
	model: Model,
	compat: Required<AnthropicMessagesCompat>,
	options: AnthropicOptions | undefined,
): void {
	if (!model.reasoning) return;
	if (options?.thinkingEnabled) {
		const display = options.thinkingDisplay ?? "summarized";
		if (compat.forceAdaptiveThinking) {
			body.thinking = { type: "adaptive", display };
			if (options.effort) body.output_config = { effort: options.effort };
		} else {
			body.thinking = { type: "enabled", budget_tokens: options.thinkingBudgetTokens || 1024, display };
		}
	} else if (options?.thinkingEnabled === false && model.thinkingLevelMap?.off !== null) {
		body.thinking = { type: "disabled" };
	}
}

function convertMessages(
	messages: Message[],
	model: Model,
	cacheControl: object | undefined,
	allowEmptySignature: boolean,
	oauth: boolean,
): Turn[] {
	const out: Turn[] = [];
	for (let i = 0; i < messages.length; i++) {
		const message = messages[i] as Message;
		if (message.role === "user") {
			if (typeof message.content === "string") {
				if (message.content.trim() !== "") out.push({ role: "user", content: message.content });
				continue;
			}
			const blocks = message.content
				.filter((block) => block.type !== "text" || block.text.trim() !== "")
				.map(contentBlock);
			if (blocks.length > 0) out.push({ role: "user", content: blocks });
		} else if (message.role === "assistant") {
			const blocks = assistantBlocks(message, model, allowEmptySignature, oauth);
			if (blocks.length > 0) out.push({ role: "assistant", content: blocks });
		} else {
			const results: Block[] = [];
			for (; i < messages.length && messages[i]?.role === "toolResult"; i++) {
				results.push(toolResultBlock(messages[i] as ToolResultMessage));
			}
			i--;
			out.push({ role: "user", content: results });
		}
	}
	const last = out[out.length - 1];
	if (cacheControl && last?.role === "user") {
		if (typeof last.content === "string") {
			last.content = [{ type: "text", text: last.content, cache_control: cacheControl }];
		} else {
			const block = last.content[last.content.length - 1];
			if (block) block.cache_control = cacheControl;
		}
	}
	return out;
}

function contentBlock(block: TextContent | ImageContent): Block {
	if (block.type === "text") return { type: "text", text: block.text };
	return { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } };
}

/** Text-only content as one string; with images, blocks (a placeholder text first when there is no text). */
function resultContent(content: (TextContent | ImageContent)[]): string | Block[] {
	if (!content.some((block) => block.type === "image")) {
		return content.map((block) => (block as TextContent).text).join("\n");
	}
	const blocks = content.map(contentBlock);
	if (!blocks.some((block) => block.type === "text")) blocks.unshift({ type: "text", text: "(see attached image)" });
	return blocks;
}

function toolResultBlock(message: ToolResultMessage): Block {
	return {
		type: "tool_result",
		tool_use_id: safeToolId(message.toolCallId),
		content: resultContent(message.content),
		is_error: message.isError,
	};
}

function assistantBlocks(
	message: AssistantMessage,
	model: Model,
	allowEmptySignature: boolean,
	oauth: boolean,
): Block[] {
	// Signatures (and redacted thinking) only mean something to the model that made them.
	const sameApi = message.api === model.api && message.provider === model.provider && message.model === model.id;
	const blocks: Block[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim() !== "") blocks.push({ type: "text", text: block.text });
		} else if (block.type === "thinking") {
			if (block.redacted) {
				if (sameApi && block.thinkingSignature)
					blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
				continue;
			}
			const signed = sameApi && !!block.thinkingSignature && block.thinkingSignature.trim() !== "";
			if (signed) {
				blocks.push({ type: "thinking", thinking: block.thinking, signature: block.thinkingSignature });
			} else if (block.thinking.trim() !== "") {
				// Unsigned thinking (an aborted stream, another provider) cannot be verified: plain text.
				blocks.push(
					allowEmptySignature && sameApi
						? { type: "thinking", thinking: block.thinking, signature: "" }
						: { type: "text", text: block.thinking },
				);
			}
		} else {
			const name = oauth ? toClaudeCodeName(block.name) : block.name;
			blocks.push({ type: "tool_use", id: safeToolId(block.id), name, input: block.arguments ?? {} });
		}
	}
	return blocks;
}

/** Anthropic accepts tool ids of [a-zA-Z0-9_-], at most 64 characters; ids from other providers are mapped. */
function safeToolId(id: string): string {
	return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}
