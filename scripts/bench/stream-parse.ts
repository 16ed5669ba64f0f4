/**
 * Stream parsing per wire format, ours beside pi-ai 0.87.1: for each format a ~10 MB recorded reply (thinking, a
 * long text and a tool call, rendered once by the mock LLM's renderer for that format, outside the timing) is
 * handed to the provider from memory: `fetch` is replaced, in this process and in pi's, by one that answers with a
 * ReadableStream of the recorded bytes in 16 KB chunks, so the time is the provider's own work — decoding, SSE or
 * event-stream framing, JSON, events, the final message — not a socket. pi-ai's AWS SDK does not use `fetch`, so
 * pi's bedrock row reads the same bytes from a loopback server (marked "loopback"). Ours runs in this process,
 * pi-ai's `api/<format>.js` under Node 22 (a helper process); runs interleave (ours, pi, ours, pi, …) so both see
 * the same machine load. Prints the load average, median wall ms, ms per 100 KB of stream (target for ours:
 * < 1 ms), median CPU ms of the process (steadier on a loaded machine), the machine's floor for the same bytes
 * (decode, split, `JSON.parse` each payload, no events; interleaved too) and ours divided by it, and pi's times
 * divided by ours.
 * A format is one row of FORMATS: its api id, the URL path it posts to, its renderer and any options it needs.
 * Usage: bun scripts/bench/stream-parse.ts [runs] [--ours] [format…]   (default 5 runs, every format; `--ours`
 * skips pi, e.g. under `bun --cpu-prof`)
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { type Model, stream } from "../../src/ai/index.ts";
import { anthropicFormat } from "../../test/support/mock-llm/anthropic.ts";
import { bedrockFormat } from "../../test/support/mock-llm/bedrock.ts";
import { googleFormat } from "../../test/support/mock-llm/google.ts";
import { mistralFormat } from "../../test/support/mock-llm/mistral.ts";
import { codexToken, openaiCodexFormat } from "../../test/support/mock-llm/openai-codex.ts";
import { openaiCompletionsFormat } from "../../test/support/mock-llm/openai-completions.ts";
import { openaiResponsesFormat } from "../../test/support/mock-llm/openai-responses.ts";
import { piMessagesFormat } from "../../test/support/mock-llm/pi-messages.ts";
import type { MockReply, Vendor, VendorFormat } from "../../test/support/mock-llm/types.ts";
import { ensureRunnablePi } from "../conformance-cache.ts";
import { median } from "./lib.ts";

interface Format {
	api: string;
	provider: string;
	/** Appended to the server URL to make the model's baseUrl. */
	basePath: string;
	/** The path the request goes to (handed to the renderer as the recorded request's). */
	requestPath: string;
	vendor: Vendor;
	render: VendorFormat;
	/** Extra model fields the format needs. */
	model?: Partial<Model>;
	/** Stream options (credentials); `{ apiKey: "bench" }` when absent. */
	options?: Record<string, unknown>;
	contentType?: string;
	/** pi-ai reads this format without `fetch` (AWS SDK): its side is served over loopback HTTP. */
	piLoopback?: boolean;
}

const AWS_ENV = {
	AWS_ACCESS_KEY_ID: "AKIAMOCKTESTKEY00001",
	AWS_SECRET_ACCESS_KEY: "mockSecret/0001+abcdefghijklmnopqrstuvwx",
	AWS_REGION: "us-west-2",
	AWS_BEDROCK_FORCE_HTTP1: "1",
};

