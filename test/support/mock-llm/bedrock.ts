/**
 * Amazon Bedrock's ConverseStream (`POST /model/<model id>/converse-stream`): the reply is AWS's binary event
 * stream (`application/vnd.amazon.eventstream`), one message per event with `:event-type`, `:content-type` and
 * `:message-type` headers and a JSON payload padded with a `p` field as AWS pads it. Reasoning and text open on
 * their first delta (no `contentBlockStart`), tool calls with `contentBlockStart`; `messageStop` carries the stop
 * reason and `metadata` the usage. A `streamError` becomes a `modelStreamErrorException` message.
 *
 * Requests must be authorised as AWS wants: `Authorization: Bearer …`, or a SigV4 signature that is checked
 * against the secret of a known test key (`MOCK_AWS_KEYS`), or at least well formed for any other key; a bad
 * signature gets AWS's 403 `InvalidSignatureException`.
 */
import { crc32 } from "../../../src/ai/aws/event-stream.ts";
import { sha256Hex, signRequest } from "../../../src/ai/aws/sigv4.ts";
import { chunks, type MockHttpError, type MockReply, type RecordedRequest, type VendorFormat } from "./types.ts";

/** Test keys whose signatures the mock verifies (access key id → secret). */
export const MOCK_AWS_KEYS: Record<string, string> = {
	AKIAMOCKTESTKEY00001: "mockSecret/0001+abcdefghijklmnopqrstuvwx",
	AKIAMOCKTESTKEY00002: "mockSecret/0002+abcdefghijklmnopqrstuvwx",
	"dummy-access-key": "dummy-secret-key",
};

const enc = new TextEncoder();

/** Encodes one event-stream message with string headers. */
export function encodeEventMessage(headers: Record<string, string>, payload: Uint8Array | string): Uint8Array {
	const head: number[] = [];
	for (const [name, value] of Object.entries(headers)) {
		const n = enc.encode(name);
		const v = enc.encode(value);
		head.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v);
	}
	const body = typeof payload === "string" ? enc.encode(payload) : payload;
	const total = 12 + head.length + body.length + 4;
	const out = new Uint8Array(total);
	const view = new DataView(out.buffer);
	view.setUint32(0, total);
	view.setUint32(4, head.length);
	view.setUint32(8, crc32(out, 0, 8));
	out.set(head, 12);
	out.set(body, 12 + head.length);
	view.setUint32(total - 4, crc32(out, 0, total - 4));
	return out;
}

let padSeed = 0;
function pad(): string {
	padSeed = (padSeed + 7) % 26;
	return "abcdefghijklmnopqrstuvwxyz".slice(0, 4 + padSeed);
}

/** An `event` message (`messageStart`, `contentBlockDelta`, …) with a padded JSON payload. */
export function eventFrame(type: string, payload: Record<string, unknown>): Uint8Array {
	return encodeEventMessage(
		{ ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
		JSON.stringify({ ...payload, p: pad() }),
	);
}

/** An `exception` message, e.g. `throttlingException` with `{ message }`. */
export function exceptionFrame(type: string, payload: Record<string, unknown>): Uint8Array {
	return encodeEventMessage(
		{ ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" },
		JSON.stringify(payload),
	);
}

function renderReply(reply: MockReply): Uint8Array[] {
	const size = reply.chunkSize ?? 8;
	const usage = reply.usage ?? { input: 10, output: 5 };
	const frames: Uint8Array[] = [eventFrame("messageStart", { role: "assistant" })];
	let index = 0;
	if (reply.thinking || reply.redactedThinking) {
		for (const piece of reply.thinking ? chunks(reply.thinking, size) : []) {
			frames.push(
				eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { text: piece } } }),
			);
		}
		if (reply.redactedThinking) {
			frames.push(
				eventFrame("contentBlockDelta", {
					contentBlockIndex: index,
					delta: { reasoningContent: { redactedContent: reply.redactedThinking } },
				}),
			);
		} else {
			const signature = reply.thinkingSignature ?? "mock-signature";
			frames.push(
				eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { signature } } }),
			);
		}
		frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index++ }));
	}
	if (reply.text) {
		for (const piece of chunks(reply.text, size)) {
			frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { text: piece } }));
		}
		frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index++ }));
	}
	for (const [n, call] of (reply.toolCalls ?? []).entries()) {
		const toolUseId = call.id ?? `tooluse_mock${n}`;
		frames.push(
			eventFrame("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId, name: call.name } } }),
		);
		const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
		for (const piece of chunks(args, size)) {
			frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input: piece } } }));
		}
		frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index++ }));
	}
	if (reply.streamError) {
		frames.push(
			exceptionFrame("modelStreamErrorException", {
				message: reply.streamError,
				originalStatusCode: 500,
				originalMessage: reply.streamError,
			}),
		);
		return frames;
	}
	const stop = reply.stopReason ?? (reply.toolCalls?.length ? "toolUse" : "stop");
	const stopReason = stop === "toolUse" ? "tool_use" : stop === "length" ? "max_tokens" : "end_turn";
	frames.push(eventFrame("messageStop", { stopReason }));
	const cacheRead = usage.cacheRead ?? 0;
	const cacheWrite = usage.cacheWrite ?? 0;
	frames.push(
		eventFrame("metadata", {
			usage: {
				inputTokens: usage.input,
				outputTokens: usage.output,
				totalTokens: usage.input + usage.output + cacheRead + cacheWrite,
				...(cacheRead ? { cacheReadInputTokens: cacheRead } : {}),
				...(cacheWrite ? { cacheWriteInputTokens: cacheWrite } : {}),
			},
			metrics: { latencyMs: 42 },
		}),
	);
	return frames;
}

