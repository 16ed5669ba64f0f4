/**
 * Summary requests (compaction, branch summary) retry transient failures with the session's retry settings, as
 * pi 0.87 does, and report it as `summarization_retry_scheduled` / `_attempt_start` / `_finished`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { fauxAssistantMessage, fauxText, registerFauxProvider } from "../../../src/ai/index.ts";
import type { CompactionSettings } from "../../../src/compaction/index.ts";
import { type CompactionDeps, compactNow, navigateTree, type SessionEvent } from "../../../src/runtime/index.ts";
import type { RetrySettings } from "../../../src/runtime/retry.ts";
import { recordedSession } from "../../support/recorded-session.ts";

const faux = registerFauxProvider({ provider: "faux-summary-retry", models: [{ id: "m", contextWindow: 200_000 }] });
afterAll(() => faux.unregister());

const FILLER = "lorem ipsum dolor sit amet ".repeat(150);
// Keeps the last turn whole: one summary request, no split-turn prefix request running beside it.
const SETTINGS: CompactionSettings = { enabled: false, reserveTokens: 16384, keepRecentTokens: 1500 };
const FAST: RetrySettings = { enabled: true, maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 };
const overloaded = () =>
	fauxAssistantMessage([], { stopReason: "error", errorMessage: "529 overloaded_error: Overloaded" });
const summary = (text: string) => fauxAssistantMessage([fauxText(text)]);

async function setup(retry: RetrySettings) {
	const { manager, session } = recordedSession(faux.getModel(), { retry });
	faux.setResponses([0, 1, 2].map((i) => summary(`answer ${i} ${FILLER}`)));
	for (let i = 0; i < 3; i++) await session.prompt(`question ${i} ${FILLER}`);
	const events: SessionEvent[] = [];
	session.subscribe((e) => {
		if (e.type.startsWith("summarization_retry") || e.type.startsWith("compaction_")) events.push(e);
	});
	const deps: CompactionDeps = { session, manager, settings: SETTINGS, getApiKey: () => "k" };
	return { manager, session, deps, events };
}

describe("summarization retry", () => {
	test("a transient failure is retried after the backoff; the events frame the retry", async () => {
		const { deps, events } = await setup(FAST);
		faux.setResponses([overloaded(), summary("SUMMARY")]);
		const result = await compactNow(deps);
		expect(result.summary).toContain("SUMMARY");
		expect(events.map((e) => e.type)).toEqual([
			"compaction_start",
			"summarization_retry_scheduled",
			"summarization_retry_attempt_start",
			"summarization_retry_finished",
			"compaction_end",
		]);
		expect(events[1]).toEqual({
			type: "summarization_retry_scheduled",
			attempt: 1,
			maxAttempts: 2,
			delayMs: 1,
			errorMessage: "529 overloaded_error: Overloaded",
		});
		expect(events[2]).toEqual({ type: "summarization_retry_attempt_start", source: "compaction", reason: "manual" });
		expect(events[4]).toMatchObject({ type: "compaction_end", aborted: false });
	});

	test("retries stop at maxRetries: the compaction fails with the last error", async () => {
		const { deps, events, manager } = await setup(FAST);
		const before = JSON.stringify(manager.getEntries());
		faux.setResponses([overloaded(), overloaded(), overloaded(), overloaded()]);
		await expect(compactNow(deps)).rejects.toThrow("Summarization failed: 529 overloaded_error: Overloaded");
		const scheduled = events.filter((e) => e.type === "summarization_retry_scheduled");
		expect(scheduled.map((e) => (e as { attempt: number }).attempt)).toEqual([1, 2]);
		expect(events.filter((e) => e.type === "summarization_retry_finished").length).toBe(1);
		expect(events.at(-1)).toMatchObject({ type: "compaction_end", aborted: false });
		expect(JSON.stringify(manager.getEntries())).toBe(before);
	});

	test("a permanent failure, or retry turned off, is not retried", async () => {
		const permanent = await setup(FAST);
		faux.setResponses([fauxAssistantMessage([], { stopReason: "error", errorMessage: "401 invalid x-api-key" })]);
		await expect(compactNow(permanent.deps)).rejects.toThrow("401");
		expect(permanent.events.some((e) => e.type.startsWith("summarization_retry"))).toBe(false);

		const off = await setup({ ...FAST, enabled: false });
		faux.setResponses([overloaded(), overloaded()]);
		await expect(compactNow(off.deps)).rejects.toThrow("Overloaded");
		expect(off.events.some((e) => e.type.startsWith("summarization_retry"))).toBe(false);
	});

	test("an abort while waiting to retry aborts the compaction; the retry is finished", async () => {
		const { deps, events, session, manager } = await setup({ ...FAST, baseDelayMs: 60_000, maxDelayMs: 60_000 });
		const before = JSON.stringify(manager.getEntries());
		faux.setResponses([overloaded(), overloaded()]);
		session.subscribe((e) => {
			if (e.type === "summarization_retry_scheduled") setTimeout(() => session.abort(), 5);
		});
		await expect(compactNow(deps)).rejects.toThrow("Compaction cancelled");
		expect(events.map((e) => e.type)).toEqual([
			"compaction_start",
			"summarization_retry_scheduled",
			"summarization_retry_finished",
			"compaction_end",
		]);
		expect(events.at(-1)).toMatchObject({ aborted: true });
		expect(JSON.stringify(manager.getEntries())).toBe(before);
	});

	test("a branch summary retries too, named branchSummary without a reason", async () => {
		const { deps, events, manager } = await setup(FAST);
		const firstUser = manager.getEntries().find((e) => e.type === "message") as { id: string };
		faux.setResponses([overloaded(), summary("## Tried\nthings")]);
		const result = await navigateTree(deps, firstUser.id, { summarize: true });
		expect(result).toEqual({ cancelled: false });
		expect(events.find((e) => e.type === "summarization_retry_attempt_start")).toEqual({
			type: "summarization_retry_attempt_start",
			source: "branchSummary",
		});
		expect(manager.getEntries().some((e) => e.type === "branch_summary")).toBe(true);
	});
});