/** One row per wire format we ship. */
const FORMATS: Format[] = [
	{
		api: "anthropic-messages",
		provider: "anthropic",
		basePath: "",
		requestPath: "/v1/messages",
		vendor: "anthropic",
		render: anthropicFormat,
	},
	{
		api: "openai-completions",
		provider: "openai",
		basePath: "/v1",
		requestPath: "/v1/chat/completions",
		vendor: "openai-completions",
		render: openaiCompletionsFormat,
	},
	{
		api: "openai-responses",
		provider: "openai",
		basePath: "/v1",
		requestPath: "/v1/responses",
		vendor: "openai-responses",
		render: openaiResponsesFormat,
	},
	{
		api: "google-generative-ai",
		provider: "google",
		basePath: "/v1beta",
		requestPath: "/v1beta/models/bench:streamGenerateContent",
		vendor: "google",
		render: googleFormat,
	},
	{
		api: "mistral-conversations",
		provider: "mistral",
		basePath: "/mistral",
		requestPath: "/mistral/v1/chat/completions",
		vendor: "mistral",
		render: mistralFormat,
	},
	{
		api: "pi-messages",
		provider: "radius",
		basePath: "/pi",
		requestPath: "/pi/messages",
		vendor: "pi-messages",
		render: piMessagesFormat,
	},
	{
		api: "openai-codex-responses",
		provider: "openai-codex",
		basePath: "/backend-api",
		requestPath: "/backend-api/codex/responses",
		vendor: "openai-codex",
		render: openaiCodexFormat,
		options: { apiKey: codexToken("acct-bench"), transport: "sse" },
	},
	{
		api: "azure-openai-responses",
		provider: "azure-openai-responses",
		basePath: "/openai/v1",
		requestPath: "/openai/v1/responses",
		vendor: "openai-responses",
		render: openaiResponsesFormat,
	},
	{
		api: "google-vertex",
		provider: "google-vertex",
		basePath: "",
		requestPath: "/v1/publishers/google/models/bench:streamGenerateContent",
		vendor: "google",
		render: googleFormat,
	},
	{
		api: "bedrock-converse-stream",
		provider: "amazon-bedrock",
		basePath: "",
		requestPath: "/model/bench/converse-stream",
		vendor: "bedrock",
		render: bedrockFormat,
		options: { env: AWS_ENV },
		contentType: "application/vnd.amazon.eventstream",
		piLoopback: true,
	},
];

const TARGET_BYTES = 10 * 1024 * 1024;
const CHUNK = 16 * 1024;
const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
const oursOnly = args.includes("--ours");
const only = args.filter((a) => !/^\d+$/.test(a) && a !== "--ours");
const formats = only.length > 0 ? FORMATS.filter((f) => only.includes(f.api)) : FORMATS;

/** The reply: a thinking part, a long text and one tool call; `size` characters of text in 24-character deltas. */
function reply(size: number): MockReply {
	const words = "the quick brown fox jumps over the lazy dog while the agent streams a long answer ";
	const text = words.repeat(Math.ceil(size / words.length)).slice(0, size);
	return {
		kind: "reply",
		thinking: "weighing the options before answering ".repeat(50),
		thinkingSignature: "bench-signature",
		text,
		toolCalls: [{ id: "call_bench", name: "read", arguments: { path: "src/main.ts", offset: 1, limit: 200 } }],
		usage: { input: 1200, output: 250_000, cacheRead: 300 },
		chunkSize: 24,
	};
}

/** Renders about TARGET_BYTES of the format: the text length is scaled from a small sample's bytes per character. */
function recorded(format: Format): Uint8Array {
	const request = {
		method: "POST",
		path: format.requestPath,
		headers: {},
		body: { model: "bench" },
		vendor: format.vendor,
	};
	const render = (size: number) =>
		Buffer.concat(format.render.renderReply(reply(size), request).map((part) => Buffer.from(part)));
	const sample = 64 * 1024;
	const perChar = render(sample).length / sample;
	return new Uint8Array(render(Math.floor(TARGET_BYTES / perChar)));
}

/** A ReadableStream of `bytes` in CHUNK-sized pieces, all enqueued up front. */
function memoryStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
	return new ReadableStream({
		start(controller) {
			for (let i = 0; i < bytes.length; i += CHUNK) controller.enqueue(bytes.subarray(i, i + CHUNK));
			controller.close();
		},
	});
}

