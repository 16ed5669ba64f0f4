/**
 * Requests to GitHub Copilot models carry what pi-ai 0.87.1 sends (dist/api/github-copilot-headers.js and the three
 * APIs' createClient): the catalogue's identity headers, `X-Initiator` (user / agent), `Openai-Intent:
 * conversation-edits`, `Copilot-Vision-Request: true` with images, and the Copilot token as a Bearer token on every
 * API (Anthropic's messages API included, not x-api-key).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { complete, getModels, type Model } from "../../../../src/ai/index.ts";
import { startMockLlm } from "../../../support/mock-llm/index.ts";
import { RED_PIXEL_PNG } from "../../../support/models.ts";

const server = startMockLlm();
afterAll(() => server.stop());
const TOKEN = "tid=secret-copilot;exp=1;proxy-ep=proxy.individual.githubcopilot.com";

function copilotModel(api: string): Model {
	const model = getModels("github-copilot").find((m) => m.api === api && m.input.includes("image"));
	if (!model) throw new Error(`no github-copilot model for ${api}`);
	return { ...model, baseUrl: server.url };
}

const user = { role: "user" as const, content: "hi", timestamp: 1 };
const withImage = {
	role: "user" as const,
	content: [
		{ type: "text" as const, text: "look" },
		{ type: "image" as const, data: RED_PIXEL_PNG, mimeType: "image/png" },
	],
	timestamp: 1,
};

describe("GitHub Copilot requests", () => {
	for (const api of ["openai-completions", "openai-responses", "anthropic-messages"]) {
		test(`${api}: identity headers, initiator, intent, vision, Bearer token`, async () => {
			const model = copilotModel(api);
			server.push({ kind: "reply", text: "ok" }, { kind: "reply", text: "ok" });
			await complete(model, { messages: [withImage] }, { apiKey: TOKEN });
			const first = server.requests.at(-1)?.headers ?? {};
			expect(first).toMatchObject({
				"copilot-integration-id": "vscode-chat",
				"editor-version": "vscode/1.107.0",
				"editor-plugin-version": "copilot-chat/0.35.0",
				"x-initiator": "user",
				"openai-intent": "conversation-edits",
				"copilot-vision-request": "true",
				authorization: `Bearer ${TOKEN}`,
			});
			expect(first["x-api-key"]).toBeUndefined();
			const assistant = {
				role: "assistant" as const,
				content: [{ type: "text" as const, text: "yes" }],
				api: model.api,
				provider: model.provider,
				model: model.id,
				usage: {
					input: 0,
					output: 0,
					cacheRead: 0,
					cacheWrite: 0,
					totalTokens: 0,
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
				},
				stopReason: "stop" as const,
				timestamp: 2,
			};
			await complete(model, { messages: [user, assistant] }, { apiKey: TOKEN });
			const second = server.requests.at(-1)?.headers ?? {};
			expect(second["x-initiator"]).toBe("agent");
			expect(second["copilot-vision-request"]).toBeUndefined();
		});
	}
});
