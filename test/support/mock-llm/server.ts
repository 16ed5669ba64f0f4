/**
 * A wire-faithful mock LLM server for tests: loopback only, random port, and it stops by itself after a period
 * without requests. Steps are consumed in request order; each is answered in the format of the endpoint that was
 * called. Every request is recorded (path, headers, parsed body).
 */
import { anthropicFormat } from "./anthropic.ts";
import { bedrockFormat } from "./bedrock.ts";
import { googleFormat } from "./google.ts";
import { mistralFormat } from "./mistral.ts";
import { openaiCodexFormat } from "./openai-codex.ts";
import { openaiCompletionsFormat } from "./openai-completions.ts";
import { openaiResponsesFormat } from "./openai-responses.ts";
import { piMessagesFormat } from "./pi-messages.ts";
import type {
	MockHttpError,
	MockReply,
	MockStep,
	MockStreamFault,
	RecordedRequest,
	Vendor,
	VendorFormat,
} from "./types.ts";

export interface MockLlmServer {
	/** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
	url: string;
	requests: RecordedRequest[];
	/** Appends steps to the queue. */
	push(...steps: MockStep[]): void;
	pending(): number;
	/**
	 * Answers requests by content instead of from the queue while set: a step for the request, or undefined to take
	 * the next queued one (e.g. summaries one way, agent turns another, however many of each come).
	 */
	respond(responder: ((request: RecordedRequest) => MockStep | undefined) | undefined): void;
	/** Drops the steps not used yet and returns how many there were. */
	clear(): number;
	stop(): void;
}

export interface MockLlmOptions {
	steps?: MockStep[];
	/** Stop after this long without a request (default 60 s). */
	idleTimeoutMs?: number;
	/** Answers a request when no scripted step is queued (a long run that answers by what was asked). */
	respond?: (request: RecordedRequest) => MockStep;
}

const FORMATS: Record<Vendor, VendorFormat> = {
	anthropic: anthropicFormat,
	"openai-completions": openaiCompletionsFormat,
	"openai-responses": openaiResponsesFormat,
	google: googleFormat,
	mistral: mistralFormat,
	"openai-codex": openaiCodexFormat,
	"pi-messages": piMessagesFormat,
	bedrock: bedrockFormat,
};

export function vendorForPath(path: string): Vendor | undefined {
	if (/\/model\/[^/]+\/converse-stream$/.test(path)) return "bedrock";
	if (/\/pi\/messages$/.test(path)) return "pi-messages";
	if (/\/messages$/.test(path)) return "anthropic";
	if (/\/mistral\/v1\/chat\/completions$/.test(path)) return "mistral";
	if (/\/chat\/completions$/.test(path)) return "openai-completions";
	if (/\/codex\/responses$/.test(path)) return "openai-codex";
	if (/\/responses$/.test(path)) return "openai-responses";
	if (/:streamGenerateContent$/.test(path) || /:generateContent$/.test(path)) return "google";
	return undefined;
}

export function startMockLlm(options: MockLlmOptions = {}): MockLlmServer {
	const queue: MockStep[] = [...(options.steps ?? [])];
	const requests: RecordedRequest[] = [];
	const idleMs = options.idleTimeoutMs ?? 60_000;
	let idleTimer: ReturnType<typeof setTimeout> | undefined;
	let responder: ((request: RecordedRequest) => MockStep | undefined) | undefined;
	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		idleTimeout: 0,
		async fetch(req) {
			const arrived = performance.now();
			armIdle();
			const url = new URL(req.url);
			const vendor = vendorForPath(url.pathname);
			if (!vendor || req.method !== "POST") return new Response("not found", { status: 404 });
			const raw = new Uint8Array(await req.arrayBuffer());
			const zstd = req.headers.get("content-encoding") === "zstd";
			const text = new TextDecoder().decode(zstd ? Bun.zstdDecompressSync(raw) : raw);
			let body: unknown;
			try {
				body = JSON.parse(text);
			} catch {
				body = text;
			}
			const headers: Record<string, string> = {};
			req.headers.forEach((value, key) => {
				headers[key] = value;
			});
			const recorded: RecordedRequest = {
				method: req.method,
				path: url.pathname + url.search,
				headers,
				body,
				vendor,
				arrivedAt: arrived,
			};
			requests.push(recorded);
			const format = FORMATS[vendor];
			const rejected = await format.checkRequest?.(recorded, text);
			if (rejected) return httpError(format, rejected);
			const step = responder?.(recorded) ?? queue.shift() ?? options.respond?.(recorded);
			if (!step)
				return httpError(format, { kind: "http-error", status: 500, message: "mock server: no more scripted steps" });
			if (step.kind === "http-error") return httpError(format, step);
			if (step.kind === "raw") {
				const contentType = step.contentType ?? format.contentType ?? "text/event-stream";
				return new Response(step.body, { headers: { "content-type": contentType } });
			}
			const onEnd = () => {
				recorded.serverMs = performance.now() - arrived;
			};
			const contentType = format.contentType;
			if (step.kind === "hang") {
				if (step.beforeHeaders) await new Promise((resolve) => req.signal.addEventListener("abort", resolve));
				return streamFrames([], { hang: true, signal: req.signal, onEnd, contentType });
			}
			if (step.fault) return faultyStream(format, step, recorded, { signal: req.signal, onEnd, contentType });
			const frames = format.renderReply(step, recorded);
			return streamFrames(frames, { reply: step, signal: req.signal, onEnd, contentType });
		},
	});
	const armIdle = () => {
		if (idleTimer) clearTimeout(idleTimer);
		idleTimer = setTimeout(() => server.stop(true), idleMs);
		(idleTimer as { unref?: () => void }).unref?.();
	};
	armIdle();
	return {
		url: `http://127.0.0.1:${server.port}`,
		requests,
		push: (...steps) => queue.push(...steps),
		pending: () => queue.length,
		clear: () => queue.splice(0).length,
		respond: (fn) => {
			responder = fn;
		},
		stop: () => {
			if (idleTimer) clearTimeout(idleTimer);
			server.stop(true);
		},
	};
}

