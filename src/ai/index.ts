export * from "./auth/credential-store.ts";
export * from "./auth/oauth/login.ts";
export { OAuthLoginRequiredError } from "./auth/oauth-refresh-error.ts";
export * from "./auth/provider-auth.ts";
export type * from "./auth/provider-auth-types.ts";
export * from "./auth/resolve-value.ts";
export {
	builtinImagesModels,
	builtinImagesProviders,
	builtinModels,
	builtinProviders,
	type RadiusProviderOptions,
	radiusProvider,
} from "./builtin/index.ts";
export { adjustBuiltinRequest } from "./builtin/wrappers.ts";
export * from "./collection/index.ts";
export * from "./diagnostics.ts";
export * from "./env-keys.ts";
export {
	accountProblem,
	classifyError,
	describeHttpError,
	type ErrorClassification,
	parseRetryAfter,
	retryAfterNote,
} from "./errors.ts";
export { AssistantMessageEventStreamImpl, createAssistantMessageEventStream, EventStream } from "./event-stream.ts";
export * from "./frames.ts";
export { joinUrl, ProviderError, postJson, preconnect } from "./http.ts";
export {
	DEFAULT_HTTP_IDLE_TIMEOUT_MS,
	fetchWithIdleTimeout,
	httpIdleTimeout,
	IdleTimeoutError,
	setHttpIdleTimeout,
} from "./idle-fetch.ts";
export { generateImagesOpenRouter } from "./images/openrouter.ts";
export * from "./images/registry.ts";
export { LLAMA_PROVIDER_ID } from "./llama/models.ts";
export { attachLlamaProvider, type LlamaConnection, llamaConnection } from "./llama/startup.ts";
export type { HubDetails, HubModel, RouterModel, RouterProgress } from "./llama/types.ts";
export * from "./model-registry/index.ts";
export {
	clampThinkingLevel,
	findModels,
	getBuiltinModelDataGeneratedAt,
	getModel,
	getModels,
	getProviders,
	getSupportedThinkingLevels,
	hasApi,
	modelsAreEqual,
	supportsXhigh,
} from "./models/index.ts";
export { getOverflowPatterns, isContextOverflow, isRecoverableLength } from "./overflow.ts";
export {
	invalidToolArguments,
	markInvalidToolArguments,
	parseJsonWithRepair,
	parseStreamingJson,
	parseToolArguments,
	repairJson,
} from "./partial-json.ts";
export { bedrockApiKeyAuth } from "./providers/bedrock-provider-auth.ts";
export * from "./providers/index.ts";
export {
	getApiProvider,
	getApiProviders,
	registerApiProvider,
	resetApiProviders,
	unregisterApiProviders,
} from "./registry.ts";
export * from "./retry.ts";
export * from "./session-resources.ts";
export { readSse, type SseMessage, SseParser } from "./sse.ts";
export { complete, completeSimple, failedStream, stream, streamSimple } from "./stream.ts";
export { validateToolArguments, validateToolArgumentsCoercing, validateToolCall } from "./tool-validation.ts";
export {
	collapseSystemMessages,
	createInitialSystemMessage,
	declarationsEqual,
	getCurrentSystemMessage,
	getCurrentSystemPrompt,
	getCurrentTools,
	getDeclaredTools,
	getInitialSystemMessage,
	getSystemMessageText,
	getToolStateChanges,
	hasNonAdditiveToolChanges,
	hasToolRedefinitions,
	normalizeContext,
	type RequestView,
	renderSystemMessageUpdate,
	requestView,
	resolveTranscript,
	resolveTranscriptTools,
	type ToolStateChanges,
	type TranscriptContext,
	type TranscriptMessages,
	type TranscriptTools,
	textOfContent,
	toToolDeclaration,
	withoutInitialSystemMessage,
} from "./transcript.ts";
export { StringEnum, Type } from "./typebox-helpers.ts";
export type * from "./types.ts";
export { calculateCost, emptyUsage } from "./usage.ts";
/** The llama.cpp router client, Hugging Face search and catalogue refresh, loaded on first use. */
export const loadLlama = () => import("./llama/index.ts");
export type LlamaModule = typeof import("./llama/index.ts");
