/**
 * Shared pieces of the provider side-by-side tests (`test/unit/ai/*-vs-pi.test.ts`): the common context fixtures, and
 * the harness that replays one scenario list through pi-ai 0.87.1 under Node 22 and through ours, each against its own
 * mock LLM loaded with the same steps.
 */
import { afterAll, expect } from "bun:test";
import { type MockLlmServer, startMockLlm } from "../support/mock-llm/index.ts";
import { runInPi, runnablePi } from "./side-by-side.ts";

/** The usage every fixture assistant message carries. */
export const usage = {
	input: 1,
	output: 1,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 2,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** The system message of every fixture context, declaring `tool`. */
export const systemWith = (tool: unknown) => ({
	role: "system",
	content: "be brief",
	toolsAdded: [tool],
	timestamp: 1,
});
export const user = (content: unknown, timestamp = 2) => ({ role: "user", content, timestamp });

/** Why pi 0.87.1 cannot run here, or undefined when it can. */
export function piSkipReason(): string | undefined {
	const pi = runnablePi();
	return "error" in pi ? pi.error : undefined;
}

export interface BothRuns {
	pi: any[];
	ours: any[];
	piServer: MockLlmServer;
	ourServer: MockLlmServer;
}

/**
 * Memoised side-by-side run: `run` (the source of `async (api, input) => results[]`) runs under pi's Node with the
 * module at `modulePath`, then here with `api()`; each gets a fresh mock LLM loaded by `load` and `input(url)`.
 * The servers are stopped after the file's tests.
 */
export function sideBySide(options: {
	modulePath: string;
	api: () => unknown;
	run: string;
	input: (url: string) => unknown;
	load: (server: MockLlmServer) => void;
}): () => Promise<BothRuns> {
	const servers: MockLlmServer[] = [];
	afterAll(() => {
		for (const server of servers) server.stop();
	});
	const serverWithSteps = () => {
		const server = startMockLlm();
		servers.push(server);
		options.load(server);
		return server;
	};
	let runs: Promise<BothRuns> | undefined;
	return () => {
		runs ??= (async () => {
			const piServer = serverWithSteps();
			const pi = await runInPi(options.modulePath, options.input(piServer.url), options.run);
			const ourServer = serverWithSteps();
			const run = new Function(`return ${options.run}`)() as (api: unknown, input: unknown) => Promise<any[]>;
			const ours = await run(options.api(), JSON.parse(JSON.stringify(options.input(ourServer.url))));
			return { pi, ours, piServer, ourServer };
		})();
		return runs;
	};
}

/**
 * The source of `async (api, input) => results[]` that streams each of `input.scenarios` in order and records its
 * events (without `partial`) and final message, or what it threw. `setup` is source run per scenario `sc` that
 * declares `model`, `controller` and `options`; `before` and `after` run once around the loop.
 */
export function scenarioRunner(setup: string, around: { before?: string; after?: string } = {}): string {
	return `async (api, input) => {
${around.before ?? ""}	const out = [];
	for (const sc of input.scenarios) {
${setup}
		const context = sc.context ?? input.context;
		const events = [];
		try {
			const s = (sc.simple ? api.streamSimple : api.stream)(model, context, options);
			for await (const e of s) {
				const { partial, ...rest } = e;
				events.push(JSON.parse(JSON.stringify(rest)));
				if (e.type === "text_delta" && sc.abortAtDelta) controller.abort();
			}
			out.push({ events, result: JSON.parse(JSON.stringify(await s.result())) });
		} catch (error) {
			out.push({ events, thrown: String(error && error.message) });
		}
	}
${around.after ?? ""}	return out;
}`;
}

/** Drops every `timestamp` and masks the mock LLM's random ids (`_mock_…`), so two runs compare equal. */
export function scrubTimestampsAndIds(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(scrubTimestampsAndIds);
	if (value && typeof value === "object") {
		const out: Record<string, unknown> = {};
		for (const [key, v] of Object.entries(value)) if (key !== "timestamp") out[key] = scrubTimestampsAndIds(v);
		return out;
	}
	return typeof value === "string" ? value.replace(/_mock_[a-z0-9]+/g, "_mock_ID") : value;
}

/** Both sides sent the same requests, in order: method, path, the given headers and the body bytes. */
export function expectSameRequests(piServer: MockLlmServer, ourServer: MockLlmServer, headers: string[]): void {
	expect(ourServer.requests.length).toBe(piServer.requests.length);
	piServer.requests.forEach((theirs, i) => {
		const mine = ourServer.requests[i];
		if (!mine) throw new Error(`request ${i} missing`);
		expect(mine.method).toBe(theirs.method);
		expect(mine.path).toBe(theirs.path);
		for (const header of headers) {
			expect({ header, value: mine.headers[header] }).toEqual({ header, value: theirs.headers[header] });
		}
		expect(JSON.stringify(mine.body)).toBe(JSON.stringify(theirs.body));
	});
}
