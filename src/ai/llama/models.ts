/**
 * Router models as pi models: which ones `/model` offers (loaded and sleeping ones; with router autoload also
 * unloaded presets), and what each looks like — OpenAI chat completions at `<router>/v1`, free, its context window
 * (and output limit) the `n_ctx` the router runs it with (else its trained size, else 128k), images when its
 * architecture takes them, and thinking when its chat template has `enable_thinking`.
 */
import type { ModelDefinition } from "../model-registry/index.ts";
import type { Model } from "../types.ts";
import { inferenceUrl } from "./format.ts";
import type { RouterModel, RouterProps } from "./types.ts";

export const LLAMA_PROVIDER_ID = "llama.cpp";
export const LLAMA_PROVIDER_NAME = "llama.cpp";
export const DEFAULT_LLAMA_SERVER_URL = "http://127.0.0.1:8080";
const DEFAULT_CONTEXT = 128_000;

export function isLoaded(model: RouterModel): boolean {
	return model.status.value === "loaded" || model.status.value === "sleeping";
}

/** Whether `/model` offers it: loaded, sleeping (a request wakes it), or an autoload preset. */
export function isSelectable(model: RouterModel, autoload: boolean): boolean {
	if (isLoaded(model)) return true;
	return autoload && model.status.value === "unloaded" && !model.status.failed && model.source === "preset";
}

/** The context window the router reports for it, if any. */
export function reportedContext(model: RouterModel): number | undefined {
	const value = model.meta?.n_ctx ?? model.meta?.n_ctx_train;
	return typeof value === "number" && value > 0 ? value : undefined;
}

/** A router model as a pi model (a model's props are known only while it is loaded). */
export function toModel(model: RouterModel, serverUrl: string, props?: RouterProps): Model {
	const contextWindow = reportedContext(model) ?? DEFAULT_CONTEXT;
	const reasoning = props?.chat_template?.includes("enable_thinking") === true;
	return {
		id: model.id,
		name: model.id,
		api: "openai-completions",
		provider: LLAMA_PROVIDER_ID,
		baseUrl: inferenceUrl(serverUrl),
		reasoning,
		...(reasoning
			? { thinkingLevelMap: { off: "off", minimal: null, low: null, medium: "medium", high: null, xhigh: null } }
			: {}),
		input: model.architecture?.input_modalities?.includes("image") ? ["text", "image"] : ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow,
		maxTokens: contextWindow,
		compat: {
			supportsStore: false,
			supportsDeveloperRole: false,
			supportsReasoningEffort: false,
			supportsUsageInStreaming: true,
			supportsStrictMode: false,
			maxTokensField: "max_tokens",
			...(reasoning ? { thinkingFormat: "qwen-chat-template" as const } : {}),
		},
	} as Model;
}

/** A stored or fresh model as a `registerProvider` model definition. */
export function toDefinition(model: Model): ModelDefinition {
	return {
		id: model.id,
		name: model.name,
		api: model.api,
		baseUrl: model.baseUrl,
		reasoning: model.reasoning,
		...(model.thinkingLevelMap ? { thinkingLevelMap: model.thinkingLevelMap } : {}),
		input: model.input,
		cost: model.cost,
		contextWindow: model.contextWindow,
		maxTokens: model.maxTokens,
		...(model.compat ? { compat: model.compat } : {}),
	};
}