const ERROR_TYPES: Record<number, string> = {
	400: "ValidationException",
	403: "AccessDeniedException",
	404: "ResourceNotFoundException",
	424: "ModelErrorException",
	429: "ThrottlingException",
	500: "InternalServerException",
	503: "ServiceUnavailableException",
};

function denied(type: string, message: string): MockHttpError {
	return {
		kind: "http-error",
		status: 403,
		body: { message },
		headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/` },
	};
}

/** Checks the request's authorisation as Bedrock would; returns the 403 to send, or undefined when it passes. */
async function checkRequest(request: RecordedRequest, rawBody: string): Promise<MockHttpError | undefined> {
	const authorization = request.headers.authorization ?? "";
	if (authorization.startsWith("Bearer "))
		return authorization.length > 7 ? undefined : denied("UnrecognizedClientException", "empty bearer token");
	const match =
		/^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/bedrock\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
			authorization,
		);
	if (!match) return denied("MissingAuthenticationTokenException", "Missing Authentication Token");
	const [, keyId, , region, signedList, signature] = match as unknown as string[];
	const date = request.headers["x-amz-date"];
	if (!date || !/^\d{8}T\d{6}Z$/.test(date)) return denied("IncompleteSignatureException", "x-amz-date is missing");
	const claimed = request.headers["x-amz-content-sha256"];
	if (claimed !== undefined && claimed !== (await sha256Hex(rawBody)))
		return denied("InvalidSignatureException", "The provided x-amz-content-sha256 header does not match the body.");
	const secret = MOCK_AWS_KEYS[keyId as string];
	if (secret === undefined) return undefined;
	const signed: Record<string, string> = {};
	for (const name of (signedList as string).split(";")) {
		if (name !== "x-amz-date" && name !== "x-amz-security-token") signed[name] = request.headers[name] ?? "";
	}
	const iso = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`;
	const token = request.headers["x-amz-security-token"];
	const again = await signRequest({
		method: request.method,
		url: `http://${request.headers.host}${request.path}`,
		headers: signed,
		body: rawBody,
		region: region as string,
		service: "bedrock",
		credentials: { accessKeyId: keyId as string, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) },
		date: new Date(iso),
		contentSha256: signed["x-amz-content-sha256"] !== undefined,
	});
	if (!again.authorization?.endsWith(`Signature=${signature}`)) {
		return denied(
			"InvalidSignatureException",
			"The request signature we calculated does not match the signature you provided.",
		);
	}
	return undefined;
}

export const bedrockFormat: VendorFormat = {
	renderReply,
	errorBody: (_status, message) => ({ message }),
	errorHeaders: (status) => ({
		"x-amzn-errortype": `${ERROR_TYPES[status] ?? "InternalServerException"}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
		"x-amzn-requestid": "mock-request-id-0001",
	}),
	contentType: "application/vnd.amazon.eventstream",
	checkRequest,
};
