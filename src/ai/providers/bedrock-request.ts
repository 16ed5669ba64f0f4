/**
 * The request side of `bedrock-converse-stream`: the ConverseStream JSON body as the AWS SDK serialises it for
 * pi-ai 0.87.1 (binary fields as base64), with pi's rules:
 * - one system prompt (plus a cache point for Claude models that cache), consecutive tool results folded into one
 *   user message, blank text dropped (a message left empty says `<empty>`), tool-call ids cut to Bedrock's charset;
 * - thinking replayed as `reasoningText` (with its signature for Claude, as plain text when a Claude signature is
 *   missing), encrypted reasoning as `redactedContent`;
 * - thinking settings in `additionalModelRequestFields` for Claude: adaptive + effort for 4.6+ models, otherwise a
 *   token budget and the interleaved-thinking beta;
 * - tools as `toolSpec`s (strict JSON schema when the model's compat allows and the tool asks for it).
 */
import { requestView } from "../transcript.ts";
import type {
	CacheRetention,
	Context,
	ImageContent,
	Model,
	StreamOptions,
	TextContent,
	ThinkingBudgets,
	ThinkingLevel,
	Tool,
	ToolResultMessage,
} from "../types.ts";
import { strictToolSchema } from "./bedrock-strict-schema.ts";
import { transformMessages } from "./transform-messages.ts";

export type BedrockThinkingDisplay = "summarized" | "omitted";

export interface BedrockOptions extends StreamOptions {
	region?: string;
	profile?: string;
	toolChoice?: "auto" | "any" | "none" | { type: "tool"; name: string };
	reasoning?: ThinkingLevel;
	thinkingBudgets?: ThinkingBudgets;
	interleavedThinking?: boolean;
	thinkingDisplay?: BedrockThinkingDisplay;
	requestMetadata?: Record<string, string>;
	bearerToken?: string;
	env?: Record<string, string | undefined>;
}

const EMPTY = "<empty>";
const IMAGE_FORMATS: Record<string, string> = {
	"image/jpeg": "jpeg",
	"image/jpg": "jpeg",
	"image/png": "png",
	"image/gif": "gif",
	"image/webp": "webp",
};

/** An env value: the options' `env` first, then the process environment (pi's provider-env rule). */
export function envValue(name: string, env: Record<string, string | undefined> | undefined): string | undefined {
	return env?.[name] || process.env[name] || undefined;
}

/** The strings pi matches model families against: id and name, lower-cased, also with separators as dashes. */
function candidates(model: Pick<Model, "id" | "name">): string[] {
	const values = model.name ? [model.id, model.name] : [model.id];
	return values.flatMap((v) => {
		const lower = v.toLowerCase();
		return [lower, lower.replace(/[\s_.:]+/g, "-")];
	});
}

const some = (model: Pick<Model, "id" | "name">, parts: string[]) =>
	candidates(model).some((s) => parts.some((p) => s.includes(p)));

export function isClaude(model: Pick<Model, "id" | "name">): boolean {
	const id = model.id.toLowerCase();
	const name = model.name?.toLowerCase() ?? "";
	return /anthropic[./]claude/.test(id) || /anthropic[./]claude/.test(name) || name.includes("claude");
}

export function adaptiveThinking(model: Pick<Model, "id" | "name">): boolean {
	return some(model, ["opus-4-6", "opus-4-7", "opus-4-8", "opus-5", "sonnet-4-6", "sonnet-5", "fable-5"]);
}

function nativeXhigh(model: Pick<Model, "id" | "name">): boolean {
	return some(model, ["opus-4-7", "opus-4-8", "opus-5", "sonnet-5", "fable-5"]);
}

function cachesPrompts(model: Model, env: BedrockOptions["env"]): boolean {
	if (!some(model, ["claude"])) return envValue("AWS_BEDROCK_FORCE_CACHE", env) === "1";
	return some(model, ["fable-5", "opus-5", "sonnet-5", "-4-", "claude-3-7-sonnet", "claude-3-5-haiku"]);
}

export function bedrockCacheRetention(options: BedrockOptions | undefined): CacheRetention {
	if (options?.cacheRetention) return options.cacheRetention;
	return envValue("PI_CACHE_RETENTION", options?.env) === "long" ? "long" : "short";
}

