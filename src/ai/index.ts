export * from "./auth/credential-store.ts";
export * from "./auth/resolve-value.ts";
export * from "./env-keys.ts";
export {
	classifyError,
	describeHttpError,
	type ErrorClassification,
	isContextOverflow,
	parseRetryAfter,
} from "./errors.ts";
export { AssistantMessageEventStreamImpl, createAssistantMessageEventStream, EventStream } from "./event-stream.ts";
export { joinUrl, ProviderError, postJson, preconnect } from "./http.ts";
export * from "./model-registry/index.ts";
export {
	findModels,
	getModel,
	getModels,
	getProviders,
	getSupportedThinkingLevels,
	modelsAreEqual,
	supportsXhigh,
} from "./models/index.ts";
export { parseStreamingJson, parseToolArguments } from "./partial-json.ts";
export * from "./providers/index.ts";
export {
	getApiProvider,
	getApiProviders,
	registerApiProvider,
	resetApiProviders,
	unregisterApiProviders,
} from "./registry.ts";
export { readSse, type SseMessage, SseParser } from "./sse.ts";
export { complete, completeSimple, failedStream, stream, streamSimple } from "./stream.ts";
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
export type * from "./types.ts";
export { calculateCost, emptyUsage } from "./usage.ts";
