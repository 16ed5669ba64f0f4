/** The built-in API implementations, registered with the API registry when this module loads. */
import { defineBuiltinApiProvider } from "../registry.ts";
import type { ApiProvider } from "../types.ts";
import { streamAnthropic, streamSimpleAnthropic } from "./anthropic.ts";
import { streamAzureOpenAIResponses, streamSimpleAzureOpenAIResponses } from "./azure-openai-responses.ts";
import { bedrockConverseStreamApi } from "./bedrock-lazy.ts";
import { streamGoogle, streamSimpleGoogle } from "./google.ts";
import { streamGoogleVertex, streamSimpleGoogleVertex } from "./google-vertex.ts";
import { streamMistral, streamSimpleMistral } from "./mistral.ts";
import { streamOpenAICodexResponses, streamSimpleOpenAICodexResponses } from "./openai-codex.ts";
import { streamOpenAICompletions, streamSimpleOpenAICompletions } from "./openai-completions.ts";
import { streamOpenAIResponses, streamSimpleOpenAIResponses } from "./openai-responses.ts";
import { piMessagesApi } from "./pi-messages-lazy.ts";

const BUILTINS: ApiProvider[] = [
	{ api: "anthropic-messages", stream: streamAnthropic, streamSimple: streamSimpleAnthropic },
	{ api: "openai-completions", stream: streamOpenAICompletions, streamSimple: streamSimpleOpenAICompletions },
	{ api: "openai-responses", stream: streamOpenAIResponses, streamSimple: streamSimpleOpenAIResponses },
	{ api: "google-generative-ai", stream: streamGoogle, streamSimple: streamSimpleGoogle },
	{ api: "mistral-conversations", stream: streamMistral, streamSimple: streamSimpleMistral },
	{ api: "azure-openai-responses", stream: streamAzureOpenAIResponses, streamSimple: streamSimpleAzureOpenAIResponses },
	{ api: "openai-codex-responses", stream: streamOpenAICodexResponses, streamSimple: streamSimpleOpenAICodexResponses },
	piMessagesApi(),
	{ api: "google-vertex", stream: streamGoogleVertex, streamSimple: streamSimpleGoogleVertex },
	{ api: "bedrock-converse-stream", ...bedrockConverseStreamApi() },
];
/**
 * Makes the built-in APIs available again (they are defined at module load; this re-defines them). An api an
 * extension or test registered with `registerApiProvider` keeps its override.
 */
export function registerBuiltInApiProviders(): void {
	for (const provider of BUILTINS) defineBuiltinApiProvider(provider);
}

registerBuiltInApiProviders();

export { type AnthropicOptions, streamAnthropic, streamSimpleAnthropic } from "./anthropic.ts";
export {
	type AzureOpenAIResponsesOptions,
	streamAzureOpenAIResponses,
	streamSimpleAzureOpenAIResponses,
} from "./azure-openai-responses.ts";
export { bedrockConverseStreamApi, setBedrockProviderModule } from "./bedrock-lazy.ts";
export type { BedrockOptions, BedrockThinkingDisplay } from "./bedrock-request.ts";
export * from "./faux.ts";
export { type GoogleOptions, type GoogleThinking, streamGoogle, streamSimpleGoogle } from "./google.ts";
export { type GoogleVertexOptions, streamGoogleVertex, streamSimpleGoogleVertex } from "./google-vertex.ts";
export { MessageBuilder } from "./message-builder.ts";
export { type MistralOptions, streamMistral, streamSimpleMistral } from "./mistral.ts";
export {
	type OpenAICodexResponsesOptions,
	streamOpenAICodexResponses,
	streamSimpleOpenAICodexResponses,
} from "./openai-codex.ts";
export {
	type OpenAICompletionsOptions,
	streamOpenAICompletions,
	streamSimpleOpenAICompletions,
} from "./openai-completions.ts";
export { type OpenAIResponsesOptions, streamOpenAIResponses, streamSimpleOpenAIResponses } from "./openai-responses.ts";
export * from "./pi-messages-lazy.ts";
export { parseEventJson, runProviderStream } from "./run.ts";
export { transformMessages } from "./transform-messages.ts";

/** pi 0.87's per-API stream pairs (`anthropicMessagesApi().streamSimple(…)`). */
export const anthropicMessagesApi = () => BUILTINS[0] as ApiProvider;
export const openAICompletionsApi = () => BUILTINS[1] as ApiProvider;
export const openAIResponsesApi = () => BUILTINS[2] as ApiProvider;
export const googleGenerativeAIApi = () => BUILTINS[3] as ApiProvider;
export const mistralConversationsApi = () => BUILTINS[4] as ApiProvider;
export const openAICodexResponsesApi = () => BUILTINS.find((p) => p.api === "openai-codex-responses") as ApiProvider;
export const azureOpenAIResponsesApi = () => BUILTINS.find((p) => p.api === "azure-openai-responses") as ApiProvider;
export const googleVertexApi = () => BUILTINS.find((p) => p.api === "google-vertex") as ApiProvider;
