/**
 * Side by side with pi 0.87.1 (run from the conformance cache under Node 22), for each API we implement: the same
 * RPC session against the same mock replies — two turns (the second reads a file), RPC `compact` with a split turn
 * (keepRecentTokens 1), a third turn, then an extension command moving back in the tree with `summarize: true`.
 * Compared:
 * - the three summary requests (compaction history, split-turn prefix, branch summary): the role and rules in the
 *   system prompt, no tools, one user message of one text part, the transcript wrapped exactly as pi wraps it
 *   (`<conversation>` … then instructions; `# Conversation` … `# Instructions`), the same transcript text, the same
 *   output cap, no prompt-cache markers;
 * - `before_provider_request`: called for the agent turns only, never for a summary, in both;
 * - the assistant messages each recorded (`get_messages`): the same fields, `rawStopReason`, no `responseModel`
 *   when the server answers with the model asked for, pi-ai's usage fields;
 * - `get_last_assistant_text` when the last reply has no text: `data: {}`.
 * Skips (printing why) when the cache cannot provide pi.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Implementation, runnablePi, type SideRun, startSide } from "../helpers/side-by-side.ts";
import type { RecordedRequest } from "../support/mock-llm/index.ts";

const pi = runnablePi();
const skip = "error" in pi;
if (skip) console.log(`summary-requests: skipped, pi 0.87.1 unavailable: ${pi.error}`);

const APIS = ["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"] as const;
type Api = (typeof APIS)[number];

const runs: SideRun[] = [];
afterAll(async () => {
	await Promise.all(runs.splice(0).map((run) => run.stop()));
});

const EXTENSION = `
import { appendFileSync } from "node:fs";
import { join } from "node:path";
export default function (pi) {
	const log = (o) => appendFileSync(join(process.env.HOME, "log.jsonl"), JSON.stringify(o) + "\\n");
	pi.on("before_provider_request", (event) => { log({ kind: "payload", payload: event.payload }); });
	pi.registerCommand("branchsum", {
		handler: async (_args, ctx) => {
			const first = ctx.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");
			const result = await ctx.navigateTree(first.id, { summarize: true });
			log({ kind: "nav", result });
		},
	});
}
`;

interface Outcome {
	summaryRequests: { compaction: RecordedRequest[]; branch: RecordedRequest[] };
	payloads: unknown[];
	assistants: Record<string, unknown>[];
	compact: Record<string, unknown>;
	lastTextData: unknown;
	requestCount: number;
}

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await Bun.sleep(20);
	}
}

async function scenario(which: Implementation, api: Api): Promise<Outcome> {
	const model = { id: "mock-1", reasoning: false, input: ["text"], contextWindow: 200_000, maxTokens: 4000 };
	const run = await startSide(
		which,
		{
			".pi/agent/models.json": JSON.stringify({
				providers: { mock: { baseUrl: "{{url}}", api, apiKey: "mock-key", models: [model] } },
			}),
			".pi/agent/settings.json": JSON.stringify({ compaction: { keepRecentTokens: 1 } }),
			".pi/agent/extensions/spy.ts": EXTENSION,
			"work/notes.txt": "some notes\n",
		},
		["--provider", "mock", "--model", "mock-1"],
	);
	runs.push(run);
	const log = join(run.home, "log.jsonl");
	const { client, server } = run;
	const readLog = () =>
		existsSync(log)
			? readFileSync(log, "utf8")
					.trim()
					.split("\n")
					.map((line) => JSON.parse(line) as { kind: string; payload?: unknown })
			: [];

	server.push({ kind: "reply", text: "answer one", usage: { input: 10, output: 5 } });
	await client.prompt("first question");
	await client.waitForIdle();
	server.push({
		kind: "reply",
		toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }],
		usage: { input: 20, output: 5 },
	});
	server.push({ kind: "reply", text: "done two", usage: { input: 30, output: 5 } });
	await client.prompt("second question");
	await client.waitForIdle();
	const assistants = (await client.getMessages()).filter((m) => m.role === "assistant") as unknown as Record<
		string,
		unknown
	>[];

	server.push({ kind: "reply", text: "HISTORY SUMMARY", usage: { input: 40, output: 5 } });
	server.push({ kind: "reply", text: "PREFIX SUMMARY", usage: { input: 41, output: 5 } });
	const beforeCompact = server.requests.length;
	const compact = (await client.compact("focus on notes")) as unknown as Record<string, unknown>;
	const compaction = server.requests.slice(beforeCompact);

	server.push({ kind: "reply", text: "answer three", usage: { input: 50, output: 5 } });
	await client.prompt("third question");
	await client.waitForIdle();
	server.push({ kind: "reply", text: "BRANCH SUMMARY", usage: { input: 60, output: 5 } });
	const beforeBranch = server.requests.length;
	await client.prompt("/branchsum");
	await until(() => readLog().some((entry) => entry.kind === "nav"), "the branch summary");
	const branch = server.requests.slice(beforeBranch);

	// A reply with thinking and no text: get_last_assistant_text then answers without `text`.
	server.push({ kind: "reply", thinking: "only thoughts", thinkingSignature: "sig", text: "   " });
	await client.prompt("fourth question");
	await client.waitForIdle();
	const lastText = await (client as unknown as { request(c: object): Promise<{ data?: unknown }> }).request({
		type: "get_last_assistant_text",
	});

	return {
		summaryRequests: { compaction, branch },
		payloads: readLog()
			.filter((entry) => entry.kind === "payload")
			.map((entry) => entry.payload),
		assistants,
		compact,
		lastTextData: lastText.data,
		requestCount: server.requests.length,
	};
}

/** The parts of a provider request body that make up a summary request's shape, the same for every vendor. */
function shape(api: Api, body: any) {
	let system: string | undefined;
	let messages: { role: string; texts: string[]; parts: number }[] = [];
	let tools: unknown;
	let maxTokens: unknown;
	const cacheMarkers = JSON.stringify(body).includes("cache_control");
	if (api === "anthropic-messages") {
		system = (body.system ?? []).map((p: any) => p.text).join("");
		messages = body.messages.map((m: any) => ({
			role: m.role,
			texts: m.content.map((p: any) => p.text),
			parts: m.content.length,
		}));
		tools = body.tools;
		maxTokens = body.max_tokens;
	} else if (api === "openai-completions" || api === "openai-responses") {
		const list = api === "openai-completions" ? body.messages : body.input;
		const systemItems = list.filter((m: any) => m.role === "system" || m.role === "developer");
		system = systemItems.map((m: any) => m.content).join("");
		messages = list
			.filter((m: any) => m.role !== "system" && m.role !== "developer")
			.map((m: any) => ({
				role: m.role,
				texts: typeof m.content === "string" ? [m.content] : m.content.map((p: any) => p.text),
				parts: typeof m.content === "string" ? 1 : m.content.length,
			}));
		tools = body.tools;
		maxTokens = body.max_output_tokens ?? body.max_completion_tokens ?? body.max_tokens;
	} else {
		system = (body.systemInstruction?.parts ?? []).map((p: any) => p.text).join("");
		messages = body.contents.map((m: any) => ({
			role: m.role,
			texts: m.parts.map((p: any) => p.text),
			parts: m.parts.length,
		}));
		tools = body.tools;
		maxTokens = body.generationConfig?.maxOutputTokens;
	}
	return { system, messages, tools, maxTokens, cacheMarkers };
}

