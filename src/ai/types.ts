/**
 * The LLM layer's contract: messages, content blocks, models, options and the streamed events. Names and shapes
 * match pi-ai, because extensions and session files depend on them.
 *
 * Boundary rules:
 * - A provider's stream function never throws and never rejects. Every failure (HTTP status, malformed SSE,
 *   disconnect, invalid tool-call JSON, abort) ends the stream with one `error` event whose message has
 *   `stopReason: "error" | "aborted"` and an `errorMessage`; content that already arrived is kept.
 * - Events carry `partial`, the assistant message as built so far (the same object throughout one stream).
 */
import type { TSchema } from "@sinclair/typebox";

export type KnownApi =
	| "anthropic-messages"
	| "openai-completions"
	| "openai-responses"
	| "azure-openai-responses"
	| "openai-codex-responses"
	| "mistral-conversations"
	| "bedrock-converse-stream"
	| "google-generative-ai"
	| "google-vertex"
	| "pi-messages";
export type Api = KnownApi | (string & {});

export type KnownProvider =
	| "anthropic"
	| "openai"
	| "google"
	| "groq"
	| "cerebras"
	| "xai"
	| "openrouter"
	| "deepseek"
	| "mistral"
	| "zai"
	| "huggingface"
	| "fireworks";
export type Provider = KnownProvider | (string & {});

// ---- content -----------------------------------------------------------------------------------------------

export interface TextContent {
	type: "text";
	text: string;
	textSignature?: string;
}

export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	/** Provider signature needed to send the block back (Anthropic), or the encrypted payload of a redacted block. */
	thinkingSignature?: string;
	redacted?: boolean;
}

export interface ImageContent {
	type: "image";
	/** base64, no data: prefix */
	data: string;
	mimeType: string;
}

export interface ToolCall {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, any>;
	thoughtSignature?: string;
	/** Tool namespace some providers report with a call. */
	namespace?: string;
}

// ---- messages ----------------------------------------------------------------------------------------------

export interface Usage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	/** Part of `cacheWrite` written with 1 h retention; only Anthropic reports the split (0 when it has none). */
	cacheWrite1h?: number;
	/** Reasoning tokens (already counted in `output`), set by providers that report them (possibly 0). */
	reasoning?: number;
	totalTokens: number;
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

/** "pending" only marks the snapshot an assistant `message_start` carries: the stream has not finished yet. */
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted" | "pending";

export interface UserMessage {
	role: "user";
	content: string | (TextContent | ImageContent)[];
	timestamp: number;
}

export interface AssistantMessage {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	api: Api;
	provider: Provider;
	model: string;
	responseModel?: string;
	responseId?: string;
	/** The provider's own name for the effort level it used (`pi-messages` backends report it). */
	providerThinkingLevel?: string;
	usage: Usage;
	stopReason: StopReason;
	errorMessage?: string;
	/** The provider's own stop value (`end_turn`, `stop`, `STOP`, `completed`, `incomplete.max_output_tokens`, …). */
	rawStopReason?: string;
	/** Failures recorded while producing the message that did not end it (see `createAssistantMessageDiagnostic`). */
	diagnostics?: AssistantMessageDiagnostic[];
	/** Whether the provider said the model ended its turn (OpenAI Codex's `end_turn`); informational only. */
	endTurn?: boolean;
	timestamp: number;
}

export interface AssistantMessageDiagnostic {
	type: string;
	timestamp: number;
	error?: { name?: string; message: string; stack?: string; code?: string | number };
	details?: Record<string, unknown>;
}

export interface ToolResultMessage<TDetails = any> {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: (TextContent | ImageContent)[];
	details?: TDetails;
	isError: boolean;
	timestamp: number;
}

/**
 * The prompt and tool loadout as part of the transcript (pi 0.86+). The first system message of a session holds
 * the whole prompt (`content` plus named `sections`) and every tool declaration; later ones patch it: more
 * `content` is appended, `sections` are replaced by name (`null` removes one), and `toolsAdded` / `toolsRemoved`
 * change the loadout. Replaying them in order gives the prompt and tools of a request.
 */
