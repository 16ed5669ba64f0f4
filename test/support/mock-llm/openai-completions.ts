/**
 * OpenAI Chat Completions streaming format: `data:` frames of chat.completion.chunk objects (no `event:` lines),
 * thinking as `delta.reasoning_content` (DeepSeek/vLLM style), tool calls as an opening piece (index, id, name)
 * followed by argument pieces, a final chunk with `finish_reason`, the usage chunk (empty `choices`) when the
 * request asked for it with `stream_options.include_usage`, and `data: [DONE]`.
 */
import {
	chunks,
	type MockReply,
	type RecordedRequest,
	sseFrame,
	toolArgumentsText,
	type VendorFormat,
} from "./types.ts";

function renderReply(reply: MockReply, request: RecordedRequest): string[] {
	const size = reply.chunkSize ?? 8;
	const usage = reply.usage ?? { input: 10, output: 5 };
	const id = `chatcmpl-mock${Math.random().toString(36).slice(2, 10)}`;
	const created = Math.floor(Date.now() / 1000);
	const model = reply.servedModel ?? request.body?.model ?? "mock";
	const frames: string[] = [];
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
		frames.push(sseFrame({ id, object: "chat.completion.chunk", created, model, choices, ...extra }));
	const delta = (d: Record<string, unknown>, finishReason: string | null = null) =>
		chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finishReason }]);

	delta({ role: "assistant", content: "" });
	if (reply.thinking !== undefined) {
		for (const piece of chunks(reply.thinking, size)) delta({ reasoning_content: piece });
	}
	if (reply.text !== undefined) {
		for (const piece of chunks(reply.text, size)) delta({ content: piece });
	}
	for (const [n, call] of (reply.toolCalls ?? []).entries()) {
		const callId = call.id ?? `call_mock_${n}`;
		delta({ tool_calls: [{ index: n, id: callId, type: "function", function: { name: call.name, arguments: "" } }] });
		for (const piece of chunks(toolArgumentsText(call), size)) {
			delta({ tool_calls: [{ index: n, function: { arguments: piece } }] });
		}
	}
	if (reply.streamError) {
		frames.push(sseFrame({ error: { message: reply.streamError, type: "server_error", param: null, code: null } }));
		return frames;
	}
	const stop = reply.stopReason ?? (reply.toolCalls?.length ? "toolUse" : "stop");
	delta({}, stop === "toolUse" ? "tool_calls" : stop);
	if (request.body?.stream_options?.include_usage) {
		const cacheRead = usage.cacheRead ?? 0;
		chunk([], {
			usage: {
				prompt_tokens: usage.input + cacheRead,
				completion_tokens: usage.output,
				total_tokens: usage.input + cacheRead + usage.output,
				prompt_tokens_details: { cached_tokens: cacheRead },
			},
		});
	}
	frames.push(sseFrame("[DONE]"));
	return frames;
}

function errorType(status: number): { type: string; code: string | null } {
	if (status === 401) return { type: "invalid_request_error", code: "invalid_api_key" };
	if (status === 429) return { type: "requests", code: "rate_limit_exceeded" };
	if (status >= 500) return { type: "server_error", code: null };
	return { type: "invalid_request_error", code: null };
}

export const openaiCompletionsFormat: VendorFormat = {
	renderReply,
	errorBody: (status, message) => ({ error: { message, ...errorType(status), param: null } }),
};
