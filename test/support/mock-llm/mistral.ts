/**
 * Mistral's native chat completions stream (`/mistral/v1/chat/completions` on the mock: the mock tells it from
 * OpenAI's by the `/mistral` base path): `data:` frames of completion chunks, thinking as `delta.content` items of
 * type "thinking" (each holding text parts), text as plain string content, each tool call in one piece with its
 * id, name and whole arguments, the finish reason and usage in the last chunk, then `data: [DONE]`. (Mistral's own
 * first chunk carries `content: ""`, which opens an empty text block in pi-ai; the side-by-side test replays that.)
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
	const id = `mock${Math.random().toString(36).slice(2, 18)}`;
	const created = Math.floor(Date.now() / 1000);
	const model = reply.servedModel ?? request.body?.model ?? "mock";
	const frames: string[] = [];
	const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra = {}) =>
		frames.push(
			sseFrame({
				id,
				object: "chat.completion.chunk",
				created,
				model,
				choices: [{ index: 0, delta, finish_reason: finishReason }],
				...extra,
			}),
		);
	chunk({ role: "assistant" });
	for (const piece of reply.thinking ? chunks(reply.thinking, size) : []) {
		chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: piece }] }] });
	}
	for (const piece of reply.text ? chunks(reply.text, size) : []) chunk({ content: piece });
	for (const [n, call] of (reply.toolCalls ?? []).entries()) {
		const callId = call.id ?? `mock${n}abcde`.slice(0, 9);
		chunk({
			tool_calls: [{ id: callId, function: { name: call.name, arguments: toolArgumentsText(call) }, index: n }],
		});
	}
	if (reply.streamError) {
		chunk({}, "error");
		return frames;
	}
	const stop = reply.stopReason ?? (reply.toolCalls?.length ? "toolUse" : "stop");
	const cacheRead = usage.cacheRead ?? 0;
	chunk({}, stop === "toolUse" ? "tool_calls" : stop, {
		usage: {
			prompt_tokens: usage.input + cacheRead,
			completion_tokens: usage.output,
			total_tokens: usage.input + cacheRead + usage.output,
			...(cacheRead ? { prompt_tokens_details: { cached_tokens: cacheRead } } : {}),
		},
	});
	frames.push(sseFrame("[DONE]"));
	return frames;
}

export const mistralFormat: VendorFormat = {
	renderReply,
	errorBody: (status, message) => ({
		object: "error",
		message,
		type: status === 429 ? "rate_limited" : "invalid_request_error",
		code: String(status),
	}),
};