function cachePoint(retention: CacheRetention) {
	return { cachePoint: { type: "default", ...(retention === "long" ? { ttl: "1h" } : {}) } };
}

/** Drops lone UTF-16 surrogates, which the service rejects. */
function sanitize(text: string): string {
	return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");
}

function textBlock(text: string): { text: string } | undefined {
	const clean = sanitize(text);
	return clean.trim() === "" ? undefined : { text: clean };
}

function imageBlock(image: ImageContent) {
	const format = IMAGE_FORMATS[image.mimeType];
	if (!format) throw new Error(`Unknown image type: ${image.mimeType}`);
	// The SDK sends the decoded bytes base64-encoded again, which normalises the text.
	return { image: { format, source: { bytes: btoa(atob(image.data)) } } };
}

/** Keeps object keys the service accepts (an empty key is rejected). */
function document(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(document);
	if (value !== null && typeof value === "object") {
		return Object.fromEntries(
			Object.entries(value)
				.filter(([key]) => key !== "")
				.map(([key, v]) => [key, document(v)]),
		);
	}
	return value;
}

function toolIdForBedrock(id: string): string {
	return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

function resultContent(content: (TextContent | ImageContent)[]): unknown[] {
	const out: unknown[] = [];
	for (const part of content) {
		if (part.type === "image") out.push(imageBlock(part));
		else {
			const block = textBlock(part.text);
			if (block) out.push(block);
		}
	}
	return out.length > 0 ? out : [{ text: EMPTY }];
}

function toolResult(message: ToolResultMessage) {
	return {
		toolResult: {
			toolUseId: message.toolCallId,
			content: resultContent(message.content),
			status: message.isError ? "error" : "success",
		},
	};
}

/** A stored redacted payload back to base64 the SDK would send; undefined when it is not base64. */
function redactedPayload(signature: string | undefined): string | undefined {
	if (!signature) return undefined;
	try {
		const raw = atob(signature);
		return raw.length > 0 ? btoa(raw) : undefined;
	} catch {
		return undefined;
	}
}

function convertMessages(
	model: Model,
	view: ReturnType<typeof requestView>,
	retention: CacheRetention,
	env: BedrockOptions["env"],
) {
	const out: { role: "user" | "assistant"; content: unknown[] }[] = [];
	const messages = transformMessages(view.messages, model, toolIdForBedrock);
	const claude = isClaude(model);
	for (let i = 0; i < messages.length; i++) {
		const m = messages[i] as (typeof messages)[number];
		if (m.role === "user") {
			if (typeof m.content === "string") {
				out.push({ role: "user", content: [textBlock(m.content) ?? { text: EMPTY }] });
				continue;
			}
			const content: unknown[] = [];
			for (const part of m.content) {
				if (part.type === "text") {
					const block = textBlock(part.text);
					if (block) content.push(block);
				} else if (part.type === "image") content.push(imageBlock(part));
			}
			out.push({ role: "user", content: content.length > 0 ? content : [{ text: EMPTY }] });
		} else if (m.role === "assistant") {
			const content: unknown[] = [];
			for (const block of m.content) {
				if (block.type === "text") {
					const t = textBlock(block.text);
					if (t) content.push(t);
				} else if (block.type === "toolCall") {
					content.push({ toolUse: { toolUseId: block.id, name: block.name, input: document(block.arguments) } });
				} else if (block.type === "thinking") {
					if (block.redacted) {
						const payload = redactedPayload(block.thinkingSignature);
						if (payload) content.push({ reasoningContent: { redactedContent: payload } });
						continue;
					}
					const thinking = sanitize(block.thinking);
					if (thinking.trim() === "") continue;
					if (!claude) content.push({ reasoningContent: { reasoningText: { text: thinking } } });
					else if (!block.thinkingSignature?.trim()) content.push({ text: thinking });
					else {
						content.push({
							reasoningContent: { reasoningText: { text: thinking, signature: block.thinkingSignature } },
						});
					}
				}
			}
			if (content.length > 0) out.push({ role: "assistant", content });
		} else {
			const results = [toolResult(m)];
			while (messages[i + 1]?.role === "toolResult") results.push(toolResult(messages[++i] as ToolResultMessage));
			out.push({ role: "user", content: results });
		}
	}
	const last = out[out.length - 1];
	if (retention !== "none" && cachesPrompts(model, env) && last?.role === "user")
		last.content.push(cachePoint(retention));
	return out;
}

function toolConfig(tools: Tool[] | undefined, choice: BedrockOptions["toolChoice"], strictMode: boolean) {
	if (!tools?.length || choice === "none") return undefined;
	const specs = tools.map((tool) => {
		const strict = strictToolSchema(tool, strictMode);
		return {
			toolSpec: {
				name: tool.name,
				inputSchema: { json: strict ?? tool.parameters },
				description: tool.description,
				...(strict ? { strict: true } : {}),
			},
		};
	});
	const toolChoice =
		choice === "auto"
			? { auto: {} }
			: choice === "any"
				? { any: {} }
				: typeof choice === "object" && choice?.type === "tool"
					? { tool: { name: choice.name } }
					: undefined;
	return { tools: specs, ...(toolChoice ? { toolChoice } : {}) };
}

function effort(model: Model, level: ThinkingLevel): string {
	if (level === "xhigh" && nativeXhigh(model)) return "xhigh";
	const mapped = model.thinkingLevelMap?.[level];
	if (typeof mapped === "string") return mapped;
	if (level === "minimal" || level === "low") return "low";
	return level === "medium" ? "medium" : "high";
}

const BUDGETS: Record<ThinkingLevel, number> = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
	xhigh: 16384,
	max: 16384,
};

