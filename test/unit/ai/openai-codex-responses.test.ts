/**
 * `openai-codex-responses` on its own (the side-by-side file compares it with pi-ai): the token's account claim,
 * headers the caller cannot override, hooks, retries and their limits, the header timeout, abort, malformed
 * streams, dispatch through the API registry, and the token never showing in what a caller sees.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
	type AssistantMessage,
	type Context,
	type Model,
	stream,
	streamOpenAICodexResponses,
	streamSimpleOpenAICodexResponses,
} from "../../../src/ai/index.ts";
import { accountIdFromToken, codexUrl } from "../../../src/ai/providers/openai-codex-request.ts";
import { describeCodexError } from "../../../src/ai/providers/openai-codex-responses.ts";
import { codexToken, type MockLlmServer, startMockLlm } from "../../support/mock-llm/index.ts";

const servers: MockLlmServer[] = [];
afterAll(() => {
	for (const server of servers) server.stop();
});
function server(): MockLlmServer {
	const s = startMockLlm();
	servers.push(s);
	return s;
}

const TOKEN = codexToken("acct-42");
const context: Context = { systemPrompt: "You are terse.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };

function model(baseUrl: string, overrides: Partial<Model> = {}): Model {
	return {
		id: "gpt-5.5",
		name: "GPT-5.5",
		api: "openai-codex-responses",
		provider: "openai-codex",
		baseUrl: `${baseUrl}/backend-api`,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0 },
		contextWindow: 272000,
		maxTokens: 128000,
		...overrides,
	};
}

async function result(s: AsyncIterable<unknown> & { result(): Promise<AssistantMessage> }) {
	for await (const _ of s) {
		// drain
	}
	return s.result();
}

describe("requests", () => {
	test("the account id comes from the token's OpenAI auth claim (base64url payloads too)", () => {
		expect(accountIdFromToken(TOKEN)).toBe("acct-42");
		// A payload whose base64url form holds "-" and "_".
		const tricky = codexToken("acct-?>~", { name: "ÿÿÿ>>>???" });
		expect(tricky.split(".")[1]).toMatch(/[-_]/);
		expect(accountIdFromToken(tricky)).toBe("acct-?>~");
		for (const bad of ["", "a.b", "a.b.c", codexToken("")]) {
			expect(() => accountIdFromToken(bad)).toThrow("Failed to extract accountId from token");
		}
	});

	test("URL: /codex/responses under the base unless it already ends there", () => {
		expect(codexUrl(undefined)).toBe("https://chatgpt.com/backend-api/codex/responses");
		expect(codexUrl("  ")).toBe("https://chatgpt.com/backend-api/codex/responses");
		expect(codexUrl("http://x/api/")).toBe("http://x/api/codex/responses");
		expect(codexUrl("http://x/codex")).toBe("http://x/codex/responses");
		expect(codexUrl("http://x/codex/responses/")).toBe("http://x/codex/responses");
	});

	test("a Context's systemPrompt becomes instructions; the caller's headers cannot replace the auth ones", async () => {
		const s = server();
		s.push({ kind: "reply", text: "ok" });
		const seen: { status?: number; payload?: unknown } = {};
		const message = await result(
			streamOpenAICodexResponses(model(s.url, { headers: { "x-model": "m", "x-gone": "1" } }), context, {
				apiKey: TOKEN,
				sessionId: "sess-1",
				headers: { authorization: "Bearer other", "chatgpt-account-id": "evil", "x-call": "c" },
				onPayload: (payload) => ({ ...(payload as object), extra: 1 }),
				onHeaders: (headers) => {
					headers["x-gone"] = null;
				},
				onResponse: (response) => {
					seen.status = response.status;
				},
			}),
		);
		expect(message.stopReason).toBe("stop");
		const request = s.requests[0];
		expect(request?.path).toBe("/backend-api/codex/responses");
		expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
		expect(request?.headers["chatgpt-account-id"]).toBe("acct-42");
		expect(request?.headers.originator).toBe("pi");
		expect(request?.headers["session-id"]).toBe("sess-1");
		expect(request?.headers["x-client-request-id"]).toBe("sess-1");
		expect(request?.headers["x-model"]).toBe("m");
		expect(request?.headers["x-call"]).toBe("c");
		expect(request?.headers["x-gone"]).toBeUndefined();
		expect(request?.headers["content-encoding"]).toBe("zstd");
		expect(request?.body.instructions).toBe("You are terse.");
		expect(request?.body.extra).toBe(1);
		expect(request?.body.input).toEqual([{ role: "user", content: [{ type: "input_text", text: "hi" }] }]);
		expect(seen.status).toBe(200);
	});

	test("the registry dispatches the api to it (stream())", async () => {
		const s = server();
		s.push({ kind: "reply", text: "via registry" });
		const message = await result(stream(model(s.url), context, { apiKey: TOKEN }));
		expect(message.content).toEqual([{ type: "text", text: "via registry", textSignature: expect.any(String) }]);
		expect(message.api).toBe("openai-codex-responses");
	});

	test("streamSimple without a token throws at once, naming the provider", () => {
		expect(() => streamSimpleOpenAICodexResponses(model("http://127.0.0.1:9"), context, {})).toThrow(
			"No API key for provider: openai-codex",
		);
	});
});

describe("retries, timeouts, abort", () => {
	test("maxRetries retries a 503 after retry-after-ms, then succeeds", async () => {
		const s = server();
		s.push(
			{ kind: "http-error", status: 503, message: "overloaded", headers: { "retry-after-ms": "10" } },
			{ kind: "reply", text: "second time lucky" },
		);
		const message = await result(streamOpenAICodexResponses(model(s.url), context, { apiKey: TOKEN, maxRetries: 2 }));
		expect(message.stopReason).toBe("stop");
		expect(s.requests).toHaveLength(2);
	});

	test("a usage-limit error is final; a 429 is retried as pi-ai does, after the server's delay", async () => {
		const s = server();
		s.push({ kind: "http-error", status: 403, body: { error: { code: "usage_not_included", message: "no codex" } } });
		const final = await result(streamOpenAICodexResponses(model(s.url), context, { apiKey: TOKEN, maxRetries: 3 }));
		expect(final.errorMessage).toBe("You have hit your ChatGPT usage limit.");
		expect(s.requests).toHaveLength(1);

		const limit = { kind: "http-error", status: 429, headers: { "retry-after-ms": "5" } } as const;
		s.push(limit, limit);
		const message = await result(streamOpenAICodexResponses(model(s.url), context, { apiKey: TOKEN, maxRetries: 1 }));
		expect(message.errorMessage).toMatch(
			/^You have hit your ChatGPT usage limit \(plus plan\)\. Try again in ~\d+ min\.$/,
		);
		expect(s.requests).toHaveLength(3);
	});

	test("a requested delay beyond maxRetryDelayMs fails with how long the server asked for", async () => {
		const s = server();
		s.push({ kind: "http-error", status: 503, message: "busy", headers: { "retry-after": "120" } });
		const message = await result(
			streamOpenAICodexResponses(model(s.url), context, { apiKey: TOKEN, maxRetries: 1, maxRetryDelayMs: 5000 }),
		);
		expect(message.errorMessage).toBe("Server requested 120s retry delay (max: 5s)");
		expect(s.requests).toHaveLength(1);
	});

	test("timeoutMs bounds the wait for the response headers", async () => {
		const slow = Bun.serve({
			hostname: "127.0.0.1",
			port: 0,
			async fetch() {
				await Bun.sleep(2000);
				return new Response("late");
			},
		});
		try {
			const message = await result(
				streamOpenAICodexResponses(model(`http://127.0.0.1:${slow.port}`), context, { apiKey: TOKEN, timeoutMs: 50 }),
			);
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toBe("Codex SSE response headers timed out after 50ms");
		} finally {
			slow.stop(true);
		}
	});

	test("an invalid timeoutMs is an error naming it", async () => {
		const message = await result(
			streamOpenAICodexResponses(model("http://127.0.0.1:9"), context, { apiKey: TOKEN, timeoutMs: -1 }),
		);
		expect(message.errorMessage).toBe("Invalid timeoutMs: -1");
	});

	test("abort before sending: aborted, nothing sent; abort while waiting: aborted", async () => {
		const s = server();
		const controller = new AbortController();
		controller.abort();
		const early = await result(
			streamOpenAICodexResponses(model(s.url), context, { apiKey: TOKEN, signal: controller.signal }),
		);
		expect(early.stopReason).toBe("aborted");
		expect(s.requests).toHaveLength(0);

		s.push({ kind: "hang" });
		const later = new AbortController();
		const s2 = streamOpenAICodexResponses(model(s.url), context, { apiKey: TOKEN, signal: later.signal });
		setTimeout(() => later.abort(), 100);
		const message = await result(s2);
		expect(message.stopReason).toBe("aborted");
	});
});

describe("answers", () => {
	test("malformed stream JSON is a protocol error", async () => {
		const s = server();
		s.push({ kind: "raw", body: 'data: {"type":"response.created","response":{"id":"r"}}\n\ndata: {oops\n\n' });
		const message = await result(streamOpenAICodexResponses(model(s.url), context, { apiKey: TOKEN }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toStartWith("Invalid Codex SSE JSON: SyntaxError");
	});

	test("error texts: friendly usage limits, error.message, raw bodies", () => {
		const soon = Math.floor(Date.now() / 1000) + 30 * 60;
		expect(
			describeCodexError(
				429,
				"",
				JSON.stringify({ error: { type: "usage_limit_reached", plan_type: "Pro", resets_at: soon } }),
			),
		).toBe("You have hit your ChatGPT usage limit (pro plan). Try again in ~30 min.");
		expect(describeCodexError(403, "", JSON.stringify({ error: { code: "usage_not_included" } }))).toBe(
			"You have hit your ChatGPT usage limit.",
		);
		expect(describeCodexError(401, "", JSON.stringify({ error: { message: "token expired" } }))).toBe("token expired");
		expect(describeCodexError(502, "Bad Gateway", "")).toBe("Bad Gateway");
		expect(describeCodexError(502, "", "")).toBe("Request failed");
	});

	test("the token shows in no event, message or error", async () => {
		const s = server();
		s.push({ kind: "http-error", status: 401, message: "Could not parse your authentication token." });
		const events: unknown[] = [];
		const st = streamOpenAICodexResponses(model(s.url), context, { apiKey: TOKEN });
		for await (const event of st) events.push(event);
		const text = JSON.stringify([events, await st.result()]);
		expect(text).toContain("Could not parse your authentication token.");
		expect(text).not.toContain(TOKEN);
		expect(text).not.toContain(TOKEN.split(".")[1] as string);
	});
});
