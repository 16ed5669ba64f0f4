/**
 * Moving within the session tree (`ctx.navigateTree`): the leaf moves to the target (to its parent when the
 * target is a user message, whose text the user would edit again), and the branch being left can be summarised —
 * the entries back to the common ancestor, with the files they touched — into a `branch_summary` entry at the new
 * position. `session_before_tree` may cancel or supply the summary; `session_tree` follows.
 */
import type { Usage } from "../ai/index.ts";
import type { SessionEntry } from "../session/index.ts";
import { generateBranchSummary } from "./branch-summary.ts";
import { type CompactionDeps, summaryModel, summaryRetry } from "./compaction-run.ts";

export interface TreeNavigationOptions {
	summarize?: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

export interface TreePreparationInfo {
	targetId: string;
	oldLeafId: string | null;
	commonAncestorId: string | null;
	entriesToSummarize: SessionEntry[];
	userWantsSummary: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

export interface TreeHooks {
	before?(
		preparation: TreePreparationInfo,
		signal: AbortSignal,
	): Promise<
		| {
				cancel?: boolean;
				summary?: { summary: string; details?: unknown; usage?: Usage };
				customInstructions?: string;
				replaceInstructions?: boolean;
				label?: string;
		  }
		| undefined
	>;
	after?(info: {
		newLeafId: string | null;
		oldLeafId: string | null;
		summaryEntry?: SessionEntry;
		fromExtension?: boolean;
	}): Promise<void>;
}

/**
 * Moves the leaf to `targetId`. With `summarize`, the branch left behind is summarised (or the summary
 * `session_before_tree` supplies is used) into a `branch_summary` entry at the new position, which then carries the
 * label; otherwise the label goes to the target. `session.abort()` during the summary abandons the navigation.
 */
export async function navigateTree(
	deps: CompactionDeps & { treeHooks?: TreeHooks },
	targetId: string,
	options: TreeNavigationOptions = {},
): Promise<{ cancelled: boolean; aborted?: boolean }> {
	const { manager, session } = deps;
	const oldLeafId = manager.getLeafId();
	if (targetId === oldLeafId) return { cancelled: false };
	const target = manager.getEntry(targetId);
	if (!target) throw new Error(`navigateTree: no entry ${targetId} in this session`);
	const oldPath = manager.getBranch();
	const targetPath = new Set(manager.getBranch(targetId).map((e) => e.id));
	const common = [...oldPath].reverse().find((e) => targetPath.has(e.id));
	const entriesToSummarize = oldPath.slice(common ? oldPath.indexOf(common) + 1 : 0);
	const preparation: TreePreparationInfo = {
		targetId,
		oldLeafId,
		commonAncestorId: common?.id ?? null,
		entriesToSummarize,
		userWantsSummary: options.summarize === true,
		...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
		...(options.replaceInstructions !== undefined ? { replaceInstructions: options.replaceInstructions } : {}),
		...(options.label ? { label: options.label } : {}),
	};
	const controller = new AbortController();
	session.summarizing.add(controller);
	try {
		const decision = await deps.treeHooks?.before?.(preparation, controller.signal);
		if (decision?.cancel) return { cancelled: true };
		const customInstructions = decision?.customInstructions ?? preparation.customInstructions;
		const replaceInstructions = decision?.replaceInstructions ?? preparation.replaceInstructions;
		const label = decision?.label ?? preparation.label;
		const supplied = options.summarize ? decision?.summary : undefined;

		let summary: { summary: string; details?: unknown; usage?: Usage } | undefined = supplied;
		if (options.summarize && !supplied && entriesToSummarize.length > 0) {
			const model = summaryModel(deps);
			const apiKey = await deps.getApiKey(model);
			const result = await generateBranchSummary(entriesToSummarize, {
				model,
				...(apiKey ? { apiKey } : {}),
				...(session.agent.streamFn ? { streamFn: session.agent.streamFn } : {}),
				signal: controller.signal,
				...(customInstructions ? { customInstructions } : {}),
				...(replaceInstructions !== undefined ? { replaceInstructions } : {}),
				...(deps.branchSummaryReserveTokens !== undefined ? { reserveTokens: deps.branchSummaryReserveTokens } : {}),
				retry: summaryRetry(deps, { source: "branchSummary" }),
			});
			if (result.aborted || controller.signal.aborted) return { cancelled: true, aborted: true };
			if (result.error) throw new Error(result.error);
			summary = {
				summary: result.summary ?? "",
				details: { readFiles: result.readFiles ?? [], modifiedFiles: result.modifiedFiles ?? [] },
				...(result.usage ? { usage: result.usage } : {}),
			};
		}
		if (controller.signal.aborted) return { cancelled: true, aborted: true };

		const isUser = target.type === "message" && (target as { message: { role: string } }).message.role === "user";
		const newLeafId = isUser || target.type === "custom_message" ? (target.parentId ?? null) : targetId;
		let summaryEntry: SessionEntry | undefined;
		if (summary) {
			const fromExtension = supplied !== undefined;
			const id = manager.branchWithSummary(newLeafId, summary.summary, summary.details, fromExtension, summary.usage);
			summaryEntry = manager.getEntry(id);
			if (label) manager.appendLabelChange(id, label);
		} else {
			if (newLeafId === null) manager.resetLeaf();
			else manager.branch(newLeafId);
			if (label) manager.appendLabelChange(targetId, label);
		}
		session.agent.state.messages = [...manager.buildSessionContext().messages];
		// The branch now in use brings back the tool loadout its transcript declares.
		session.promptState.restoreTools(session.agent.state.messages);
		await deps.treeHooks?.after?.({
			newLeafId: manager.getLeafId(),
			oldLeafId,
			...(summaryEntry ? { summaryEntry, fromExtension: supplied !== undefined } : {}),
		});
		return { cancelled: false };
	} finally {
		session.summarizing.delete(controller);
	}
}