/** The transcript inside a summary request's user text, and what kind of wrapping it had. */
function transcript(text: string): { kind: string; transcript: string } {
	const tagged = /^<conversation>\n([\s\S]*?)\n<\/conversation>\n\n/.exec(text);
	if (tagged) return { kind: "conversation-tags", transcript: tagged[1]! };
	const headed = /^# Conversation\n([\s\S]*?)\n\n# Instructions\n/.exec(text);
	if (headed) return { kind: "conversation-headings", transcript: headed[1]! };
	return { kind: "unknown", transcript: text };
}

function summaryShapes(api: Api, outcome: Outcome) {
	const all = [...outcome.summaryRequests.compaction, ...outcome.summaryRequests.branch];
	return all
		.map((request) => {
			const s = shape(api, request.body);
			const user = s.messages[0]?.texts.join("") ?? "";
			return { ...s, messages: s.messages.map((m) => ({ role: m.role, parts: m.parts })), ...transcript(user) };
		})
		.sort((a, b) => a.kind.localeCompare(b.kind) || a.transcript.localeCompare(b.transcript));
}

/** An assistant message with values that differ by nature (ids, times) replaced by their presence. */
function recorded(message: Record<string, unknown>) {
	const { timestamp: _t, responseId, ...rest } = message;
	// The mock server makes its item ids up per reply (msg_mock_…, fc_mock_…).
	const stable = JSON.parse(JSON.stringify(rest).replace(/_mock_[a-z0-9]+/g, "_mock_ID"));
	return { ...stable, responseId: typeof responseId === "string" && responseId !== "" };
}

