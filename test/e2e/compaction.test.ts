/**
 * Compaction through the binary in RPC mode, against the mock LLM: RPC `abort` stops a running compaction (the
 * session file untouched, `compaction_end` aborted, `session_compact_failed` with the real signal aborted), an
 * extension's cancel answers "Compaction cancelled", `ctx.compact()` reports like `/compact`, and settings
 * `compaction.modelOverrides` / `compaction.model` apply to the model in use when the compaction runs.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type JsonAgentSessionEvent, RpcClient } from "../../src/modes/rpc/index.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

const clients: RpcClient[] = [];
afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.stop()));
});

function models(baseUrl: string): string {
	const model = (id: string) => ({ id, reasoning: false, input: ["text"], contextWindow: 200_000, maxTokens: 4000 });
	return JSON.stringify({
		providers: {
			mock: {
				baseUrl,
				api: "anthropic-messages",
				apiKey: "mock-key",
				models: [model("mock-1"), model("mock-2"), model("mock-cheap")],
			},
		},
	});
}

async function start(settings: object, files: Record<string, string> = {}, args: string[] = []) {
	const home = makeTempDir("pi-compact-home-");
	writeTree(home, {
		".pi/agent/models.json": models(server.url),
		".pi/agent/settings.json": JSON.stringify(settings),
	});
	const cwd = makeTempDir("pi-compact-cwd-");
	writeTree(cwd, files);
	const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") };
	const client = new RpcClient({ cliPath: ensureBinary(), cwd, env, args, forwardStderr: false });
	clients.push(client);
	await client.start();
	const events: JsonAgentSessionEvent[] = [];
	client.onEvent((event) => events.push(event));
	return { client, cwd, events };
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await Bun.sleep(5);
	}
}

const compactionEnds = (events: JsonAgentSessionEvent[]) => events.filter((e) => e.type === "compaction_end");

const EXTENSION = (log: string) => `
import { appendFileSync } from "node:fs";
export default function (pi) {
	const log = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
	pi.on("session_before_compact", async (event) => {
		event.signal.addEventListener("abort", () => log("signal aborted"));
		if (event.customInstructions === "cancel please") return { cancel: true };
	});
	pi.on("session_compact_failed", async (event) => log("failed " + JSON.stringify(event)));
	pi.registerCommand("compactnow", {
		handler: async (_args, ctx) => {
			ctx.compact({
				onComplete: (r) => log("done after=" + (r.estimatedTokensAfter > 0)),
				onError: (e) => log("error " + e.message),
			});
		},
	});
}
`;

describe("compaction (binary, RPC)", () => {
	test("RPC abort stops a running compaction; an extension's cancel; ctx.compact() reports like /compact", async () => {
		const { client, cwd, events } = await start(
			{ compaction: { keepRecentTokens: 1 } },
			{ "ext/watch.ts": EXTENSION("LOG") },
			["-e", "./ext/watch.ts"],
		);
		const logFile = join(cwd, "LOG");
		const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
		server.push({ kind: "reply", text: "first answer" }, { kind: "reply", text: "second answer" });
		await client.promptAndWait("first question");
		await client.promptAndWait("second question");
		const file = (await client.getState()).sessionFile as string;
		const before = readFileSync(file, "utf8");

		// Abort while the summary and the turn-prefix requests hang.
		const sent = server.requests.length;
		server.push({ kind: "hang" }, { kind: "hang" });
		const running = client.compact().catch((error: Error) => error);
		await until(() => server.requests.length >= sent + 2, "the summary requests");
		expect((await client.getState()).isCompacting).toBe(true);
		await client.abort();
		expect(((await running) as Error).message).toBe("Compaction cancelled");
		expect(compactionEnds(events).at(-1) as unknown).toEqual({
			type: "compaction_end",
			reason: "manual",
			aborted: true,
			willRetry: false,
		});
		await until(() => log().includes("failed"), "session_compact_failed");
		expect(log()).toContain("signal aborted");
		const failed = JSON.parse(log().split("failed ")[1]?.split("\n")[0] as string);
		expect(failed).toEqual({
			type: "session_compact_failed",
			reason: "manual",
			aborted: true,
			willRetry: false,
			fromExtension: false,
		});
		expect(readFileSync(file, "utf8")).toBe(before);
		expect((await client.getState()).isCompacting).toBe(false);

		// An extension's cancel: pi answers with the error "Compaction cancelled".
		const requests = server.requests.length;
		await expect(client.compact("cancel please")).rejects.toThrow("Compaction cancelled");
		expect(compactionEnds(events).at(-1)).toMatchObject({ aborted: true });
		expect(server.requests.length).toBe(requests);
		expect(readFileSync(file, "utf8")).toBe(before);

		// ctx.compact() from a command: compaction_start / compaction_end with pi's result fields.
		server.push({ kind: "reply", text: "## Goal\nthe summary" }, { kind: "reply", text: "the prefix" });
		const starts = events.filter((e) => e.type === "compaction_start").length;
		const ends = compactionEnds(events).length;
		await client.prompt("/compactnow");
		await until(() => log().includes("done"), "ctx.compact() to complete");
		// The callback and the event travel separately (a file and stdout): wait for the event too.
		await until(() => compactionEnds(events).length > ends, "compaction_end");
		expect(log()).toContain("done after=true");
		expect(events.filter((e) => e.type === "compaction_start").length).toBe(starts + 1);
		const end = compactionEnds(events).at(-1) as unknown as { result: Record<string, unknown>; aborted: boolean };
		expect(end.aborted).toBe(false);
		expect(Object.keys(end.result).sort()).toEqual(
			["details", "estimatedTokensAfter", "firstKeptEntryId", "summary", "tokensBefore", "usage"].sort(),
		);
		expect(readFileSync(file, "utf8")).toContain('"type":"compaction"');
		// Right after a compaction there is nothing left to compact.
		await expect(client.compact()).rejects.toThrow("Already compacted");
	});

	test("a summary request that fails transiently is retried: summarization_retry_* on the wire, then success", async () => {
		const { client, events } = await start({ compaction: { keepRecentTokens: 1 }, retry: { baseDelayMs: 1 } });
		server.push({ kind: "reply", text: "first answer" }, { kind: "reply", text: "second answer" });
		await client.promptAndWait("first question");
		await client.promptAndWait("second question");
		server.push(
			{ kind: "http-error", status: 529, message: "Overloaded" },
			{ kind: "reply", text: "## Goal\nsummary" },
			{ kind: "reply", text: "prefix" },
		);
		const result = await client.compact();
		expect(result.summary).toContain("summary");
		const retry = events.filter((e) => e.type.startsWith("summarization_retry"));
		expect(retry[0]).toMatchObject({ type: "summarization_retry_scheduled", attempt: 1, maxAttempts: 3, delayMs: 1 });
		expect((retry[0] as { errorMessage: string }).errorMessage).toMatch(/529|Overloaded/);
		expect(retry[1]).toEqual({ type: "summarization_retry_attempt_start", source: "compaction", reason: "manual" });
		expect(retry.at(-1)).toEqual({ type: "summarization_retry_finished" });
		expect(compactionEnds(events).at(-1)).toMatchObject({ aborted: false, willRetry: false });
		expect(compactionEnds(events).at(-1)).not.toHaveProperty("errorMessage");
	});

	test("modelOverrides apply to the model in use when compacting; compaction.model writes the summary", async () => {
		const { client } = await start(
			{
				compaction: {
					keepRecentTokens: 1_000_000,
					modelOverrides: { "mock/mock-2": { keepRecentTokens: 1 } },
					model: "mock/mock-cheap",
				},
			},
			{},
			["--model", "mock/mock-1"],
		);
		server.push({ kind: "reply", text: "first answer" }, { kind: "reply", text: "second answer" });
		await client.promptAndWait("first question");
		await client.promptAndWait("second question");
		// mock-1 keeps everything: nothing to compact.
		await expect(client.compact()).rejects.toThrow("Nothing to compact (session too small)");
		await client.setModel("mock", "mock-2");
		const sent = server.requests.length;
		server.push({ kind: "reply", text: "## Goal\ncheap summary" }, { kind: "reply", text: "cheap prefix" });
		const result = await client.compact();
		expect(result.summary).toContain("cheap summary");
		const summaryRequests = server.requests.slice(sent);
		expect(summaryRequests.length).toBeGreaterThan(0);
		for (const request of summaryRequests) expect(request.body.model).toBe("mock-cheap");
	});
});
