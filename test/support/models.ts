/** Model objects pointing at the mock server, one per API. */
import type { Api, Model } from "../../src/ai/index.ts";

export function mockModel(api: Api, baseUrl: string, overrides: Partial<Model> = {}): Model {
	const provider =
		api === "anthropic-messages"
			? "anthropic"
			: api === "google-generative-ai"
				? "google"
				: api === "openai-responses"
					? "openai"
					: "mock-openai";
	return {
		id: "mock-model",
		name: "Mock Model",
		api,
		provider,
		baseUrl:
			api === "google-generative-ai" ? `${baseUrl}/v1beta` : api === "anthropic-messages" ? baseUrl : `${baseUrl}/v1`,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 8192,
		...overrides,
	};
}

/** A 1×1 red PNG, base64. */
export const RED_PIXEL_PNG =
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
