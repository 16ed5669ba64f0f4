/**
 * Provider faults, one wire format at a time: a models.json provider on that API pointed at the loopback mock, a
 * settings.json with short retry and idle delays, and the binary (or pi 0.87.1 under Node) in RPC mode. Each case
 * sends one prompt against scripted faults and returns what the RPC client saw (retry and compaction events, tool
 * runs, the final error, timings), so the test asserts on it and the bench reports it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
	codexToken,
	MOCK_AWS_KEYS,
	type MockLlmServer,
	type MockStep,
	startMockLlm,
} from "../support/mock-llm/index.ts";
import { type RpcProcess, startRpcProcess } from "./rpc-process.ts";

export interface FormatSpec {
	/** The wire format (a mock vendor) or the API that reuses one. */
	name: string;
	api: string;
	model: string;
	/** The model's base URL given the mock's. */
	base(url: string): string;
	apiKey?: string;
	/** The provider's name in models.json (default "mock"); Bedrock's own name makes pi take AWS credentials. */
	provider?: string;
	env?: Record<string, string>;
	/** A context-overflow error as this vendor words it. */
	overflow: string;
	/** What differs on this format (each says why in FORMATS). */
	quirks?: {
		/** Every 429 is an account usage limit (ChatGPT's Codex backend, as pi reads it): not retried. */
		rateLimitIsUsageLimit?: boolean;
		/** The server's `retry-after` is not read (Bedrock's client retries throttling with its own backoff). */
		ignoresRetryAfter?: boolean;
		/** Tool arguments travel as JSON objects inside the stream's JSON: they cannot be invalid on their own. */
		argumentsAreObjects?: boolean;
		/** The client retries throttling itself, as the AWS SDK does, before the agent sees an error (a 429 is
		 * throttling whatever its text, so a spend limit has no 429 of its own). */
		providerRetries?: boolean;
		/** Errors other than usage limits are the backend's body alone, without the status (as pi shows them), so a
		 * refused credential is not recognised as one. */
		statusNotInError?: boolean;
		/** The status a refused credential comes with (default 401; Bedrock: 403 AccessDeniedException). */
		refusedStatus?: number;
		/** An in-stream error is only `finish_reason: "error"`, with no text saying it is transient: not retried. */
		streamErrorHasNoText?: boolean;
	};
}

const OPENAI_OVERFLOW = "Your input exceeds the context window of this model. Please adjust your input and try again.";
const AWS_KEY = "AKIAMOCKTESTKEY00001";

export const FORMATS: FormatSpec[] = [
	{
		name: "anthropic",
		api: "anthropic-messages",
		model: "mock-1",
		base: (u) => u,
		apiKey: "mock-key",
		overflow: "prompt is too long: 250000 tokens > 200000 maximum",
	},
	{
		name: "openai-completions",
		api: "openai-completions",
		model: "mock-1",
		base: (u) => u,
		apiKey: "mock-key",
		overflow: OPENAI_OVERFLOW,
	},
	{
		name: "openai-responses",
		api: "openai-responses",
		model: "mock-1",
		base: (u) => u,
		apiKey: "mock-key",
		overflow: OPENAI_OVERFLOW,
	},
	{
		name: "azure-openai-responses",
		api: "azure-openai-responses",
		model: "mock-1",
		base: (u) => `${u}/openai/v1`,
		apiKey: "mock-key",
		overflow: OPENAI_OVERFLOW,
	},
	{
		name: "openai-codex",
		api: "openai-codex-responses",
		model: "gpt-5.5",
		base: (u) => `${u}/backend-api`,
		apiKey: codexToken("acct-reliability"),
		overflow: OPENAI_OVERFLOW,
		quirks: { rateLimitIsUsageLimit: true, statusNotInError: true },
	},
	{
		name: "google",
		api: "google-generative-ai",
		model: "gemini-2.5-flash",
		base: (u) => u,
		apiKey: "mock-key",
		overflow: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).",
		quirks: { argumentsAreObjects: true },
	},
	{
		name: "google-vertex",
		api: "google-vertex",
		model: "gemini-2.5-flash",
		base: (u) => u,
		apiKey: "mock-key",
		overflow: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).",
		quirks: { argumentsAreObjects: true },
	},
	{
		name: "mistral",
		api: "mistral-conversations",
		model: "mistral-large-latest",
		base: (u) => `${u}/mistral`,
		apiKey: "mock-key",
		quirks: { streamErrorHasNoText: true },
		overflow: "Prompt contains 250000 tokens, too large for model with 131072 maximum context length",
	},
	{
		name: "bedrock",
		api: "bedrock-converse-stream",
		provider: "amazon-bedrock",
		model: "anthropic.claude-sonnet-4-5-20250929-v1:0",
		base: (u) => u,
		env: {
			AWS_ACCESS_KEY_ID: AWS_KEY,
			AWS_SECRET_ACCESS_KEY: MOCK_AWS_KEYS[AWS_KEY] as string,
			AWS_REGION: "us-east-1",
		},
		overflow: "Input is too long for requested model.",
		quirks: { providerRetries: true, ignoresRetryAfter: true, refusedStatus: 403 },
	},
	{
		name: "pi-messages",
		api: "pi-messages",
		model: "balanced",
		base: (u) => `${u}/pi`,
		apiKey: "mock-key",
		overflow: "prompt is too long: 250000 tokens > 200000 maximum",
	},
];

