import { afterAll, describe, expect, test } from "bun:test";
import { fauxAssistantMessage, fauxText, registerFauxProvider } from "../../../src/ai/index.ts";
import { DEFAULT_COMPACTION_SETTINGS } from "../../../src/compaction/index.ts";
import { createAgentSession, navigateTree, recordSession } from "../../../src/runtime/index.ts";
import { SessionManager } from "../../../src/session/index.ts";

const faux = registerFauxProvider({ provider: "faux-tree" });
afterAll(() => faux.unregister());

async function twoTurns() {
	const manager = SessionManager.inMemory("/projects/demo");
	const session = createAgentSession({
		model: faux.getModel(),
		thinkingLevel: "off",
		tools: [],
		systemPrompt: "",
		getApiKey: () => "k",
	});
	recordSession(session, manager);
	faux.setResponses([fauxAssistantMessage([fauxText("A1")]), fauxAssistantMessage([fauxText("A2")])]);
	await session.prompt("Q1");
	await session.prompt("Q2 try approach B");
	const entries = manager.getEntries().filter((e) => e.type === "message");
	const deps = { session, manager, settings: DEFAULT_COMPACTION_SETTINGS, getApiKey: () => "k" };
	return { manager, session, entries, deps };
}

const role = (e: unknown) => (e as { message: { role: string } }).message.role;

describe("navigateTree", () => {
	test("going back to a user message moves the leaf to its parent and summarises the branch left", async () => {
		const { manager, session, entries, deps } = await twoTurns();
		const q2 = entries.filter((e) => role(e) === "user")[1] as { id: string; parentId: string };
		faux.setResponses([fauxAssistantMessage([fauxText("## Tried\napproach B")])]);
		const result = await navigateTree(deps, q2.id, { summarize: true, label: "before B" });
		expect(result).toEqual({ cancelled: false });
		const summary = manager.getEntries().find((e) => e.type === "branch_summary") as {
			parentId: string;
			summary: string;
		};
		expect(summary.parentId).toBe(q2.parentId);
		expect(summary.summary).toContain("approach B");
		expect(manager.getLabel(q2.id)).toBe("before B");
		const roles = session.messages.map((m) => (m as { role: string }).role);
		expect(roles).toEqual(["user", "assistant", "branchSummary"]);
	});

	test("a session_before_tree-style hook can cancel, or supply the summary (fromHook)", async () => {
		const { manager, entries, deps } = await twoTurns();
		const first = entries[0] as { id: string };
		const leaf = manager.getLeafId();
		const cancelled = await navigateTree(
			{ ...deps, treeHooks: { before: async () => ({ cancel: true }) } },
			first.id,
			{},
		);
		expect(cancelled).toEqual({ cancelled: true });
		expect(manager.getLeafId()).toBe(leaf);
		let after: unknown;
		await navigateTree(
			{
				...deps,
				treeHooks: {
					before: async () => ({ summary: { summary: "from the extension" } }),
					after: async (info) => {
						after = info;
					},
				},
			},
			first.id,
			{},
		);
		const summary = manager.getEntries().find((e) => e.type === "branch_summary") as {
			summary: string;
			fromHook?: boolean;
		};
		expect(summary).toMatchObject({ summary: "from the extension", fromHook: true });
		expect(after).toMatchObject({ fromExtension: true });
	});

	test("without summarize the leaf just moves", async () => {
		const { manager, session, entries, deps } = await twoTurns();
		const a1 = entries.find((e) => role(e) === "assistant") as { id: string };
		await navigateTree(deps, a1.id);
		expect(manager.getLeafId()).toBe(a1.id);
		expect(manager.getEntries().some((e) => e.type === "branch_summary")).toBe(false);
		expect(session.messages.map((m) => (m as { role: string }).role)).toEqual(["user", "assistant"]);
	});
});