let current: Uint8Array = new Uint8Array();
let currentType = "text/event-stream";
/** Our side's `fetch`: the recorded bytes from memory (the request body is still built and read). */
const memoryFetch = async (_input: unknown, init?: RequestInit): Promise<Response> => {
	void init?.body;
	return new Response(memoryStream(current), { status: 200, headers: { "content-type": currentType } });
};
globalThis.fetch = Object.assign(memoryFetch, { preconnect: () => {} }) as unknown as typeof fetch;

const server = Bun.serve({
	hostname: "127.0.0.1",
	port: 0,
	idleTimeout: 0,
	fetch: async (req) => {
		await req.arrayBuffer();
		return new Response(memoryStream(current), { headers: { "content-type": currentType } });
	},
});
const url = `http://127.0.0.1:${server.port}`;

function modelFor(format: Format): Model {
	return {
		id: "bench",
		name: "bench",
		api: format.api,
		provider: format.provider,
		baseUrl: url + format.basePath,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 },
		contextWindow: 1_000_000,
		maxTokens: 64_000,
		...format.model,
	};
}
const CONTEXT = { messages: [{ role: "user" as const, content: "go", timestamp: 0 }] };

interface RunResult {
	ms: number;
	/** CPU time of the whole process over the run (user + system, GC threads included): less moved by load. */
	cpuMs: number;
	events: number;
	stopReason: string;
	textLength: number;
	error?: string;
}

async function runOurs(format: Format): Promise<RunResult> {
	const cpu = process.cpuUsage();
	const started = performance.now();
	const s = stream(modelFor(format), CONTEXT, (format.options ?? { apiKey: "bench" }) as never);
	let events = 0;
	for await (const _ of s) events++;
	const result = await s.result();
	const ms = performance.now() - started;
	const used = process.cpuUsage(cpu);
	const text = result.content.find((block) => block.type === "text");
	return {
		ms,
		cpuMs: (used.user + used.system) / 1000,
		events,
		stopReason: result.stopReason,
		textLength: text?.type === "text" ? text.text.length : 0,
		...(result.errorMessage ? { error: result.errorMessage } : {}),
	};
}

/**
 * The machine's floor for the same bytes: the least any parser of the format must do, with no events built —
 * read the chunks, decode UTF-8, split lines and `JSON.parse` every `data:` payload (SSE), or walk the binary
 * frames and `JSON.parse` each payload (AWS event stream).
 */
async function runFloor(format: Format): Promise<{ ms: number; parsed: number }> {
	const started = performance.now();
	let parsed = 0;
	const reader = memoryStream(current).getReader();
	if (format.contentType === "application/vnd.amazon.eventstream") {
		const decoder = new TextDecoder();
		let pending = new Uint8Array();
		for (;;) {
			const { value, done } = await reader.read();
			if (done) break;
			const joined = new Uint8Array(pending.length + value.length);
			joined.set(pending);
			joined.set(value, pending.length);
			const view = new DataView(joined.buffer);
			let at = 0;
			while (joined.length - at >= 12) {
				const total = view.getUint32(at);
				if (joined.length - at < total) break;
				const headers = view.getUint32(at + 4);
				const body = joined.subarray(at + 12 + headers, at + total - 4);
				if (body.length > 0) {
					JSON.parse(decoder.decode(body));
					parsed++;
				}
				at += total;
			}
			pending = joined.slice(at);
		}
	} else {
		const decoder = new TextDecoder();
		let rest = "";
		for (;;) {
			const { value, done } = await reader.read();
			if (done) break;
			const lines = (rest + decoder.decode(value, { stream: true })).split("\n");
			rest = lines.pop() ?? "";
			for (const line of lines) {
				if (!line.startsWith("data:")) continue;
				const payload = line.slice(5).trim();
				if (payload === "" || payload === "[DONE]") continue;
				JSON.parse(payload);
				parsed++;
			}
		}
	}
	return { ms: performance.now() - started, parsed };
}