describe.skipIf(skip)("summary requests and recorded assistant messages, side by side with pi 0.87.1", () => {
	for (const api of APIS) {
		test(api, async () => {
			const [theirs, ours] = await Promise.all([scenario("pi", api), scenario("ours", api)]);

			// Three summary requests: compaction history, split-turn prefix, branch summary.
			expect(theirs.summaryRequests.compaction).toHaveLength(2);
			expect(theirs.summaryRequests.branch).toHaveLength(1);
			const expected = summaryShapes(api, theirs);
			const actual = summaryShapes(api, ours);
			for (const s of [...expected, ...actual]) {
				expect(s.system?.length ?? 0).toBeGreaterThan(0);
				expect(s.tools).toBeUndefined();
				expect(s.cacheMarkers).toBe(false);
				expect(s.messages).toEqual([{ role: "user", parts: 1 }]);
			}
			const comparable = (list: typeof expected) => list.map(({ system: _s, ...rest }) => rest);
			expect(comparable(actual)).toEqual(comparable(expected));
			expect(actual.map((s) => s.kind).sort()).toEqual([
				"conversation-headings",
				"conversation-tags",
				"conversation-tags",
			]);

			// The compaction itself.
			expect(ours.compact.summary).toBe(theirs.compact.summary);
			expect(ours.compact.tokensBefore).toBe(theirs.compact.tokensBefore);
			expect(ours.compact.details).toEqual(theirs.compact.details);

			// before_provider_request sees the agent turns only (4 of the 8 requests), never a summary request.
			expect(theirs.requestCount).toBe(8);
			expect(ours.requestCount).toBe(8);
			expect(ours.payloads.length).toBe(theirs.payloads.length);
			expect(theirs.payloads.length).toBe(5);

			// The assistant messages recorded for the same replies.
			expect(ours.assistants.map(recorded)).toEqual(theirs.assistants.map(recorded));

			expect(theirs.lastTextData).toEqual({});
			expect(ours.lastTextData).toEqual(theirs.lastTextData);
		}, 180_000);
	}
});

// Ours alone (runs without the conformance cache): the same invariants, for one API.
describe("summary requests of ours (binary)", () => {
	test("system prompt, no tools, one user text part, pi's wrapping; before_provider_request sees no summary", async () => {
		const ours = await scenario("ours", "openai-responses");
		const shapes = summaryShapes("openai-responses", ours);
		expect(shapes.map((s) => s.kind)).toEqual(["conversation-headings", "conversation-tags", "conversation-tags"]);
		for (const s of shapes) {
			expect(s.system?.length ?? 0).toBeGreaterThan(0);
			expect(s.tools).toBeUndefined();
			expect(s.messages).toEqual([{ role: "user", parts: 1 }]);
			expect(s.maxTokens).toBe(4000);
		}
		const prefix = shapes.find((s) => s.kind === "conversation-headings")!;
		expect(prefix.transcript).toBe(
			'[User]: second question\n\n[Assistant tool calls]: read(path="notes.txt")\n\n[Tool result]: some notes\n',
		);
		expect(ours.requestCount).toBe(8);
		expect(ours.payloads).toHaveLength(5);
		expect(ours.compact.summary).toBe(
			"HISTORY SUMMARY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX SUMMARY\n\n<read-files>\nnotes.txt\n</read-files>",
		);
		expect(ours.assistants[0]).toMatchObject({ rawStopReason: "completed", usage: { reasoning: 0 } });
		expect(ours.assistants[0]!.responseModel).toBeUndefined();
		expect(ours.lastTextData).toEqual({});
	}, 120_000);
});