export interface SystemMessage {
	role: "system";
	content: string | TextContent[];
	sections?: Record<string, string | null>;
	toolsAdded?: Tool[];
	toolsRemoved?: ToolReference[];
	timestamp: number;
}

/** A tool named by a system message's `toolsRemoved`. */
export interface ToolReference {
	name: string;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** What a provider receives in a transcript: chat messages and the system messages between them. */
export type TranscriptMessage = Message | SystemMessage;

export interface Tool<TParameters extends TSchema = TSchema> {
	name: string;
	description: string;
	parameters: TParameters;
	/** Provider-side constrained sampling settings, carried through declarations unchanged. */
	constrainedSampling?: unknown;
}

export interface Context {
	systemPrompt?: string;
	/** May hold system messages (pi 0.86+ transcripts); `stream`/`streamSimple` fold them for built-in providers. */
	messages: TranscriptMessage[];
	tools?: Tool[];
}

// ---- models ------------------------------------------------------------------------------------------------

/** pi-ai's reasoning levels (no "off": leave `reasoning` unset for that). */
export type ThinkingLevel = "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

export interface ThinkingBudgets {
	minimal?: number;
	low?: number;
	medium?: number;
	high?: number;
	xhigh?: number;
	max?: number;
}

/** Per-model mapping of a level to the provider's value; `null` = that level is unsupported. */
export type ThinkingLevelMap = Partial<Record<ThinkingLevel | "off", string | null>>;

export interface ModelCost {
	/** USD per million tokens */
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	/** Prices that apply instead once the request's input (input + cache read + cache write) exceeds a threshold. */
	tiers?: ({ inputTokensAbove: number } & Omit<ModelCost, "tiers">)[];
}

/** Flags for OpenAI-compatible servers that differ from OpenAI (pi's models.json `compat`). All optional. */
export interface OpenAICompletionsCompat {
	supportsStore?: boolean;
	supportsDeveloperRole?: boolean;
	supportsReasoningEffort?: boolean;
	supportsUsageInStreaming?: boolean;
	maxTokensField?: "max_completion_tokens" | "max_tokens";
	requiresToolResultName?: boolean;
	requiresAssistantAfterToolResult?: boolean;
	requiresThinkingAsText?: boolean;
	requiresReasoningContentOnAssistantMessages?: boolean;
	thinkingFormat?:
		| "openai"
		| "openrouter"
		| "deepseek"
		| "zai"
		| "qwen"
		| "qwen-chat-template"
		| "together"
		| "ant-ling"
		| "string-thinking";
	supportsFinishReason?: boolean;
	openRouterRouting?: Record<string, unknown>;
	vercelGatewayRouting?: Record<string, unknown>;
	zaiToolStream?: boolean;
	supportsStrictMode?: boolean;
	cacheControlFormat?: "anthropic";
	sendSessionAffinityHeaders?: boolean;
	supportsLongCacheRetention?: boolean;
	reasoningEffortMap?: Record<string, string>;
}

export interface OpenAIResponsesCompat {
	sendSessionIdHeader?: boolean;
	supportsLongCacheRetention?: boolean;
	supportsMaxOutputTokens?: boolean;
}

export interface AnthropicMessagesCompat {
	supportsEagerToolInputStreaming?: boolean;
	supportsLongCacheRetention?: boolean;
	/** `cache_control` on the last tool definition (default true). */
	supportsCacheControlOnTools?: boolean;
	/** `temperature` is sent at all (default true). */
	supportsTemperature?: boolean;
	/** Thinking without a signature travels as a thinking block with `signature: ""` instead of as text. */
	allowEmptySignature?: boolean;
	/** Adaptive thinking (`thinking.type: "adaptive"` with an effort) instead of a token budget. */
	forceAdaptiveThinking?: boolean;
}

/**
 * pi-ai 0.87.1's other per-model capability flags, kept as its catalogue sets them so a model carries pi's compat
 * settings; a provider that implements the feature reads its flag.
 */
export interface CatalogueCompat {
	/** OpenAI custom tools with Lark/regex grammars. */
	supportsOpenAIGrammarTools?: boolean;
	/** System messages after the conversation started (else folded into the leading one). */
	supportsMidConvoSystemMessages?: boolean;
	supportsMidConvoToolAdditions?: boolean;
	supportsMidConvoToolChanges?: boolean;
	supportsMidConvoEffort?: boolean;
	/** Anthropic strict tool schemas. */
	supportsStrictTools?: boolean;
	supportsAdditionalTools?: boolean;
	supportsToolSearch?: boolean;
	supportsExplicitPromptCacheMode?: boolean;
	sessionAffinityFormat?: "openai" | "openai-nosession" | "openrouter";
	/** Models Anthropic accepts as refusal fallbacks, with their prices. */
	allowedFallbackModels?: { provider: string; model: string; cost: ModelCost }[];
}

export type ModelCompat = OpenAICompletionsCompat & OpenAIResponsesCompat & AnthropicMessagesCompat & CatalogueCompat;

export interface Model<TApi extends Api = Api> {
	id: string;
	name: string;
	api: TApi;
	provider: Provider;
	baseUrl: string;
	reasoning: boolean;
	thinkingLevelMap?: ThinkingLevelMap;
	input: ("text" | "image")[];
	cost: ModelCost;
	contextWindow: number;
	maxTokens: number;
	headers?: Record<string, string>;
	compat?: ModelCompat;
}

// ---- options -----------------------------------------------------------------------------------------------

export type CacheRetention = "none" | "short" | "long";

export interface ProviderResponseInfo {
	status: number;
	headers: Record<string, string>;
}

export interface StreamOptions {
	temperature?: number;
	maxTokens?: number;
	signal?: AbortSignal;
	apiKey?: string;
	cacheRetention?: CacheRetention;
	sessionId?: string;
	/** Sees the request body before it is sent; a returned value (or promise of one) replaces it. */
	onPayload?: (payload: unknown, model: Model) => unknown;
	/** May edit the request headers in place before the request is sent (`null` removes a header). */
	onHeaders?: (headers: Record<string, string | null>, model: Model) => void | Promise<void>;
	/** Sees status and headers of the HTTP response before its body is read. */
	onResponse?: (response: ProviderResponseInfo, model: Model) => void | Promise<void>;
	headers?: Record<string, string>;
	timeoutMs?: number;
	maxRetries?: number;
	maxRetryDelayMs?: number;
	metadata?: Record<string, unknown>;
	/** Provider-specific extras pass through untouched. */
	[key: string]: unknown;
}

export interface SimpleStreamOptions extends StreamOptions {
	reasoning?: ThinkingLevel;
	thinkingBudgets?: ThinkingBudgets;
}

// ---- events ------------------------------------------------------------------------------------------------

export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	| { type: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse">; message: AssistantMessage }
	| { type: "error"; reason: Extract<StopReason, "aborted" | "error">; error: AssistantMessage };

export interface AssistantMessageEventStream extends AsyncIterable<AssistantMessageEvent> {
	/** The final message: resolves after `done` or `error`; never rejects. */
	result(): Promise<AssistantMessage>;
}

export type StreamFunction<TApi extends Api = Api, TOptions extends StreamOptions = StreamOptions> = (
	model: Model<TApi>,
	context: Context,
	options?: TOptions,
) => AssistantMessageEventStream;

/** An API implementation (wire protocol). `registerApiProvider` adds or replaces one by `api`. */
export interface ApiProvider<TApi extends Api = Api> {
	api: TApi;
	stream: StreamFunction<TApi, StreamOptions>;
	streamSimple: StreamFunction<TApi, SimpleStreamOptions>;
}