function httpError(format: VendorFormat, step: MockHttpError): Response {
	const body = step.body ?? format.errorBody(step.status, step.message ?? `mock error ${step.status}`);
	const text = typeof body === "string" ? body : JSON.stringify(body);
	const contentType = typeof body === "string" ? "text/plain" : "application/json";
	const vendorHeaders = step.body === undefined ? format.errorHeaders?.(step.status) : undefined;
	const headers = { "content-type": contentType, ...vendorHeaders, ...step.headers };
	return new Response(text, { status: step.status, headers });
}

/** A reply with its `fault` applied: the frames up to the fault, then the vendor's error, a stall or a reset. */
function faultyStream(
	format: VendorFormat,
	reply: MockReply,
	request: RecordedRequest,
	opts: { signal: AbortSignal; onEnd: () => void; contentType: string | undefined },
): Response {
	const fault = reply.fault as MockStreamFault;
	const message = reply.streamError ?? "Overloaded";
	const frames = format.renderReply(fault.kind === "error" ? { ...reply, streamError: message } : reply, request);
	const decoder = new TextDecoder();
	const text = (frame: string | Uint8Array) => (typeof frame === "string" ? frame : decoder.decode(frame));
	// The in-stream error frames are those naming the message (Mistral's finish_reason "error" names nothing: the last).
	let end = frames.length;
	if (fault.kind === "error") {
		const named = frames.findIndex((frame) => text(frame).includes(JSON.stringify(message).slice(1, -1)));
		end = named >= 0 ? named : frames.length - 1;
	}
	const cut = Math.max(0, Math.min(end, fault.afterFrames < 0 ? end + fault.afterFrames : fault.afterFrames));
	const head = frames.slice(0, cut);
	if (fault.kind === "error") return streamFrames([...head, ...frames.slice(end)], opts);
	const encoder = new TextEncoder();
	const body = new ReadableStream<Uint8Array>({
		async start(controller) {
			for (const frame of head) controller.enqueue(typeof frame === "string" ? encoder.encode(frame) : frame);
			// Let the frames reach the client before the fault.
			await Bun.sleep(20);
			if (fault.kind === "reset") {
				controller.error(new Error("mock server: connection reset"));
				opts.onEnd();
				return;
			}
			await new Promise<void>((resolve) => opts.signal.addEventListener("abort", () => resolve(), { once: true }));
		},
	});
	const contentType = opts.contentType ?? "text/event-stream";
	return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-cache" } });
}

function streamFrames(
	frames: (string | Uint8Array)[],
	opts: {
		reply?: MockReply;
		hang?: boolean;
		signal: AbortSignal;
		onEnd?: () => void;
		contentType?: string | undefined;
	},
): Response {
	const encoder = new TextEncoder();
	const cutAfter = opts.reply?.disconnectAfterFrames;
	const delay = opts.reply?.frameDelayMs ?? 0;
	const body = new ReadableStream<Uint8Array>({
		async start(controller) {
			for (const [i, frame] of frames.entries()) {
				if (opts.signal.aborted) return;
				if (cutAfter !== undefined && i >= cutAfter) {
					// The connection ends here, before the vendor's final event: what a dropped stream looks like.
					controller.close();
					opts.onEnd?.();
					return;
				}
				controller.enqueue(typeof frame === "string" ? encoder.encode(frame) : frame);
				if (delay > 0) await Bun.sleep(delay);
			}
			if (opts.hang) {
				await new Promise<void>((resolve) => opts.signal.addEventListener("abort", () => resolve(), { once: true }));
				return;
			}
			controller.close();
			opts.onEnd?.();
		},
	});
	const contentType = opts.contentType ?? "text/event-stream";
	return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-cache" } });
}