/** pi-ai under Node 22: a helper process that runs one request per line of input and answers with a line. */
const PI_RUNNER = `
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
const modules = process.argv[2];
const loaded = new Map();
let bytes = new Uint8Array();
let contentType = "text/event-stream";
const CHUNK = ${CHUNK};
globalThis.fetch = async (_input, init) => {
	void (init && init.body);
	const body = new ReadableStream({
		start(controller) {
			for (let i = 0; i < bytes.length; i += CHUNK) controller.enqueue(bytes.subarray(i, i + CHUNK));
			controller.close();
		},
	});
	return new Response(body, { status: 200, headers: { "content-type": contentType } });
};
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
	const { api, model, context, options, file, type } = JSON.parse(line);
	let out;
	try {
		if (file) bytes = new Uint8Array(readFileSync(file));
		contentType = type;
		if (!loaded.has(api)) loaded.set(api, await import(modules + "/@earendil-works/pi-ai/dist/api/" + api + ".js"));
		const cpu = process.cpuUsage();
		const started = performance.now();
		const s = loaded.get(api).stream(model, context, options);
		let events = 0;
		for await (const _ of s) events++;
		const result = await s.result();
		const ms = performance.now() - started;
		const used = process.cpuUsage(cpu);
		const text = result.content.find((block) => block.type === "text");
		out = { ms, cpuMs: (used.user + used.system) / 1000, events, stopReason: result.stopReason, textLength: text ? text.text.length : 0, error: result.errorMessage };
	} catch (error) {
		out = { ms: 0, cpuMs: 0, events: 0, stopReason: "error", textLength: 0, error: String(error && error.stack || error) };
	}
	process.stdout.write(JSON.stringify(out) + "\\n");
}
`;

interface PiRunner {
	/** `file` (the recorded bytes) is sent with the first run of a format only. */
	run(format: Format, file?: string): Promise<RunResult>;
	stop(): void;
}

async function startPi(): Promise<PiRunner | string> {
	const pi = ensureRunnablePi();
	if ("error" in pi) return pi.error;
	const script = join(tempDir, "pi-stream-bench.mjs");
	await Bun.write(script, PI_RUNNER);
	const proc = Bun.spawn([pi.node, script, pi.modules], {
		stdin: "pipe",
		stdout: "pipe",
		stderr: "inherit",
		env: { ...process.env, NO_PROXY: "127.0.0.1,localhost", HTTP_PROXY: "", HTTPS_PROXY: "" },
	});
	const reader = proc.stdout.getReader();
	const decoder = new TextDecoder();
	let buffered = "";
	const nextLine = async (): Promise<string> => {
		while (!buffered.includes("\n")) {
			const { value, done } = await reader.read();
			if (done) throw new Error("pi helper process ended");
			buffered += decoder.decode(value, { stream: true });
		}
		const at = buffered.indexOf("\n");
		const line = buffered.slice(0, at);
		buffered = buffered.slice(at + 1);
		return line;
	};
	return {
		async run(format, file) {
			const options = format.options ?? { apiKey: "bench" };
			const model = format.piLoopback ? { ...modelFor(format), baseUrl: url + format.basePath } : modelFor(format);
			const line = { api: format.api, model, context: CONTEXT, options, file, type: currentType };
			proc.stdin.write(`${JSON.stringify(line)}\n`);
			proc.stdin.flush();
			return JSON.parse(await nextLine()) as RunResult;
		},
		stop: () => proc.kill(),
	};
}

const per100KB = (ms: number, bytes: number) => (ms / bytes) * 100 * 1024;
const tempDir = await Bun.$`mktemp -d`.text().then((s) => s.trim());
const loadBefore = loadavg()[0] as number;

