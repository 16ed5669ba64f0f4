/**
 * Scripts for the mock LLM server, vendor-neutral. The server renders each step in the wire format of the API the
 * request came in on (Anthropic, OpenAI chat completions, OpenAI responses, Google Gemini).
 */

export interface MockToolCall {
	id?: string;
	name: string;
	/** An object is sent as JSON; a string is sent verbatim (to test invalid JSON). */
	arguments: Record<string, unknown> | string;
}

export interface MockUsage {
	input: number;
	output: number;
	cacheRead?: number;
	cacheWrite?: number;
}

/** A streamed reply. Blocks are sent in order: thinking, text, tool calls. */
export interface MockReply {
	kind: "reply";
	thinking?: string;
	/** Signature of the thinking block (Anthropic). */
	thinkingSignature?: string;
	/** An Anthropic redacted_thinking block's data (other vendors ignore it). */
	redactedThinking?: string;
	text?: string;
	toolCalls?: MockToolCall[];
	/** The model the response says it came from (Anthropic, OpenAI chat completions); default: the one asked for. */
	servedModel?: string;
	/** Default: "toolUse" when there are tool calls, else "stop". */
	stopReason?: "stop" | "length" | "toolUse";
	usage?: MockUsage;
	/** Characters per streamed delta (default 8). */
	chunkSize?: number;
	/** Close the connection abruptly after this many SSE frames. */
	disconnectAfterFrames?: number;
	/** Wait this long between frames (default 0). */
	frameDelayMs?: number;
	/** Send a vendor "error" event in the stream after the content (Anthropic/OpenAI style). */
	streamError?: string;
	/** A fault part way through the stream (see `MockStreamFault`). */
	fault?: MockStreamFault;
}

/**
 * A fault injected into a streamed reply after `afterFrames` frames (negative: that many frames before the end of
 * the content, e.g. -2 cuts a tool call's arguments short when they span more frames):
 * - `error`: the vendor's in-stream error (the reply's `streamError`, default "Overloaded") right there;
 * - `stall`: nothing more is sent and the connection stays open until the client goes away;
 * - `reset`: the connection is destroyed (the client reads ECONNRESET or "other side closed").
 */
export interface MockStreamFault {
	kind: "error" | "stall" | "reset";
	afterFrames: number;
}

/** An HTTP error response. */
export interface MockHttpError {
	kind: "http-error";
	status: number;
	/** JSON body (objects are serialised) or text. Default: the vendor's error shape with `message`. */
	body?: unknown;
	message?: string;
	headers?: Record<string, string>;
}

/** A raw body, sent as is with status 200 (malformed SSE, wrong content). */
export interface MockRaw {
	kind: "raw";
	/** Text, or bytes for binary formats (Bedrock's event stream). */
	body: string | Uint8Array;
	contentType?: string;
}

/** Headers are sent, then nothing until the client aborts; with `beforeHeaders`, not even the headers. */
export interface MockHang {
	kind: "hang";
	beforeHeaders?: boolean;
}

export type MockStep = MockReply | MockHttpError | MockRaw | MockHang;

export interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: any;
	/** Which vendor format the server answered in. */
	vendor: Vendor;
	/** `performance.now()` when the request arrived (the mock runs in the test's process). */
	arrivedAt?: number;
	/** Server-side time from the request's arrival to the end of the response body (ms), once it ended. */
	serverMs?: number;
}

export type Vendor =
	| "anthropic"
	| "openai-completions"
	| "openai-responses"
	| "google"
	| "mistral"
	| "openai-codex"
	| "pi-messages"
	| "bedrock";

/** Renders a reply as the SSE frames of one vendor (each a complete "event:/data:" frame ending in a blank line). */
export type ReplyRenderer = (reply: MockReply, request: RecordedRequest) => (string | Uint8Array)[];

/** The vendor's JSON error body for an HTTP error without an explicit body. */
export type ErrorBodyRenderer = (status: number, message: string) => unknown;

export interface VendorFormat {
	renderReply: ReplyRenderer;
	errorBody: ErrorBodyRenderer;
	/** Extra headers on HTTP errors (Bedrock's `x-amzn-errortype`). */
	errorHeaders?: (status: number) => Record<string, string>;
	/** Content type of a streamed reply (default `text/event-stream`). */
	contentType?: string;
	/** Rejects a request before a step is used (Bedrock checks its SigV4 signature); undefined lets it through. */
	checkRequest?: (request: RecordedRequest, rawBody: string) => Promise<MockHttpError | undefined>;
}

/** Splits text into chunks of `size` characters (at least one chunk for non-empty text). */
export function chunks(text: string, size = 8): string[] {
	const out: string[] = [];
	for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
	return out;
}

export function sseFrame(data: unknown, event?: string): string {
	return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

export function toolArgumentsText(call: MockToolCall): string {
	return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}
