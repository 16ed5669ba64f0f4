/**
 * OpenAI Responses API streaming format: `event: <type>` frames whose data repeats the type and carries a
 * `sequence_number`. Thinking is a reasoning item (summary deltas, `encrypted_content` on the finished item), text a
 * message item, tool calls function_call items with argument deltas; the response ends with `response.completed`
 * (or `response.incomplete` at max_output_tokens for stopReason "length"). A stream error is an `error` event
 * followed by `response.failed`.
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
	const frames: string[] = [];
	let sequence = 0;
	const send = (type: string, data: Record<string, unknown>) =>
		frames.push(sseFrame({ type, ...data, sequence_number: sequence++ }, type));
	const suffix = Math.random().toString(36).slice(2, 10);
	const response: Record<string, unknown> = {
		id: `resp_mock_${suffix}`,
		object: "response",
		created_at: Math.floor(Date.now() / 1000),
		status: "in_progress",
		model: request.body?.model ?? "mock",
		output: [],
		usage: null,
	};
	send("response.created", { response });
	send("response.in_progress", { response });
	const output: Record<string, unknown>[] = [];
	const item = (added: Record<string, unknown>, done: Record<string, unknown>, body: (index: number) => void) => {
		const index = output.length;
		send("response.output_item.added", { output_index: index, item: added });
		body(index);
		send("response.output_item.done", { output_index: index, item: done });
		output.push(done);
	};
	if (reply.thinking !== undefined) {
		const id = `rs_mock_${suffix}`;
		const text = reply.thinking;
		const done = {
			id,
			type: "reasoning",
			summary: [{ type: "summary_text", text }],
			encrypted_content: reply.thinkingSignature ?? "enc-mock",
		};
		item({ id, type: "reasoning", summary: [] }, done, (index) => {
			const at = { item_id: id, output_index: index, summary_index: 0 };
			send("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
			for (const delta of chunks(text, size)) send("response.reasoning_summary_text.delta", { ...at, delta });
			send("response.reasoning_summary_text.done", { ...at, text });
			send("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text } });
		});
	}
	if (reply.text !== undefined) {
		const id = `msg_mock_${suffix}`;
		const text = reply.text;
		const part = { type: "output_text", text, annotations: [] };
		const done = { id, type: "message", role: "assistant", status: "completed", content: [part] };
		item({ id, type: "message", role: "assistant", status: "in_progress", content: [] }, done, (index) => {
			const at = { item_id: id, output_index: index, content_index: 0 };
			send("response.content_part.added", { ...at, part: { ...part, text: "" } });
			for (const delta of chunks(text, size)) send("response.output_text.delta", { ...at, delta });
			send("response.output_text.done", { ...at, text });
			send("response.content_part.done", { ...at, part });
		});
	}
	for (const [n, call] of (reply.toolCalls ?? []).entries()) {
		const id = `fc_mock_${n}`;
		const args = toolArgumentsText(call);
		const base = { id, type: "function_call", call_id: call.id ?? `call_mock_${n}`, name: call.name };
		const done = { ...base, arguments: args, status: "completed" };
		item({ ...base, arguments: "", status: "in_progress" }, done, (index) => {
			const at = { item_id: id, output_index: index };
			for (const delta of chunks(args, size)) send("response.function_call_arguments.delta", { ...at, delta });
			send("response.function_call_arguments.done", { ...at, arguments: args });
		});
	}
	if (reply.streamError) {
		send("error", { code: "server_error", message: reply.streamError, param: null });
		const error = { code: "server_error", message: reply.streamError };
		send("response.failed", { response: { ...response, status: "failed", error, output } });
		return frames;
	}
	const cacheRead = usage.cacheRead ?? 0;
	const final = {
		...response,
		output,
		usage: {
			input_tokens: usage.input + cacheRead,
			input_tokens_details: { cached_tokens: cacheRead },
			output_tokens: usage.output,
			output_tokens_details: { reasoning_tokens: 0 },
			total_tokens: usage.input + cacheRead + usage.output,
		},
	};
	if (reply.stopReason === "length") {
		send("response.incomplete", {
			response: { ...final, status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
		});
	} else {
		send("response.completed", { response: { ...final, status: "completed", incomplete_details: null } });
	}
	return frames;
}

function errorType(status: number): { type: string; code: string | null } {
	if (status === 401) return { type: "invalid_request_error", code: "invalid_api_key" };
	if (status === 429) return { type: "requests", code: "rate_limit_exceeded" };
	if (status >= 500) return { type: "server_error", code: null };
	return { type: "invalid_request_error", code: null };
}

export const openaiResponsesFormat: VendorFormat = {
	renderReply,
	errorBody: (status, message) => ({ error: { message, ...errorType(status), param: null } }),
};
