import { afterAll, describe, expect, test } from "bun:test";
import { fauxAssistantMessage, fauxText, registerFauxProvider, streamSimple } from "../../../src/ai/index.ts";
import { DEFAULT_COMPACTION_SETTINGS } from "../../../src/compaction/index.ts";
import { compactSession, createAgentSession } from "../../../src/runtime/index.ts";
import { SessionManager } from "../../../src/session/index.ts";
import { recordedSession } from "../../support/recorded-session.ts";

const faux = registerFauxProvider();
afterAll(() => faux.unregister());

async function longSession() {
	const { manager, session } = recordedSession(faux.getModel(), { systemPrompt: "sys" });
	const filler = "lorem ipsum dolor sit amet ".repeat(200);
	for (let i = 0; i < 6; i++) {
		faux.setResponses([fauxAssistantMessage([fauxText(`answer ${i} ${filler}`)])]);
		await session.prompt(`question ${i} ${filler}`);
	}
	return { manager, session };
}

describe("compactSession", () => {
	test("summarises older turns into a compaction entry; the context restarts from the summary", async () => {
		const { manager, session } = await longSession();
		const before = session.messages.length;
		// Two replies: the summary, and the turn-prefix summary when the cut splits a turn.
		faux.setResponses([
			fauxAssistantMessage([fauxText("## Goal\nAnswer questions")]),
			fauxAssistantMessage([fauxText("prefix")]),
		]);
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 3000 };
		const outcome = await compactSession(
			{ session, manager, settings, getApiKey: () => "k" },
			{ reason: "manual", customInstructions: "focus on goals" },
		);
		expect(outcome?.summary).toContain("## Goal");
		const entry = manager.getEntries().find((e) => e.type === "compaction") as { firstKeptEntryId: string } | undefined;
		expect(entry?.firstKeptEntryId).toBe(outcome?.firstKeptEntryId as string);
		const roles = session.messages.map((m) => (m as { role: string }).role);
		expect(roles[0]).toBe("compactionSummary");
		expect(session.messages.length).toBeLessThan(before);
	});

	test("the summary goes through the session's stream function, as pi's does (a login's base URL applies)", async () => {
		const { manager, session } = await longSession();
		const seen: string[] = [];
		session.agent.streamFn = (model, context, options) => {
			seen.push(model.baseUrl);
			return streamSimple({ ...model, baseUrl: model.baseUrl }, context, options);
		};
		faux.setResponses([fauxAssistantMessage([fauxText("## Goal")]), fauxAssistantMessage([fauxText("prefix")])]);
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 3000 };
		const outcome = await compactSession({ session, manager, settings, getApiKey: () => "k" }, { reason: "manual" });
		expect(outcome?.summary).toContain("## Goal");
		expect(seen.length).toBeGreaterThan(0);
	});

	test("a failed summary changes nothing", async () => {
		const { manager, session } = await longSession();
		const entries = manager.getEntries().length;
		const messages = session.messages.length;
		const down = () => fauxAssistantMessage([], { stopReason: "error", errorMessage: "summary model down" });
		faux.setResponses([down(), down()]);
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 3000 };
		await expect(
			compactSession({ session, manager, settings, getApiKey: () => "k" }, { reason: "manual" }),
		).rejects.toThrow("Summarization failed: summary model down");
		expect(manager.getEntries().length).toBe(entries);
		expect(session.messages.length).toBe(messages);
	});

	test("a summary request that overflows is retried on a smaller slice", async () => {
		const { manager, session } = await longSession();
		const sizes: number[] = [];
		let first = true;
		const step = (context: { messages: Array<{ content: unknown }> }) => {
			const text = JSON.stringify(context.messages);
			// Only the main summary requests count; a split turn adds a prefix request ("Original Request").
			if (text.includes("Original Request")) return fauxAssistantMessage([fauxText("prefix")]);
			sizes.push(text.length);
			if (first) {
				first = false;
				return fauxAssistantMessage([], {
					stopReason: "error",
					errorMessage: "Faux API error 400: prompt is too long",
				});
			}
			return fauxAssistantMessage([fauxText("SMALLER SUMMARY")]);
		};
		faux.setResponses([step, step, step, step] as never);
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 3000 };
		const outcome = await compactSession({ session, manager, settings, getApiKey: () => "k" }, { reason: "manual" });
		expect(outcome?.summary).toContain("SMALLER SUMMARY");
		expect(sizes.length).toBeGreaterThanOrEqual(2);
		expect(sizes[1] as number).toBeLessThan(sizes[0] as number);
	});

	test("nothing to compact resolves undefined", async () => {
		const manager = SessionManager.inMemory("/projects/demo");
		const session = createAgentSession({
			model: faux.getModel(),
			thinkingLevel: "off",
			tools: [],
			systemPrompt: "",
			getApiKey: () => "k",
		});
		const outcome = await compactSession(
			{ session, manager, settings: DEFAULT_COMPACTION_SETTINGS, getApiKey: () => "k" },
			{ reason: "manual" },
		);
		expect(outcome).toBeUndefined();
	});
});

describe("compacting pi's own v1 session", () => {
	test("v1-before-compaction.jsonl migrates, compacts once more, and the context restarts from the new summary", async () => {
		const { copyFileSync, mkdtempSync, rmSync } = await import("node:fs");
		const { join } = await import("node:path");
		const { tmpdir } = await import("node:os");
		const dir = mkdtempSync(join(tmpdir(), "pi-compact-fixture-"));
		try {
			const fixture = join(
				import.meta.dir,
				"..",
				"..",
				"..",
				"..",
				"shared",
				"fixtures",
				"pi-sessions",
				"v1-before-compaction.jsonl",
			);
			const file = join(dir, "s.jsonl");
			copyFileSync(fixture, file);
			const manager = SessionManager.open(file, dir);
			const session = createAgentSession({
				model: faux.getModel(),
				thinkingLevel: "off",
				tools: [],
				systemPrompt: "",
				getApiKey: () => "k",
			});
			session.agent.state.messages = [...manager.buildSessionContext().messages];
			const before = manager.getEntries().filter((e) => e.type === "compaction").length;
			faux.setResponses([fauxAssistantMessage([fauxText("NEW SUMMARY")]), fauxAssistantMessage([fauxText("prefix")])]);
			const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 2000 };
			const outcome = await compactSession({ session, manager, settings, getApiKey: () => "k" }, { reason: "manual" });
			expect(outcome?.summary).toContain("NEW SUMMARY");
			expect(manager.getEntries().filter((e) => e.type === "compaction").length).toBe(before + 1);
			const first = session.messages[0] as { role: string; summary: string };
			expect(first.role).toBe("compactionSummary");
			expect(first.summary).toContain("NEW SUMMARY");
			manager.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
