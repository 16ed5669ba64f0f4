/** Anthropic Messages API streaming format. */
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
	const send = (type: string, data: Record<string, unknown>) => frames.push(sseFrame({ type, ...data }, type));
	send("message_start", {
		message: {
			id: `msg_mock_${Math.random().toString(36).slice(2, 10)}`,
			type: "message",
			role: "assistant",
			model: reply.servedModel ?? request.body?.model ?? "mock",
			content: [],
			stop_reason: null,
			usage: {
				input_tokens: usage.input,
				output_tokens: 1,
				cache_read_input_tokens: usage.cacheRead ?? 0,
				cache_creation_input_tokens: usage.cacheWrite ?? 0,
			},
		},
	});
	let index = 0;
	if (reply.thinking !== undefined) {
		send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
		for (const piece of chunks(reply.thinking, size)) {
			send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } });
		}
		send("content_block_delta", {
			index,
			delta: { type: "signature_delta", signature: reply.thinkingSignature ?? "sig-mock" },
		});
		send("content_block_stop", { index });
		index++;
	}
	if (reply.redactedThinking !== undefined) {
		send("content_block_start", { index, content_block: { type: "redacted_thinking", data: reply.redactedThinking } });
		send("content_block_stop", { index });
		index++;
	}
	if (reply.text !== undefined) {
		send("content_block_start", { index, content_block: { type: "text", text: "" } });
		for (const piece of chunks(reply.text, size))
			send("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
		send("content_block_stop", { index });
		index++;
	}
	for (const [n, call] of (reply.toolCalls ?? []).entries()) {
		const id = call.id ?? `toolu_mock_${n}`;
		send("content_block_start", { index, content_block: { type: "tool_use", id, name: call.name, input: {} } });
		for (const piece of chunks(toolArgumentsText(call), size)) {
			send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
		}
		send("content_block_stop", { index });
		index++;
	}
	if (reply.streamError) {
		send("error", { error: { type: "overloaded_error", message: reply.streamError } });
		return frames;
	}
	const stop = reply.stopReason ?? (reply.toolCalls?.length ? "toolUse" : "stop");
	const stopReason = stop === "toolUse" ? "tool_use" : stop === "length" ? "max_tokens" : "end_turn";
	send("message_delta", {
		delta: { stop_reason: stopReason, stop_sequence: null },
		usage: { output_tokens: usage.output },
	});
	send("message_stop", {});
	return frames;
}

export const anthropicFormat: VendorFormat = {
	renderReply,
	errorBody: (status, message) => ({
		type: "error",
		error: {
			type:
				status === 429
					? "rate_limit_error"
					: status === 529
						? "overloaded_error"
						: status >= 500
							? "api_error"
							: "invalid_request_error",
			message,
		},
	}),
};
