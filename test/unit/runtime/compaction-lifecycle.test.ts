/**
 * One compaction with its events: abort through `session.abort()` (the summary request and the
 * `session_before_compact` signal), extension cancel, failures reported to `session_compact_failed`, pi's
 * `CompactionResult` in `compaction_end`, `isCompacting` while it runs, settings resolved per current model.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
	type AssistantMessage,
	fauxAssistantMessage,
	fauxText,
	type Model,
	registerFauxProvider,
	type SimpleStreamOptions,
} from "../../../src/ai/index.ts";
import type { CompactionSettings } from "../../../src/compaction/index.ts";
import {
	attachAutoCompaction,
	type CompactionDeps,
	compactNow,
	runCompaction,
	type SessionEvent,
} from "../../../src/runtime/index.ts";
import { SessionManager } from "../../../src/session/index.ts";
import { recordedSession } from "../../support/recorded-session.ts";

const faux = registerFauxProvider({
	provider: "faux-life",
	models: [
		{ id: "big", contextWindow: 200_000 },
		{ id: "small", contextWindow: 200_000 },
	],
});
afterAll(() => faux.unregister());

const FILLER = "lorem ipsum dolor sit amet ".repeat(150);
const SETTINGS: CompactionSettings = { enabled: false, reserveTokens: 16384, keepRecentTokens: 500 };

type Failed = Parameters<NonNullable<NonNullable<CompactionDeps["hooks"]>["failed"]>>[0];

async function setup(hooks: CompactionDeps["hooks"] = {}) {
	const { manager, session } = recordedSession(faux.getModel());
	faux.setResponses([0, 1, 2].map((i) => fauxAssistantMessage([fauxText(`answer ${i} ${FILLER}`)])));
	for (let i = 0; i < 3; i++) await session.prompt(`question ${i} ${FILLER}`);
	const events: SessionEvent[] = [];
	session.subscribe((e) => {
		if (e.type === "compaction_start" || e.type === "compaction_end") events.push(e);
	});
	const failed: Failed[] = [];
	const deps: CompactionDeps = {
		session,
		manager,
		settings: SETTINGS,
		getApiKey: () => "k",
		hooks: {
			...hooks,
			failed: async (info) => {
				failed.push(info);
			},
		},
	};
	return { manager, session, deps, events, failed };
}

/** A summary request that waits until its request is aborted. */
function hanging(onStart?: () => void) {
	return (_c: unknown, options: SimpleStreamOptions | undefined): Promise<AssistantMessage> =>
		new Promise((resolve) => {
			const aborted = () =>
				resolve(fauxAssistantMessage([], { stopReason: "aborted", errorMessage: "Request was aborted" }));
			options?.signal?.addEventListener("abort", aborted);
			onStart?.();
			if (options?.signal?.aborted) aborted();
		});
}

const snapshot = (manager: SessionManager) => JSON.stringify(manager.getEntries());

