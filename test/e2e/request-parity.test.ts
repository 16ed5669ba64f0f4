/**
 * Side by side with pi 0.87.1 (from the conformance cache under Node 22), for each API we implement: the same RPC
 * session (a prompt whose reply calls `read`, the tool result turn, then a second prompt at thinking level high)
 * against the same mock replies, and the request bodies the mock received compared field by field. Only the prompt
 * text itself (our prose, by contract not pi's), the tool descriptions (likewise) and values that differ per run
 * (session ids, cache keys derived from them, paths of temp folders) are taken out before comparing.
 * Skips (printing why) when the cache cannot provide pi.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { type Implementation, runnablePi, type SideRun, startSide } from "../helpers/side-by-side.ts";

const pi = runnablePi();
const skip = "error" in pi;
if (skip) console.log(`request-parity: skipped, pi 0.87.1 unavailable: ${pi.error}`);

const APIS = ["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"] as const;
type Api = (typeof APIS)[number];

const runs: SideRun[] = [];
afterAll(async () => {
	await Promise.all(runs.splice(0).map((run) => run.stop()));
});

async function bodies(which: Implementation, api: Api): Promise<unknown[]> {
	const model = { id: "mock-1", reasoning: true, input: ["text", "image"], contextWindow: 200_000, maxTokens: 8000 };
	const run = await startSide(
		which,
		{
			".pi/agent/models.json": JSON.stringify({
				providers: { mock: { baseUrl: "{{url}}", api, apiKey: "mock-key", models: [model] } },
			}),
			"work/notes.txt": "some notes\n",
		},
		["--provider", "mock", "--model", "mock-1", "--thinking", "low"],
	);
	runs.push(run);
	const { client, server } = run;
	server.push({
		kind: "reply",
		text: "reading",
		toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }],
		usage: { input: 20, output: 5 },
	});
	server.push({ kind: "reply", text: "done one", usage: { input: 30, output: 5 } });
	await client.prompt("first question");
	await client.waitForIdle();
	await client.setThinkingLevel("high");
	server.push({ kind: "reply", text: "done two", usage: { input: 40, output: 5 } });
	await client.prompt("second question");
	await client.waitForIdle();
	return server.requests.map((request) => normalise(request.body, run.home));
}

/** Takes out what is ours by contract (prompt prose, tool descriptions) and what differs per run. */
function normalise(body: unknown, home: string): unknown {
	const text = JSON.stringify(body).replaceAll(home, "<home>");
	return JSON.parse(text, (key, value) => {
		if (key === "description" && typeof value === "string") return "<description>";
		if ((key === "prompt_cache_key" || key === "sessionId" || key === "user_id") && typeof value === "string")
			return "<session>";
		if (key === "metadata" && value && typeof value === "object") return "<metadata>";
		// Ids the mock made up for its replies (each server its own) come back in the next request.
		if (typeof value === "string" && /^(msg|rs|fc)_mock_/.test(value)) return "<mock id>";
		return value;
	});
}

/** The system prompt's text is our own prose: keep its presence and place, not its words. */
function withoutPromptText(body: any): any {
	const copy = structuredClone(body);
	if (Array.isArray(copy.system)) for (const part of copy.system) if (part.text) part.text = "<prompt>";
	if (copy.systemInstruction?.parts) for (const part of copy.systemInstruction.parts) part.text = "<prompt>";
	if (typeof copy.instructions === "string") copy.instructions = "<prompt>";
	for (const list of [copy.messages, copy.input]) {
		if (!Array.isArray(list)) continue;
		for (const m of list) {
			if (m.role !== "system" && m.role !== "developer") continue;
			if (typeof m.content === "string") m.content = "<prompt>";
			else if (Array.isArray(m.content)) for (const part of m.content) if (part.text) part.text = "<prompt>";
		}
	}
	return copy;
}

describe("agent-turn requests: the same bodies as pi 0.87.1", () => {
	for (const api of APIS) {
		test.skipIf(skip)(
			api,
			async () => {
				const [theirs, mine] = await Promise.all([bodies("pi", api), bodies("ours", api)]);
				expect(mine.length).toBe(theirs.length);
				expect(mine.map(withoutPromptText)).toEqual(theirs.map(withoutPromptText));
			},
			120_000,
		);
	}
});
