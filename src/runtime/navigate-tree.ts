/**
 * Moving within the session tree (`ctx.navigateTree`): the leaf moves to the target (to its parent when the
 * target is a user message, whose text the user would edit again), and the branch being left can be summarised —
 * the entries back to the common ancestor, with the files they touched — into a `branch_summary` entry at the new
 * position. `session_before_tree` may cancel or supply the summary; `session_tree` follows.
 */
import type { AgentMessage } from "../agent/index.ts";
import { type AssistantMessage, completeSimple } from "../ai/index.ts";
import {
	collectFileOps,
	compactionDetails,
	entryMessage,
	estimateTokens,
	formatFileLists,
	serializeConversation,
	toFileOps,
} from "../compaction/index.ts";
import type { SessionEntry } from "../session/index.ts";
import type { CompactionDeps } from "./compaction-run.ts";

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
				summary?: { summary: string; details?: unknown };
				customInstructions?: string;
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

const BRANCH_PROMPT = `Summarise the conversation above: it is a branch the user is leaving. Write what was tried, what was
learned or decided, and what state the work was left in, so the conversation can continue elsewhere with that
knowledge. Use short sections (## Tried, ## Learned, ## State). Keep file paths and names exact.`;

export async function navigateTree(
	deps: CompactionDeps & { treeHooks?: TreeHooks },
	targetId: string,
	options: TreeNavigationOptions = {},
): Promise<{ cancelled: boolean }> {
	const { manager, session } = deps;
	const target = manager.getEntry(targetId);
	if (!target) throw new Error(`navigateTree: no entry ${targetId} in this session`);
	const oldLeafId = manager.getLeafId();
	const oldPath = manager.getBranch();
	const targetPath = new Set(manager.getBranch(targetId).map((e) => e.id));
	const common = [...oldPath].reverse().find((e) => targetPath.has(e.id));
	const entriesToSummarize = oldPath.slice(common ? oldPath.indexOf(common) + 1 : 0);
	let preparation: TreePreparationInfo = {
		targetId,
		oldLeafId,
		commonAncestorId: common?.id ?? null,
		entriesToSummarize,
		userWantsSummary: options.summarize === true,
		...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
		...(options.replaceInstructions !== undefined ? { replaceInstructions: options.replaceInstructions } : {}),
		...(options.label ? { label: options.label } : {}),
	};
	const decision = await deps.treeHooks?.before?.(preparation, new AbortController().signal);
	if (decision?.cancel) return { cancelled: true };
	if (decision?.customInstructions) preparation = { ...preparation, customInstructions: decision.customInstructions };
	const label = decision?.label ?? preparation.label;

	const isUser = target.type === "message" && (target as { message: { role: string } }).message.role === "user";
	const newLeafId = isUser ? (target.parentId ?? null) : targetId;
	let summaryEntry: SessionEntry | undefined;
	const wantSummary = preparation.userWantsSummary || decision?.summary !== undefined;
	if (wantSummary && entriesToSummarize.length > 0) {
		const summary = decision?.summary ?? (await summarise(deps, entriesToSummarize, preparation));
		const id = manager.branchWithSummary(newLeafId, summary.summary, summary.details, decision?.summary !== undefined);
		summaryEntry = manager.getEntry(id);
	} else if (newLeafId === null) manager.resetLeaf();
	else manager.branch(newLeafId);
	if (label) manager.appendLabelChange(targetId, label);
	session.agent.state.messages = [...manager.buildSessionContext().messages];
	await deps.treeHooks?.after?.({
		newLeafId: manager.getLeafId(),
		oldLeafId,
		...(summaryEntry ? { summaryEntry, fromExtension: decision?.summary !== undefined } : {}),
	});
	return { cancelled: false };
}

async function summarise(
	deps: CompactionDeps,
	entries: SessionEntry[],
	preparation: TreePreparationInfo,
): Promise<{ summary: string; details: unknown }> {
	const all = entries.map((e) => entryMessage(e)).filter((m): m is AgentMessage => m !== undefined);
	// Within a token budget: the newest messages of the branch that fit in the model's window minus the reserve.
	const model0 = deps.model ?? deps.session.agent.state.model;
	const budget = Math.max(1000, model0.contextWindow - deps.settings.reserveTokens);
	const messages: AgentMessage[] = [];
	let used = 0;
	for (let i = all.length - 1; i >= 0; i--) {
		const cost = estimateTokens(all[i] as AgentMessage);
		if (used + cost > budget && messages.length > 0) break;
		messages.unshift(all[i] as AgentMessage);
		used += cost;
	}
	const files = toFileOps(collectFileOps(all));
	const model = deps.model ?? deps.session.agent.state.model;
	const apiKey = await deps.getApiKey(model);
	const instructions = preparation.customInstructions
		? preparation.replaceInstructions
			? preparation.customInstructions
			: `${BRANCH_PROMPT}\n\nAlso: ${preparation.customInstructions}`
		: BRANCH_PROMPT;
	const reply: AssistantMessage = await completeSimple(
		model,
		{
			messages: [
				{
					role: "user",
					content: `<conversation>\n${serializeConversation(messages)}\n</conversation>\n\n${instructions}`,
					timestamp: Date.now(),
				},
			],
		},
		{ maxTokens: Math.floor(deps.settings.reserveTokens * 0.8), ...(apiKey ? { apiKey } : {}) },
	);
	if (reply.stopReason === "error" || reply.stopReason === "aborted") {
		throw new Error(`branch summary failed: ${reply.errorMessage ?? reply.stopReason}`);
	}
	const text = reply.content
		.filter((b) => b.type === "text")
		.map((b) => (b as { text: string }).text)
		.join("")
		.trim();
	return { summary: `${text}${formatFileLists(files)}`, details: compactionDetails(files) };
}
