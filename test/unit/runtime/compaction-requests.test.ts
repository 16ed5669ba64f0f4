/**
 * Compaction's summary requests as the mock LLM server receives them: a split turn adds the turn-prefix request
 * (merged into the stored summary), a later compaction sends the previous summary (rolling update), and the output
 * budgets are pi's (80 % / 50 % of reserveTokens, capped by the model's maxTokens).
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Model } from "../../../src/ai/index.ts";
import { DEFAULT_COMPACTION_SETTINGS } from "../../../src/compaction/index.ts";
import { compactNow, createAgentSession } from "../../../src/runtime/index.ts";
import { SessionManager } from "../../../src/session/index.ts";
import { startMockLlm } from "../../support/mock-llm/index.ts";
import type { RecordedRequest } from "../../support/mock-llm/types.ts";
import { mockModel } from "../../support/models.ts";
import { assistantMsg, text, toolResultMsg } from "../compaction/helpers.ts";

const server = startMockLlm();
afterAll(() => server.stop());

/** Two turns; the second has tool calls (read a.ts, edit b.ts) and ends in a long reply. */
function twoTurns(manager: SessionManager): void {
	manager.appendMessage({ role: "user", content: `Q1 ${text(800)}`, timestamp: 1 });
	manager.appendMessage(assistantMsg(`A1 ${text(800)}`));
	manager.appendMessage({ role: "user", content: "Q2 please fix b.ts", timestamp: 2 });
	manager.appendMessage(assistantMsg("", [{ id: "c1", name: "read", args: { path: "src/a.ts" } }]));
	manager.appendMessage(toolResultMsg("c1", "contents of a"));
	manager.appendMessage(assistantMsg("", [{ id: "c2", name: "edit", args: { path: "src/b.ts" } }]));
	manager.appendMessage(toolResultMsg("c2", "edited", "edit"));
	manager.appendMessage(assistantMsg(`Fixed. ${text(800)}`));
}

function setup(model: Model, reserveTokens = DEFAULT_COMPACTION_SETTINGS.reserveTokens) {
	const manager = SessionManager.inMemory("/projects/demo");
	const session = createAgentSession({
		model,
		thinkingLevel: "off",
		tools: [],
		systemPrompt: "",
		getApiKey: () => "k",
	});
	const deps = {
		session,
		manager,
		settings: { enabled: true, reserveTokens, keepRecentTokens: 500 },
		getApiKey: () => "mock-key",
	};
	return { manager, session, deps };
}

const prompt = (r: RecordedRequest): string => JSON.stringify(r.body.messages);
const isPrefix = (r: RecordedRequest) => prompt(r).includes("Original Request");

describe("compaction requests (mock server)", () => {
	test("a split turn makes the turn-prefix request too; both summaries are merged into the stored one", async () => {
		const { manager, session, deps } = setup(mockModel("anthropic-messages", server.url, { maxTokens: 8192 }), 2000);
		twoTurns(manager);
		session.agent.state.messages = [...manager.buildSessionContext().messages];
		const before = server.requests.length;
		server.push({ kind: "reply", text: "SUMMARY-PART-ONE" }, { kind: "reply", text: "SUMMARY-PART-TWO" });
		const result = await compactNow(deps);
		const requests = server.requests.slice(before);
		expect(requests).toHaveLength(2);
		const prefix = requests.find(isPrefix) as RecordedRequest;
		const main = requests.find((r) => !isPrefix(r)) as RecordedRequest;
		expect(prompt(prefix)).toContain("Q2 please fix b.ts");
		expect(prompt(prefix)).not.toContain("Q1 ");
		expect(prompt(main)).toContain("Q1 ");
		expect(prompt(main)).not.toContain("Q2 please fix");
		// Output budgets: 80 % and 50 % of reserveTokens 2000, below the model's maxTokens.
		expect(main.body.max_tokens).toBe(1600);
		expect(prefix.body.max_tokens).toBe(1000);
		const stored = manager.getEntries().find((e) => e.type === "compaction") as { summary: string; details: unknown };
		expect(stored.summary).toContain("SUMMARY-PART-ONE");
		expect(stored.summary).toContain("SUMMARY-PART-TWO");
		expect(stored.summary).toContain("split turn");
		expect(stored.summary).toContain("<read-files>\nsrc/a.ts\n</read-files>");
		expect(stored.summary).toContain("<modified-files>\nsrc/b.ts\n</modified-files>");
		expect(stored.details).toEqual({ readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] });
		expect(result.summary).toBe(stored.summary);
		expect(result.usage?.output).toBeGreaterThan(0);
	});

	test("a second compaction's request carries the previous summary (rolling update); budgets capped by maxTokens", async () => {
		const { manager, session, deps } = setup(mockModel("anthropic-messages", server.url, { maxTokens: 700 }));
		twoTurns(manager);
		session.agent.state.messages = [...manager.buildSessionContext().messages];
		server.push({ kind: "reply", text: "FIRST-SUMMARY-TEXT" }, { kind: "reply", text: "FIRST-PREFIX-TEXT" });
		await compactNow(deps);
		manager.appendMessage({ role: "user", content: `Q3 ${text(800)}`, timestamp: 3 });
		manager.appendMessage(assistantMsg(`A3 ${text(800)}`));
		manager.appendMessage({ role: "user", content: `Q4 ${text(800)}`, timestamp: 4 });
		manager.appendMessage(assistantMsg(`A4 ${text(800)}`));
		session.agent.state.messages = [...manager.buildSessionContext().messages];
		const before = server.requests.length;
		server.push({ kind: "reply", text: "SECOND-SUMMARY" }, { kind: "reply", text: "SECOND-PREFIX" });
		await compactNow(deps);
		const requests = server.requests.slice(before);
		const main = requests.find((r) => !isPrefix(r)) as RecordedRequest;
		expect(prompt(main)).toContain("<previous-summary>");
		expect(prompt(main)).toContain("FIRST-SUMMARY-TEXT");
		expect(prompt(main)).toContain("Q3 ");
		// Only what came after the first compaction's kept boundary is sent again.
		expect(prompt(main)).not.toContain("Q1 ");
		for (const request of requests) expect(request.body.max_tokens).toBe(700);
		const compactions = manager.getEntries().filter((e) => e.type === "compaction");
		expect(compactions).toHaveLength(2);
		expect((compactions[1] as { summary: string }).summary).toContain("SECOND-SUMMARY");
		// The file lists of the first compaction are carried over.
		expect((compactions[1] as { details: unknown }).details).toEqual({
			readFiles: ["src/a.ts"],
			modifiedFiles: ["src/b.ts"],
		});
	});
});