/** Short delays so a case takes well under a second of waiting. */
export const FAST = { baseDelayMs: 40, idleMs: 600 };

export interface FaultSession {
	readonly rpc: RpcProcess;
	readonly server: MockLlmServer;
	readonly cwd: string;
	/** Resolves once the process answers a command (pi under Node takes a while to start on a busy machine). */
	ready(ms?: number): Promise<void>;
	stop(): Promise<void>;
}

/** Starts `command` (default: our binary) in RPC mode on `format` against a fresh mock. */
export function startFaultSession(format: FormatSpec, command?: string[]): FaultSession {
	const server = startMockLlm();
	const provider = {
		baseUrl: format.base(server.url),
		api: format.api,
		...(format.apiKey ? { apiKey: format.apiKey } : {}),
		models: [{ id: format.model, reasoning: false, input: ["text"], contextWindow: 200_000, maxTokens: 8000 }],
	};
	const settings = {
		retry: { enabled: true, maxRetries: 3, baseDelayMs: FAST.baseDelayMs, maxAgentDelayMs: 5000 },
		httpIdleTimeoutMs: FAST.idleMs,
		compaction: { enabled: true, keepRecentTokens: 1 },
	};
	const rpc = startRpcProcess({
		mockUrl: server.url,
		homeFiles: {
			".pi/agent/models.json": JSON.stringify({ providers: { [format.provider ?? "mock"]: provider } }),
			".pi/agent/settings.json": JSON.stringify(settings),
		},
		args: ["--provider", format.provider ?? "mock", "--model", format.model],
		env: { ...format.env, HTTP_PROXY: "http://127.0.0.1:9", HTTPS_PROXY: "http://127.0.0.1:9", NO_PROXY: "127.0.0.1" },
		...(command ? { command } : {}),
	});
	return {
		rpc,
		server,
		cwd: rpc.cwd,
		async ready(ms = 60_000) {
			rpc.send({ id: "ready", type: "get_state" });
			await rpc.waitFor((r) => r.type === "response" && r.id === "ready", ms);
		},
		async stop() {
			rpc.end();
			await rpc.exit(3000);
			server.stop();
		},
	};
}

export interface Outcome {
	/** `auto_retry_start` events. */
	retries: Record<string, any>[];
	retryEnd?: Record<string, any>;
	compactions: Record<string, any>[];
	/** Tool calls that started. */
	toolRuns: Record<string, any>[];
	toolResults: Record<string, any>[];
	/** The last assistant message of the run. */
	final?: Record<string, any>;
	/** Requests the mock received during the case. */
	requests: number;
	/** performance.now() of each request's arrival at the mock. */
	arrivals: number[];
	records: Record<string, any>[];
}

let prompts = 0;

/** Sends `message` with `steps` queued and waits for the run to settle. */
export async function runCase(
	s: FaultSession,
	steps: MockStep[],
	message = "go",
	timeoutMs = 15_000,
): Promise<Outcome> {
	const { rpc, server } = s;
	const from = rpc.records.length;
	const firstRequest = server.requests.length;
	server.push(...steps);
	rpc.send({ id: `p${++prompts}`, type: "prompt", message });
	try {
		await rpc.waitFor((r) => r.type === "agent_settled", timeoutMs, from);
	} finally {
		server.clear();
	}
	return outcome(s, from, firstRequest);
}

export function outcome(s: FaultSession, from: number, firstRequest: number): Outcome {
	const records = s.rpc.records.slice(from);
	const assistants = records.filter((r) => r.type === "message_end" && r.message?.role === "assistant");
	return {
		retries: records.filter((r) => r.type === "auto_retry_start"),
		retryEnd: records.find((r) => r.type === "auto_retry_end"),
		compactions: records.filter((r) => r.type === "compaction_start" || r.type === "compaction_end"),
		toolRuns: records.filter((r) => r.type === "tool_execution_start"),
		toolResults: records.filter((r) => r.type === "tool_execution_end"),
		final: assistants.at(-1)?.message,
		requests: s.server.requests.length - firstRequest,
		arrivals: s.server.requests.slice(firstRequest).map((r) => r.arrivedAt ?? 0),
		records,
	};
}

/** Whether a file the tool call would have made exists in the session's cwd. */
export function made(s: FaultSession, name: string): boolean {
	return existsSync(join(s.cwd, name));
}

/** A reply calling bash to create `file` (so a run of the tool is visible on disk). */
export function touchCall(file: string): MockStep {
	return {
		kind: "reply",
		text: "working on it",
		toolCalls: [{ id: "call_touch_1", name: "bash", arguments: { command: `touch ${file} && echo made ${file}` } }],
		chunkSize: 6,
	};
}