function thinkingFields(model: Model, options: BedrockOptions, region: string | undefined) {
	const level = options.reasoning;
	if (!level || !model.reasoning || !isClaude(model)) return undefined;
	const id = model.id.toLowerCase();
	const govCloud =
		region?.toLowerCase().startsWith("us-gov-") || id.startsWith("us-gov.") || id.startsWith("arn:aws-us-gov:");
	const display = govCloud ? undefined : (options.thinkingDisplay ?? "summarized");
	const shown = display !== undefined ? { display } : {};
	if (adaptiveThinking(model)) {
		return { thinking: { type: "adaptive", ...shown }, output_config: { effort: effort(model, level) } };
	}
	const key = level === "xhigh" || level === "max" ? "high" : level;
	const budget = options.thinkingBudgets?.[key] ?? BUDGETS[level];
	return {
		thinking: { type: "enabled", budget_tokens: budget, ...shown },
		...((options.interleavedThinking ?? true) ? { anthropic_beta: ["interleaved-thinking-2025-05-14"] } : {}),
	};
}

/** The configured region (option, `AWS_REGION`, `AWS_DEFAULT_REGION`), without pi's fallbacks. */
export function configuredRegion(options: BedrockOptions | undefined): string | undefined {
	return options?.region || envValue("AWS_REGION", options?.env) || envValue("AWS_DEFAULT_REGION", options?.env);
}

/** The ConverseStream body (the model id travels in the URL). Keys are in the order the SDK writes them. */
export function buildBedrockRequest(model: Model, full: Context, options: BedrockOptions): Record<string, unknown> {
	const view = requestView(full);
	const retention = bedrockCacheRetention(options);
	const maxTokens = options.maxTokens ?? (isClaude(model) ? model.maxTokens : undefined);
	const strictMode = (model.compat as { supportsStrictMode?: boolean } | undefined)?.supportsStrictMode ?? false;
	const system = view.systemPrompt
		? [
				{ text: sanitize(view.systemPrompt) },
				...(retention !== "none" && cachesPrompts(model, options.env) ? [cachePoint(retention)] : []),
			]
		: undefined;
	const body: Record<string, unknown> = {
		messages: convertMessages(model, view, retention, options.env),
		system,
		inferenceConfig: {
			...(maxTokens !== undefined ? { maxTokens } : {}),
			...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
		},
		toolConfig: toolConfig(view.tools, options.toolChoice, strictMode),
		additionalModelRequestFields: thinkingFields(model, options, configuredRegion(options)),
		...(options.requestMetadata !== undefined ? { requestMetadata: options.requestMetadata } : {}),
	};
	for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
	return body;
}