describe("compaction lifecycle", () => {
	test("session.abort() stops a running summary: compaction_end aborted, nothing changed, failure reported", async () => {
		const { manager, session, deps, events, failed } = await setup();
		const before = snapshot(manager);
		const messages = session.messages.length;
		let started!: () => void;
		const requested = new Promise<void>((resolve) => {
			started = resolve;
		});
		faux.setResponses([hanging(started), hanging()] as never);
		const running = compactNow(deps).catch((error: Error) => error);
		await requested;
		expect(session.compacting).toBe(1);
		session.abort();
		const error = await running;
		expect((error as Error).message).toBe("Compaction cancelled");
		expect(events.map((e) => e.type)).toEqual(["compaction_start", "compaction_end"]);
		expect(events[1]).toEqual({ type: "compaction_end", reason: "manual", aborted: true, willRetry: false });
		expect(failed).toEqual([{ reason: "manual", aborted: true, willRetry: false, fromExtension: false }]);
		expect(snapshot(manager)).toBe(before);
		expect(session.messages.length).toBe(messages);
		expect(session.compacting).toBe(0);
	});

	test("a manual compaction aborts a running turn first, as pi does, and starts once the run has settled", async () => {
		const { manager, session, deps, events } = await setup();
		const order: string[] = [];
		session.subscribe((e) => {
			if (e.type === "agent_settled") order.push(`settled ${e.aborted}`);
			if (e.type === "compaction_start") order.push("compaction_start");
		});
		let turnStarted!: () => void;
		const streaming = new Promise<void>((resolve) => {
			turnStarted = resolve;
		});
		faux.setResponses([hanging(turnStarted), fauxAssistantMessage([fauxText("SUMMARY")])] as never);
		const run = session.prompt(`question 3 ${FILLER}`);
		await streaming;
		expect(session.isStreaming).toBe(true);
		const result = await compactNow(deps);
		await run;
		expect(order).toEqual(["settled true", "compaction_start"]);
		expect(result.summary).toContain("SUMMARY");
		expect(events.at(-1)).toMatchObject({ type: "compaction_end", aborted: false });
		expect(manager.getLeafEntry()?.type).toBe("compaction");
		expect(session.isStreaming).toBe(false);
	});

	test("session_before_compact gets the real signal: an abort while it runs aborts the compaction", async () => {
		let seen: AbortSignal | undefined;
		const { manager, session, deps, events } = await setup({
			before: async ({ signal }) => {
				seen = signal;
				session.abort();
				return undefined;
			},
		});
		const before = snapshot(manager);
		const outcome = await runCompaction(deps, { reason: "manual" });
		expect(seen?.aborted).toBe(true);
		expect(outcome).toMatchObject({ ok: false, aborted: true });
		expect(events.at(-1)).toMatchObject({ type: "compaction_end", aborted: true });
		expect(snapshot(manager)).toBe(before);
	});

	test("an extension's cancel is reported as pi does: 'Compaction cancelled', aborted", async () => {
		const { deps, events, failed } = await setup({ before: async () => ({ cancel: true }) });
		await expect(compactNow(deps)).rejects.toThrow("Compaction cancelled");
		expect(events.at(-1)).toEqual({ type: "compaction_end", reason: "manual", aborted: true, willRetry: false });
		expect(failed[0]).toMatchObject({ aborted: true, fromExtension: false });
	});

	test("compaction_end carries pi's CompactionResult: estimatedTokensAfter, usage, details", async () => {
		const { deps, events } = await setup();
		faux.setResponses([fauxAssistantMessage([fauxText("SUMMARY")]), fauxAssistantMessage([fauxText("PREFIX")])]);
		const result = await compactNow(deps);
		const end = events.at(-1) as Extract<SessionEvent, { type: "compaction_end" }>;
		expect(end.result).toBe(result);
		expect(result.estimatedTokensAfter).toBeGreaterThan(0);
		expect(result.estimatedTokensAfter).toBeLessThan(result.tokensBefore);
		expect(result.usage?.output).toBeGreaterThan(0);
		expect(result.details).toEqual({ readFiles: [], modifiedFiles: [] });
	});

	test("a failed manual compaction: compaction_end and session_compact_failed name it; nothing to compact too", async () => {
		const { deps, events, failed } = await setup();
		const down = () => fauxAssistantMessage([], { stopReason: "error", errorMessage: "model down" });
		faux.setResponses([down(), down()]);
		await expect(compactNow(deps)).rejects.toThrow("Summarization failed: model down");
		const message = "Compaction failed: Summarization failed: model down";
		expect(events.at(-1)).toMatchObject({ aborted: false, errorMessage: message });
		expect(failed.at(-1)).toEqual({
			reason: "manual",
			aborted: false,
			willRetry: false,
			fromExtension: false,
			errorMessage: message,
		});

		const empty = SessionManager.inMemory("/projects/demo");
		const outcome = await runCompaction({ ...deps, manager: empty }, { reason: "manual" });
		expect(outcome).toMatchObject({ ok: false, aborted: false, nothingToCompact: true });
		expect(events.at(-1)).toMatchObject({ errorMessage: "Compaction failed: Nothing to compact (session too small)" });
		// Automatic compaction with nothing to do stays silent.
		const count = events.length;
		expect((await runCompaction({ ...deps, manager: empty }, { reason: "threshold" })).ok).toBe(false);
		expect(events.length).toBe(count);
	});

	test("an automatic compaction is aborted by session.abort() as well", async () => {
		const { manager, session, deps, events, failed } = await setup();
		faux.setResponses([hanging(() => session.abort()), hanging()] as never);
		const before = snapshot(manager);
		const outcome = await runCompaction(deps, { reason: "threshold" });
		expect(outcome).toMatchObject({ ok: false, aborted: true });
		expect(events.at(-1)).toEqual({ type: "compaction_end", reason: "threshold", aborted: true, willRetry: false });
		expect(failed.at(-1)).toMatchObject({ reason: "threshold", aborted: true });
		expect(snapshot(manager)).toBe(before);
	});

	test("settings given as a function are resolved for the session's model at compaction time", async () => {
		const { session, deps } = await setup();
		const asked: string[] = [];
		// Only the second model's override keeps so little that there is something to compact.
		const settings = (model: Model): CompactionSettings => {
			asked.push(model.id);
			return { ...SETTINGS, keepRecentTokens: model.id === "small" ? 500 : 1_000_000 };
		};
		expect((await runCompaction({ ...deps, settings }, { reason: "manual" })).ok).toBe(false);
		session.agent.state.model = faux.getModel("small") as Model;
		faux.setResponses([fauxAssistantMessage([fauxText("S")]), fauxAssistantMessage([fauxText("P")])]);
		expect((await runCompaction({ ...deps, settings }, { reason: "manual" })).ok).toBe(true);
		expect(asked).toEqual(["big", "small"]);
	});

	test("auto-compaction reads `enabled` each time (set_auto_compaction)", async () => {
		const { session, manager } = await setup();
		const auto = { enabled: false };
		attachAutoCompaction({
			session,
			manager,
			settings: () => ({ ...SETTINGS, reserveTokens: 199_000, enabled: auto.enabled }),
			getApiKey: () => "k",
		});
		faux.setResponses([fauxAssistantMessage([fauxText("x")])]);
		await session.prompt("one more");
		expect(manager.getEntries().some((e) => e.type === "compaction")).toBe(false);
		auto.enabled = true;
		faux.setResponses([
			fauxAssistantMessage([fauxText("y")]),
			fauxAssistantMessage([fauxText("S")]),
			fauxAssistantMessage([fauxText("P")]),
		]);
		await session.prompt("and another");
		expect(manager.getEntries().some((e) => e.type === "compaction")).toBe(true);
	});
});
