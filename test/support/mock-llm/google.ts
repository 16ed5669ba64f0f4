/**
 * Gemini API streaming format (`streamGenerateContent?alt=sse`): every frame is a plain `data:` line holding one
 * GenerateContentResponse; there is no end event, the last chunk carries `finishReason` and `usageMetadata`.
 * Vertex AI (`google-vertex`) streams the same chunks; its paths (`/v1/publishers/google/models/{id}:…`, or with
 * `projects/{p}/locations/{l}/` in front) end the same way, so this format answers them too.
 *
 * Mapping of a MockReply:
 * - thinking: parts `{text, thought: true}`, then text: parts `{text}`, then one chunk per tool call with a
 *   `functionCall` part carrying the whole `args` (and `id` only when the MockToolCall has one, as Gemini usually
 *   sends none);
 * - `thinkingSignature` rides as `thoughtSignature` on the last thought part, else on the first functionCall part,
 *   else on the last text part (where Gemini puts it);
 * - a string `arguments` that parses as JSON is sent as that value; one that does not is spliced verbatim into
 *   the frame, which makes the whole `data:` line malformed JSON (Gemini never streams partial arguments, so this
 *   is how bad arguments reach the client's error path);
 * - `streamError`: after the content, a chunk `{error: {code: 503, message, status: "UNAVAILABLE"}}` and no
 *   finishReason (what Gemini sends when a stream fails after it started). Blocked replies (finishReason SAFETY)
 *   are scripted with a `raw` step;
 * - usage: promptTokenCount = input + cacheRead, cachedContentTokenCount = cacheRead, thoughtsTokenCount = a
 *   share of `output` when there is thinking, candidatesTokenCount = the rest (cacheWrite has no Gemini field).
 */
import { chunks, type MockReply, type RecordedRequest, sseFrame, type VendorFormat } from "./types.ts";

type Part = Record<string, unknown>;
type Chunk = { parts: Part[] } | { raw: string };

function renderReply(reply: MockReply, request: RecordedRequest): string[] {
	const size = reply.chunkSize ?? 8;
	const modelVersion = /\/models\/([^:/]+):/.exec(request.path)?.[1] ?? "mock";
	const responseId = `mock_${Math.random().toString(36).slice(2, 10)}`;
	const items: Chunk[] = [];
	const thoughtParts: Part[] = [];
	const textParts: Part[] = [];
	const callParts: Part[] = [];
	for (const piece of chunks(reply.thinking ?? "", size)) {
		const part: Part = { text: piece, thought: true };
		thoughtParts.push(part);
		items.push({ parts: [part] });
	}
	for (const piece of chunks(reply.text ?? "", size)) {
		const part: Part = { text: piece };
		textParts.push(part);
		items.push({ parts: [part] });
	}
	for (const call of reply.toolCalls ?? []) {
		const args = parseArgs(call.arguments);
		if (!args.ok) {
			const head = `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":${JSON.stringify(call.name)},"args":`;
			items.push({ raw: `data: ${head}${call.arguments}}}]},"index":0}],"responseId":"${responseId}"}\n\n` });
			continue;
		}
		const part: Part = { functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: args.value } };
		callParts.push(part);
		items.push({ parts: [part] });
	}
	const signed = thoughtParts.at(-1) ?? callParts[0] ?? textParts.at(-1);
	if (signed && reply.thinkingSignature) signed.thoughtSignature = reply.thinkingSignature;

	const response = (parts: Part[], extra: Record<string, unknown> = {}) => ({
		candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
		...(extra.finishReason ? { usageMetadata: usageMetadata(reply) } : {}),
		modelVersion,
		responseId,
	});
	const frames = items.map((item) => ("raw" in item ? item.raw : sseFrame(response(item.parts))));
	if (reply.streamError) {
		frames.push(sseFrame({ error: { code: 503, message: reply.streamError, status: "UNAVAILABLE" } }));
		return frames;
	}
	const stop = reply.stopReason ?? (reply.toolCalls?.length ? "toolUse" : "stop");
	const finish = { finishReason: stop === "length" ? "MAX_TOKENS" : "STOP" };
	// The finish reason and usage ride on the last content chunk (a separate chunk when that one is raw or absent).
	const last = items.at(-1);
	if (last && "parts" in last) frames[frames.length - 1] = sseFrame(response(last.parts, finish));
	else frames.push(sseFrame(response([{ text: "" }], finish)));
	return frames;
}

function parseArgs(args: Record<string, unknown> | string): { ok: true; value: unknown } | { ok: false } {
	if (typeof args !== "string") return { ok: true, value: args };
	try {
		return { ok: true, value: JSON.parse(args) };
	} catch {
		return { ok: false };
	}
}

function usageMetadata(reply: MockReply): Record<string, number> {
	const usage = reply.usage ?? { input: 10, output: 5 };
	const cached = usage.cacheRead ?? 0;
	const thoughts = reply.thinking ? Math.min(usage.output, Math.ceil(reply.thinking.length / 4)) : 0;
	const prompt = usage.input + cached;
	return {
		promptTokenCount: prompt,
		candidatesTokenCount: usage.output - thoughts,
		totalTokenCount: prompt + usage.output,
		...(cached ? { cachedContentTokenCount: cached } : {}),
		...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
	};
}

const STATUS: Record<number, string> = {
	400: "INVALID_ARGUMENT",
	401: "UNAUTHENTICATED",
	403: "PERMISSION_DENIED",
	404: "NOT_FOUND",
	429: "RESOURCE_EXHAUSTED",
	500: "INTERNAL",
	503: "UNAVAILABLE",
	504: "DEADLINE_EXCEEDED",
};

export const googleFormat: VendorFormat = {
	renderReply,
	errorBody: (code, message) => ({
		error: { code, message, status: STATUS[code] ?? (code >= 500 ? "UNAVAILABLE" : "FAILED_PRECONDITION") },
	}),
};
