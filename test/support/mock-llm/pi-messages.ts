/**
 * pi's own message protocol (`pi-messages`, the Radius gateway's): the mock answers it on `/pi/messages` (a base
 * URL ending in `/pi`; a bare `/messages` is Anthropic's). Every frame is `event: <type>` + `data: <event JSON>`:
 * `start`, then thinking, text and tool-call blocks by content index (`*_start`, `*_delta`s, `*_end` with the whole
 * content or call), then `done` with the stop reason, the usage priced by the backend (here at $1/$2/$0.1/$1.25 per
 * million input/output/cache-read/cache-write tokens) and a response id; a `streamError` ends with an `error` event
 * instead. An HTTP error body is `{ "error": { "message", "code" } }`.
 */
import {
	chunks,
	type MockReply,
	type MockUsage,
	type RecordedRequest,
	sseFrame,
	toolArgumentsText,
	type VendorFormat,
} from "./types.ts";

function pricedUsage(usage: MockUsage) {
	const cacheRead = usage.cacheRead ?? 0;
	const cacheWrite = usage.cacheWrite ?? 0;
	const cost = {
		input: usage.input / 1e6,
		output: (usage.output * 2) / 1e6,
		cacheRead: (cacheRead * 0.1) / 1e6,
		cacheWrite: (cacheWrite * 1.25) / 1e6,
		total: 0,
	};
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	return {
		input: usage.input,
		output: usage.output,
		cacheRead,
		cacheWrite,
		totalTokens: usage.input + usage.output + cacheRead + cacheWrite,
		cost,
	};
}

function renderReply(reply: MockReply, _request: RecordedRequest): string[] {
	const size = reply.chunkSize ?? 8;
	const frames: string[] = [];
	const send = (event: Record<string, unknown> & { type: string }) => frames.push(sseFrame(event, event.type));
	send({ type: "start" });
	let index = 0;
	if (reply.thinking !== undefined) {
		send({ type: "thinking_start", contentIndex: index });
		for (const delta of chunks(reply.thinking, size)) send({ type: "thinking_delta", contentIndex: index, delta });
		send({
			type: "thinking_end",
			contentIndex: index,
			content: reply.thinking,
			...(reply.thinkingSignature ? { contentSignature: reply.thinkingSignature } : {}),
		});
		index++;
	}
	if (reply.text !== undefined) {
		send({ type: "text_start", contentIndex: index });
		for (const delta of chunks(reply.text, size)) send({ type: "text_delta", contentIndex: index, delta });
		send({ type: "text_end", contentIndex: index, content: reply.text });
		index++;
	}
	for (const [n, call] of (reply.toolCalls ?? []).entries()) {
		const id = call.id ?? `call_mock_${n}`;
		send({ type: "toolcall_start", contentIndex: index, id, toolName: call.name });
		const json = toolArgumentsText(call);
		for (const delta of chunks(json, size)) send({ type: "toolcall_delta", contentIndex: index, delta });
		let args: unknown = {};
		try {
			args = JSON.parse(json);
		} catch {
			// Invalid JSON arguments: the call ends with none, as a backend that could not parse them would send.
		}
		send({
			type: "toolcall_end",
			contentIndex: index,
			toolCall: { type: "toolCall", id, name: call.name, arguments: args },
		});
		index++;
	}
	const usage = pricedUsage(reply.usage ?? { input: 10, output: 5 });
	const responseId = `resp_mock_${Math.random().toString(36).slice(2, 10)}`;
	if (reply.streamError) {
		send({ type: "error", reason: "error", usage, errorMessage: reply.streamError, responseId });
		return frames;
	}
	const reason = reply.stopReason ?? (reply.toolCalls?.length ? "toolUse" : "stop");
	send({ type: "done", reason, usage, responseId });
	return frames;
}

export const piMessagesFormat: VendorFormat = {
	renderReply,
	errorBody: (status, message) => ({
		error: { message, code: status === 429 ? "rate_limited" : status >= 500 ? "upstream_error" : "invalid_request" },
	}),
};
