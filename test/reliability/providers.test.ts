/**
 * Provider faults for every wire format the mock speaks (and the APIs that reuse one: Azure OpenAI Responses,
 * Vertex), through the compiled binary in RPC mode: a 429 with `retry-after`, an overload error mid-stream after
 * half a tool call, a spend-limit 429 and a 401, a context overflow, a stalled stream (and an abort during it), a
 * reset connection and a tool call whose arguments are not JSON. Each asserts what an RPC client sees. One binary
 * per format runs all its cases; retry and idle delays are made short through settings.json.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
	abortDuringStall,
	invalidJson,
	overflowing,
	overloadedMidToolCall,
	rateLimited,
	refused,
	reset,
	SPEND_LIMIT,
	stalled,
	unavailable,
} from "./provider-cases.ts";
import { FAST, type FaultSession, FORMATS, startFaultSession } from "./provider-faults.ts";

const sessions: FaultSession[] = [];
afterAll(async () => {
	await Promise.all(sessions.map((s) => s.stop()));
});

const RECOVERY_FAILED = /^Context overflow recovery failed after one compact-and-retry attempt\./;

describe("provider faults, per wire format", () => {
	for (const format of FORMATS) {
		test.concurrent(format.name, async () => {
			const s = startFaultSession(format);
			sessions.push(s);

			// 429 with retry-after in seconds: one retry, not before the server said, then the reply.
			const limited = await rateLimited(s, format, "1");
			if (format.quirks?.rateLimitIsUsageLimit) expect(limited).toMatchObject({ retries: 0, finalStop: "error" });
			else {
				expect(limited).toMatchObject({ finalStop: "stop", agentRequests: 2 });
				if (!format.quirks?.providerRetries) expect(limited).toMatchObject({ retries: 1, retryEndSuccess: true });
				if (!format.quirks?.ignoresRetryAfter) {
					expect(limited.delays[0]).toBeGreaterThanOrEqual(1000);
					expect(limited.msToRetry).toBeGreaterThanOrEqual(950);
				}
			}
			if (format.name === "anthropic" || format.name === "openai-completions") {
				// …and as an HTTP date (whole seconds, so 1–2 s ahead).
				const dated = await rateLimited(s, format, new Date(Date.now() + 2000).toUTCString());
				expect(dated).toMatchObject({ retries: 1, retryEndSuccess: true, finalStop: "stop" });
				expect(dated.msToRetry).toBeGreaterThanOrEqual(900);
			}

			// Overloaded mid-stream with half a tool call sent: the call never runs; the turn is retried.
			const overloaded = await overloadedMidToolCall(s);
			expect(overloaded).toMatchObject({ toolRuns: 0, toolRan: false });
			if (format.quirks?.streamErrorHasNoText) expect(overloaded).toMatchObject({ retries: 0, finalStop: "error" });
			else {
				expect(overloaded).toMatchObject({ retries: 1, finalStop: "stop" });
				expect(overloaded.retryError).toMatch(/overloaded/i);
			}

			// A spend limit and a bad key: no retry, one error line.
			if (!format.quirks?.providerRetries) {
				const spent = await refused(s, 429, SPEND_LIMIT);
				expect(spent).toMatchObject({ retries: 0, agentRequests: 1, finalStop: "error" });
				expect(spent.finalError).not.toContain("\n");
				expect(spent.finalError).toContain("not retried: the account is out of quota or credit");
			}
			const unauthorized = await refused(s, format.quirks?.refusedStatus ?? 401, "invalid api key");
			expect(unauthorized).toMatchObject({ retries: 0, agentRequests: 1, finalStop: "error" });
			expect(unauthorized.finalError).not.toContain("\n");
			// The line names what to check: here the key in models.json (Bedrock: the AWS credentials).
			if (!format.quirks?.statusNotInError) {
				expect(unauthorized.finalError).toMatch(
					format.apiKey ? /— check the apiKey of provider "mock" in .*models\.json$/ : /— check the AWS credentials/,
				);
			}

			// Context overflow: compacted once, retried once, then a clear error; no loop.
			const overflow = await overflowing(s, format);
			expect(overflow.agentRequests).toBe(2);
			expect(overflow.retries).toBe(0);
			expect(overflow.compactionEnds.map((c) => c.willRetry)).toEqual([true, false]);
			expect(overflow.compactionEnds[1]?.errorMessage).toMatch(RECOVERY_FAILED);

			// A stalled stream: the idle timeout ends it and the retry gets through.
			const stall = await stalled(s);
			expect(stall).toMatchObject({ retries: 1, retryEndSuccess: true, finalStop: "stop" });
			expect(stall.retryError).toContain("timed out");
			expect(stall.msToRetry).toBeGreaterThanOrEqual(FAST.idleMs);
			expect(stall.msToRetry).toBeLessThan(FAST.idleMs + 1500);
			// …and an abort while it stalls ends the turn within 1 s.
			expect(await abortDuringStall(s)).toBeLessThan(1000);

			// A reset connection is a network error: retried.
			const cut = await reset(s);
			expect(cut).toMatchObject({ retries: 1, retryEndSuccess: true, finalStop: "stop" });

			// A server that stays down: three retries, then the run ends with the last error.
			const down = await unavailable(s);
			expect(down).toMatchObject({ retries: 3, retryEndSuccess: false, finalStop: "error" });
			expect(down.delays).toEqual([FAST.baseDelayMs, FAST.baseDelayMs * 2, FAST.baseDelayMs * 4]);
			if (!format.quirks?.providerRetries) expect(down.agentRequests).toBe(4);

			// Arguments that are not JSON: the tool does not run and the model is told why.
			if (!format.quirks?.argumentsAreObjects) {
				const bad = await invalidJson(s);
				expect(bad).toMatchObject({ toolRan: false, finalStop: "stop", agentRequests: 2 });
				expect(bad.toolResultError).toBeDefined();
			}
		}, 60_000);
	}
});
