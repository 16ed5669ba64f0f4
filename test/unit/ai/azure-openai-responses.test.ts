/** Where `azure-openai-responses` sends a request, which deployment it names, and the errors a user can cause. */
import { describe, expect, test } from "bun:test";
import { complete, type Model } from "../../../src/ai/index.ts";
import { azureRequestUrl, buildAzureRequest } from "../../../src/ai/providers/azure-openai-responses.ts";

const model = (over: Partial<Model> = {}): Model => ({
	id: "gpt-4.1",
	name: "GPT-4.1",
	api: "azure-openai-responses",
	provider: "azure-openai-responses",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
	...over,
});
const none = { env: {} as Record<string, string>, apiKey: "k" };

describe("azure-openai-responses URL", () => {
	test("resource roots on Azure hosts become /openai/v1; other URLs are kept", () => {
		const url = (azureBaseUrl: string) => azureRequestUrl(model(), { ...none, azureBaseUrl });
		expect(url("https://res.openai.azure.com")).toBe("https://res.openai.azure.com/openai/v1/responses?api-version=v1");
		expect(url("https://res.cognitiveservices.azure.com/openai/")).toBe(
			"https://res.cognitiveservices.azure.com/openai/v1/responses?api-version=v1",
		);
		expect(url("https://res.services.ai.azure.com/openai/v1/responses")).toBe(
			"https://res.services.ai.azure.com/openai/v1/responses?api-version=v1",
		);
		expect(url("https://proxy.example.com/azure")).toBe("https://proxy.example.com/azure/responses?api-version=v1");
	});

	test("option, then env, then resource name, then the model's baseUrl; api version from option or env", () => {
		const env = { AZURE_OPENAI_RESOURCE_NAME: "mine", AZURE_OPENAI_API_VERSION: "2025-04-01-preview" };
		expect(azureRequestUrl(model({ baseUrl: "http://m" }), { env })).toBe(
			"https://mine.openai.azure.com/openai/v1/responses?api-version=2025-04-01-preview",
		);
		expect(
			azureRequestUrl(model(), {
				env: { ...env, AZURE_OPENAI_BASE_URL: "https://b.openai.azure.com" },
				azureApiVersion: "x",
			}),
		).toBe("https://b.openai.azure.com/openai/v1/responses?api-version=x");
		expect(azureRequestUrl(model({ baseUrl: "http://127.0.0.1:1/v1" }), none)).toBe(
			"http://127.0.0.1:1/v1/responses?api-version=v1",
		);
	});

	test("deployment: option, then AZURE_OPENAI_DEPLOYMENT_NAME_MAP, then the model id", () => {
		const ctx = { messages: [{ role: "user" as const, content: "hi", timestamp: 1 }] };
		const env = { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: " gpt-4o=a , gpt-4.1 = prod-41 ,bad" };
		expect(buildAzureRequest(model(), ctx, { env }).model).toBe("prod-41");
		expect(buildAzureRequest(model(), ctx, { env, azureDeploymentName: "d" }).model).toBe("d");
		expect(buildAzureRequest(model({ id: "o3" }), ctx, { env }).model).toBe("o3");
	});

	test("a missing base URL or key is a one-line error in the message, nothing is sent", async () => {
		const ctx = { messages: [{ role: "user" as const, content: "hi", timestamp: 1 }] };
		const noUrl = await complete(model(), ctx, none);
		expect(noUrl.stopReason).toBe("error");
		expect(noUrl.errorMessage).toStartWith("Azure OpenAI base URL is required: set AZURE_OPENAI_BASE_URL");
		const badUrl = await complete(model(), ctx, { ...none, azureBaseUrl: "not a url" });
		expect(badUrl.errorMessage).toBe("Invalid Azure OpenAI base URL: not a url");
		const noKey = await complete(model({ baseUrl: "http://127.0.0.1:9" }), ctx, { env: {} });
		expect(noKey.errorMessage).toBe("No API key for provider: azure-openai-responses");
	});
});
