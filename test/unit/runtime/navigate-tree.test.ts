import { afterAll, describe, expect, test } from "bun:test";
import {
	type AssistantMessage,
	type Context,
	fauxAssistantMessage,
	fauxText,
	registerFauxProvider,
	type SimpleStreamOptions,
} from "../../../src/ai/index.ts";
import { computeFileLists, DEFAULT_COMPACTION_SETTINGS } from "../../../src/compaction/index.ts";
import { createAgentSession, navigateTree, prepareBranchEntries } from "../../../src/runtime/index.ts";
import { SessionManager } from "../../../src/session/index.ts";
import { recordedSession } from "../../support/recorded-session.ts";
import { assistantMsg, text, toolResultMsg } from "../compaction/helpers.ts";

const faux = registerFauxProvider({ provider: "faux-tree" });
const small = registerFauxProvider({
	provider: "faux-tree-small",
	models: [{ id: "s", contextWindow: 20_000, maxTokens: 2000 }],
});
afterAll(() => {
	faux.unregister();
	small.unregister();
});

async function twoTurns() {
	const { manager, session } = recordedSession(faux.getModel());
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
			id: string;
			parentId: string;
			summary: string;
		};
		expect(summary.parentId).toBe(q2.parentId);
		expect(summary.summary).toContain("approach B");
		// As pi does: with a summary, the label goes to the summary entry.
		expect(manager.getLabel(summary.id)).toBe("before B");
		const roles = session.messages.map((m) => (m as { role: string }).role);
		expect(roles).toEqual(["user", "assistant", "branchSummary"]);
	});

	test("a session_before_tree-style hook can cancel, or supply the summary when one is wanted (fromHook)", async () => {
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
			{ summarize: true },
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

/**
 * root Q/A, then a branch: an earlier branch summary (with file lists), OLDEST (≈1500 tokens), an assistant that
 * reads src/old.ts and says MIDDLE (≈1500 tokens), NEWEST (≈1000 tokens), an assistant that edits src/new.ts.
 */
function longBranch() {
	const manager = SessionManager.inMemory("/projects/demo");
	const session = createAgentSession({
		model: small.getModel(),
		thinkingLevel: "off",
		tools: [],
		systemPrompt: "",
		getApiKey: () => "k",
	});
	manager.appendMessage({ role: "user", content: "root question", timestamp: 1 });
	const rootAnswer = manager.appendMessage(assistantMsg("root answer"));
	manager.branchWithSummary(rootAnswer, "earlier branch", { readFiles: ["docs/x.md"], modifiedFiles: ["src/prev.ts"] });
	manager.appendMessage({ role: "user", content: `OLDEST ${text(1500)}`, timestamp: 2 });
	manager.appendMessage(
		assistantMsg(`MIDDLE ${text(1500)}`, [{ id: "r1", name: "read", args: { path: "src/old.ts" } }]),
	);
	manager.appendMessage(toolResultMsg("r1", "old contents"));
	manager.appendMessage({ role: "user", content: `NEWEST ${text(1000)}`, timestamp: 3 });
	manager.appendMessage(assistantMsg("", [{ id: "e1", name: "edit", args: { path: "src/new.ts" } }]));
	manager.appendMessage(toolResultMsg("e1", "edited", "edit"));
	session.agent.state.messages = [...manager.buildSessionContext().messages];
	const deps = { session, manager, settings: DEFAULT_COMPACTION_SETTINGS, getApiKey: () => "k" };
	return { manager, session, deps, rootAnswer };
}

/** Records each summary request's prompt text and maxTokens, then answers `reply`. */
function capture(reply = "BRANCH SUMMARY") {
	const seen: { prompt: string; maxTokens?: number }[] = [];
	const step = (context: Context, options: SimpleStreamOptions | undefined): AssistantMessage => {
		seen.push({
			prompt: JSON.stringify(context.messages),
			...(options?.maxTokens ? { maxTokens: options.maxTokens } : {}),
		});
		return fauxAssistantMessage([fauxText(reply)]);
	};
	return { seen, step };
}

describe("branch summaries", () => {
	test("branchSummary.reserveTokens sets the budget (window − reserve, newest first); output ≤ min(4096, maxTokens)", async () => {
		const { manager, deps, rootAnswer } = longBranch();
		const { seen, step } = capture();
		small.setResponses([step]);
		await navigateTree({ ...deps, branchSummaryReserveTokens: 18_000 }, rootAnswer, { summarize: true });
		expect(seen).toHaveLength(1);
		const prompt = seen[0]?.prompt as string;
		expect(prompt).toContain("NEWEST");
		expect(prompt).not.toContain("MIDDLE");
		expect(prompt).not.toContain("OLDEST");
		expect(seen[0]?.maxTokens).toBe(2000);
		expect(manager.getLeafId()).not.toBe(rootAnswer);
		// A larger budget (the default reserve of 16384 leaves 3616 tokens) reaches further back.
		const again = longBranch();
		const second = capture();
		small.setResponses([second.step]);
		await navigateTree(again.deps, again.rootAnswer, { summarize: true });
		expect(second.seen[0]?.prompt).toContain("MIDDLE");
		expect(second.seen[0]?.prompt).not.toContain("OLDEST");
	});

	test("the summary lists the files the whole branch read and modified, with an earlier branch summary's", async () => {
		const { manager, deps, rootAnswer } = longBranch();
		small.setResponses([capture("WHAT HAPPENED").step]);
		await navigateTree({ ...deps, branchSummaryReserveTokens: 18_000 }, rootAnswer, { summarize: true });
		const entry = manager.getLeafEntry() as { type: string; summary: string; details: unknown; parentId: string };
		expect(entry.type).toBe("branch_summary");
		expect(entry.parentId).toBe(rootAnswer);
		expect(entry.summary).toContain("WHAT HAPPENED");
		expect(entry.summary).toContain("<read-files>\ndocs/x.md\nsrc/old.ts\n</read-files>");
		expect(entry.summary).toContain("<modified-files>\nsrc/new.ts\nsrc/prev.ts\n</modified-files>");
		expect(entry.details).toEqual({
			readFiles: ["docs/x.md", "src/old.ts"],
			modifiedFiles: ["src/new.ts", "src/prev.ts"],
		});
	});

	test("replaceInstructions from session_before_tree makes its customInstructions the whole prompt", async () => {
		const { deps, rootAnswer } = longBranch();
		const { seen, step } = capture();
		small.setResponses([step]);
		await navigateTree(
			{
				...deps,
				treeHooks: { before: async () => ({ customInstructions: "ONLY LIST THE FILES", replaceInstructions: true }) },
			},
			rootAnswer,
			{ summarize: true, customInstructions: "ignored focus" },
		);
		const prompt = seen[0]?.prompt as string;
		expect(prompt).toContain("ONLY LIST THE FILES");
		expect(prompt).not.toContain("ignored focus");
		expect(prompt).not.toContain("## Tried");
		// Without replace, the instructions are added to ours.
		const other = longBranch();
		const plain = capture();
		small.setResponses([plain.step]);
		await navigateTree(other.deps, other.rootAnswer, { summarize: true, customInstructions: "FOCUS ON TESTS" });
		expect(plain.seen[0]?.prompt).toContain("FOCUS ON TESTS");
		expect(plain.seen[0]?.prompt).toContain("## Tried");
	});

	test("session.abort() during the summary abandons the navigation: nothing written, leaf unchanged", async () => {
		const { manager, session, deps, rootAnswer } = longBranch();
		const leaf = manager.getLeafId();
		const entries = manager.getEntries().length;
		small.setResponses([
			((_c: Context, options: SimpleStreamOptions | undefined) =>
				new Promise<AssistantMessage>((resolve) => {
					options?.signal?.addEventListener("abort", () =>
						resolve(fauxAssistantMessage([], { stopReason: "aborted", errorMessage: "aborted" })),
					);
					session.abort();
				})) as never,
		]);
		const result = await navigateTree(deps, rootAnswer, { summarize: true });
		expect(result).toEqual({ cancelled: true, aborted: true });
		expect(manager.getLeafId()).toBe(leaf);
		expect(manager.getEntries().length).toBe(entries);
	});

	test("prepareBranchEntries: an earlier summary still goes in while under 90 % of the budget", () => {
		const { manager, rootAnswer } = longBranch();
		const branch = manager.getBranch();
		const entries = branch.slice(branch.findIndex((e) => e.id === rootAnswer) + 1);
		// Budget 1600: NEWEST's 1000 and the edit fit (tool results are left out, as pi does); MIDDLE does not, and
		// it is not a summary.
		const prepared = prepareBranchEntries(entries, 1600);
		expect(prepared.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(computeFileLists(prepared.fileOps)).toEqual({
			readFiles: ["docs/x.md", "src/old.ts"],
			modifiedFiles: ["src/new.ts", "src/prev.ts"],
		});
		// Over budget, a summary is squeezed in while less than 90 % is used; a plain message is not.
		expect(prepareBranchEntries(entries.slice(0, 1), 2).messages.map((m) => m.role)).toEqual(["branchSummary"]);
		expect(prepareBranchEntries(entries.slice(1, 2), 2).messages).toEqual([]);
		expect(prepareBranchEntries(entries.slice(1, 2), 0).messages).toHaveLength(1);
	});
});