const pi = oursOnly ? "--ours given" : await startPi();
if (typeof pi === "string") console.log(`pi-ai 0.87.1 not available (${pi}): ours only`);
const rows: string[] = [];
let allMet = true;
for (const format of formats) {
	current = recorded(format);
	currentType = format.contentType ?? "text/event-stream";
	const bytes = current.length;
	const file = join(tempDir, `${format.api}.bin`);
	await Bun.write(file, current);
	const ours: number[] = [];
	const theirs: number[] = [];
	const oursCpu: number[] = [];
	const floors: number[] = [];
	const theirsCpu: number[] = [];
	let oursEvents = 0;
	let piEvents = 0;
	// One warm-up each (module loading, JIT), then interleaved runs.
	for (let r = -1; r < runs; r++) {
		const a = await runOurs(format);
		if (a.error || a.textLength === 0) throw new Error(`${format.api} (ours): ${a.stopReason} ${a.error ?? "no text"}`);
		if (r >= 0) ours.push(a.ms);
		if (r >= 0) oursCpu.push(a.cpuMs);
		const f = await runFloor(format);
		if (r >= 0) floors.push(f.ms);
		oursEvents = a.events;
		if (typeof pi !== "string") {
			const b = await pi.run(format, r === -1 ? file : undefined);
			if (b.error || b.textLength === 0) throw new Error(`${format.api} (pi): ${b.stopReason} ${b.error ?? "no text"}`);
			if (b.textLength !== a.textLength) {
				throw new Error(`${format.api}: text lengths differ (ours ${a.textLength}, pi ${b.textLength})`);
			}
			if (r >= 0) theirs.push(b.ms);
			if (r >= 0) theirsCpu.push(b.cpuMs);
			piEvents = b.events;
		}
	}
	const o = median(ours.sort((x, y) => x - y));
	const t = theirs.length > 0 ? median(theirs.sort((x, y) => x - y)) : undefined;
	const oc = median(oursCpu.sort((x, y) => x - y));
	const tc = theirsCpu.length > 0 ? median(theirsCpu.sort((x, y) => x - y)) : undefined;
	const ours100 = per100KB(o, bytes);
	const fl = median(floors.sort((x, y) => x - y));
	if (ours100 >= 1) allMet = false;
	rows.push(
		`| ${format.api}${format.piLoopback && typeof pi !== "string" ? " (pi: loopback)" : ""} | ${(bytes / 1024 / 1024).toFixed(1)} | ${oursEvents.toLocaleString("en")} | ${o.toFixed(0)} | ${ours100.toFixed(3)} | ${oc.toFixed(0)} | ${per100KB(fl, bytes).toFixed(3)} | ${(o / fl).toFixed(2)}× | ${
			t === undefined || tc === undefined
				? "– | – | – | – | – | –"
				: `${piEvents.toLocaleString("en")} | ${t.toFixed(0)} | ${per100KB(t, bytes).toFixed(3)} | ${tc.toFixed(0)} | ${(t / o).toFixed(2)}× | ${(tc / oc).toFixed(2)}×`
		} |`,
	);
}
if (typeof pi !== "string") pi.stop();
server.stop(true);
await Bun.$`rm -rf ${tempDir}`.quiet();

console.log(
	`median of ${runs} interleaved runs per format (after one warm-up), bytes fed from memory; Bun ${Bun.version} vs Node 22 (pi-ai 0.87.1); load average ${loadBefore.toFixed(2)} before, ${(loadavg()[0] as number).toFixed(2)} after`,
);
console.log(
	"| format | MB | events (ours) | ours ms | ours ms/100 KB | ours CPU ms | floor ms/100 KB | ours ÷ floor | events (pi) | pi ms | pi ms/100 KB | pi CPU ms | pi ÷ ours | pi ÷ ours (CPU) |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) console.log(row);
console.log(
	allMet ? "bench: target met (< 1 ms per 100 KB for every format)" : "bench: target missed (< 1 ms per 100 KB)",
);
