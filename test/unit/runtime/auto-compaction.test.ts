import { afterAll, describe, expect, test } from "bun:test";
import { type Context, fauxAssistantMessage, fauxText, registerFauxProvider } from "../../../src/ai/index.ts";
import { attachAutoCompaction, type SessionEvent } from "../../../src/runtime/index.ts";
import { recordedSession } from "../../support/recorded-session.ts";

const faux = registerFauxProvider({ provider: "faux-small", models: [{ id: "small", contextWindow: 6000 }] });
afterAll(() => faux.unregister());

const FILLER = "lorem ipsum dolor sit amet ".repeat(150); // ≈ 1000 tokens
const isSummaryRequest = (context: Context) => JSON.stringify(context.messages).includes("<conversation>");

function setup() {
	const { manager, session } = recordedSession(faux.getModel(), {
		systemPrompt: "sys",
		retry: { enabled: false, maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 },
	});
	attachAutoCompaction({
		session,
		manager,
		settings: { enabled: true, reserveTokens: 1500, keepRecentTokens: 800 },
		getApiKey: () => "k",
	});
	const events: SessionEvent[] = [];
	session.subscribe((e) => {
		events.push(e);
	});
	return { manager, session, events };
}

describe("auto-compaction", () => {
	test("threshold: once the context reaches into the reserve, older turns are compacted after the run", async () => {
		const { session, events } = setup();
		const reply = (context: Context) =>
			fauxAssistantMessage([fauxText(isSummaryRequest(context) ? "SUMMARY of earlier work" : `reply ${FILLER}`)]);
		faux.setResponses(Array.from({ length: 12 }, () => reply));
		for (let i = 0; i < 3; i++) await session.prompt(`question ${i} ${FILLER}`);
		const end = events.find((e) => e.type === "compaction_end");
		expect(events.find((e) => e.type === "compaction_start")).toEqual({
			type: "compaction_start",
			reason: "threshold",
		});
		expect(end).toMatchObject({ reason: "threshold", willRetry: false });
		expect((session.messages[0] as { role: string; summary?: string }).role).toBe("compactionSummary");
		expect((session.messages[0] as { summary: string }).summary).toContain("SUMMARY of earlier work");
		expect(events.indexOf(end as SessionEvent)).toBeLessThan(events.map((e) => e.type).lastIndexOf("agent_settled"));
	});

	test("overflow: the failed reply is dropped, the branch compacted, and the run continued once", async () => {
		const { session, events } = setup();
		faux.setResponses([
			fauxAssistantMessage([fauxText(`first ${FILLER}`)]),
			fauxAssistantMessage([fauxText(`second ${FILLER}`)]),
		]);
		await session.prompt(`one ${FILLER}`);
		await session.prompt(`two ${FILLER}`);
		events.length = 0;
		let overflowed = false;
		const step = (context: Context) => {
			if (isSummaryRequest(context)) return fauxAssistantMessage([fauxText("SUMMARY")]);
			if (!overflowed) {
				overflowed = true;
				return fauxAssistantMessage([], {
					stopReason: "error",
					errorMessage: "Faux API error 400: prompt is too long: 9000 tokens > 6000 maximum",
				});
			}
			return fauxAssistantMessage([fauxText("final answer")]);
		};
		faux.setResponses(Array.from({ length: 6 }, () => step));
		await session.prompt("three");
		expect(events.find((e) => e.type === "compaction_end")).toMatchObject({ reason: "overflow", willRetry: true });
		const last = session.lastAssistantMessage();
		expect(last?.stopReason).toBe("stop");
		expect(last?.content).toEqual([{ type: "text", text: "final answer" }]);
		expect(session.messages.some((m) => (m as { stopReason?: string }).stopReason === "error")).toBe(false);
	});

	test("a compaction that fails reports errorMessage and leaves the run as it ended", async () => {
		const { session, events } = setup();
		const step = (context: Context) =>
			isSummaryRequest(context)
				? fauxAssistantMessage([], { stopReason: "error", errorMessage: "summary model down" })
				: fauxAssistantMessage([fauxText(`reply ${FILLER}`)]);
		faux.setResponses(Array.from({ length: 12 }, () => step));
		for (let i = 0; i < 3; i++) await session.prompt(`question ${i} ${FILLER}`);
		const end = events.find((e) => e.type === "compaction_end");
		expect(end).toMatchObject({
			reason: "threshold",
			errorMessage: "Auto-compaction failed: Summarization failed: summary model down",
		});
		expect((session.messages[0] as { role: string }).role).toBe("user");
	});
});
