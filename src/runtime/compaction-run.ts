/**
 * Running a compaction: prepare it from the current branch, have the model write the summary (and, for a split
 * turn, the prefix summary in parallel), record it as a compaction entry, and continue from the rebuilt context.
 * A failed or aborted compaction changes nothing: the session file and the transcript stay as they were.
 */
import type { AgentMessage } from "../agent/index.ts";
import { type AssistantMessage, completeSimple, isContextOverflow, type Model } from "../ai/index.ts";
import {
	buildSummaryPrompt,
	buildTurnPrefixPrompt,
	type CompactionPreparation,
	type CompactionSettings,
	compactionDetails,
	formatFileLists,
	maxSummaryTokens,
	prepareCompaction,
	serializeConversation,
} from "../compaction/index.ts";
import type { SessionEntry, SessionManager } from "../session/index.ts";
import type { AgentSession } from "./agent-session.ts";

export type CompactionReason = "manual" | "threshold" | "overflow";

export interface CompactionOutcome {
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
}

/** Extension hooks (`session_before_compact` may cancel or supply the compaction; `session_compact` after). */
export interface CompactionHooks {
	before?(input: {
		preparation: CompactionPreparation;
		branchEntries: SessionEntry[];
		customInstructions?: string;
		reason: CompactionReason;
		signal: AbortSignal;
	}): Promise<{ cancel?: boolean; compaction?: CompactionOutcome & { details?: unknown } } | undefined>;
	after?(entry: SessionEntry, fromExtension: boolean, reason: CompactionReason): Promise<void>;
	failed?(errorMessage: string, reason: CompactionReason): Promise<void>;
}

export interface CompactionDeps {
	session: AgentSession;
	manager: SessionManager;
	settings: CompactionSettings;
	getApiKey: (model: Model) => string | undefined | Promise<string | undefined>;
	/** The model that writes summaries (settings `compaction.model`; default: the session's). */
	model?: Model;
	hooks?: CompactionHooks;
}

/** Compacts the session's current branch. Resolves undefined when there is nothing to compact. */
export async function compactSession(
	deps: CompactionDeps,
	options: { reason: CompactionReason; customInstructions?: string; signal?: AbortSignal },
): Promise<CompactionOutcome | undefined> {
	const branch = deps.manager.getBranch();
	const preparation = prepareCompaction(branch, deps.settings);
	if (!preparation) return undefined;
	const decision = await deps.hooks?.before?.({
		preparation,
		branchEntries: branch,
		...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
		reason: options.reason,
		signal: options.signal ?? new AbortController().signal,
	});
	if (decision?.cancel) return undefined;
	if (decision?.compaction) {
		const supplied = decision.compaction;
		deps.manager.appendCompaction(
			supplied.summary,
			supplied.firstKeptEntryId,
			supplied.tokensBefore,
			supplied.details,
			true,
		);
		deps.session.agent.state.messages = [...deps.manager.buildSessionContext().messages];
		await deps.hooks?.after?.(deps.manager.getLeafEntry() as SessionEntry, true, options.reason);
		return {
			summary: supplied.summary,
			firstKeptEntryId: supplied.firstKeptEntryId,
			tokensBefore: supplied.tokensBefore,
		};
	}
	const model = deps.model ?? deps.session.agent.state.model;
	const apiKey = await deps.getApiKey(model);
	const ask = (messages: AgentMessage[], prompt: string, maxTokens: number) =>
		completeSimple(
			model,
			{
				messages: [
					{
						role: "user",
						content: `<conversation>\n${serializeConversation(messages)}\n</conversation>\n\n${prompt}`,
						timestamp: Date.now(),
					},
				],
			},
			{ maxTokens, ...(apiKey ? { apiKey } : {}), ...(options.signal ? { signal: options.signal } : {}) },
		);
	const reserve = deps.settings.reserveTokens;
	const summaryPrompt = buildSummaryPrompt({
		...(preparation.previousSummary !== undefined ? { previousSummary: preparation.previousSummary } : {}),
		...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
	});
	// A transcript too long for the summary model itself is retried on its newer half, up to three times.
	const summarise = async (messages: AgentMessage[]): Promise<AssistantMessage> => {
		let slice = messages;
		for (let attempt = 0; ; attempt++) {
			const reply = await ask(slice, summaryPrompt, maxSummaryTokens(reserve));
			if (!isContextOverflow(reply) || attempt >= 3 || slice.length < 2) return reply;
			slice = slice.slice(Math.floor(slice.length / 2));
		}
	};
	const [main, prefix] = await Promise.all([
		summarise(preparation.messagesToSummarize),
		preparation.isSplitTurn
			? ask(preparation.turnPrefixMessages, buildTurnPrefixPrompt(), maxSummaryTokens(reserve, true))
			: Promise.resolve(undefined),
	]);
	for (const reply of [main, prefix]) {
		if (reply && (reply.stopReason === "error" || reply.stopReason === "aborted")) {
			throw new Error(`compaction failed: ${reply.errorMessage ?? reply.stopReason}`);
		}
	}
	const text = [textOf(main), prefix ? `## Turn so far\n${textOf(prefix)}` : ""].filter(Boolean).join("\n\n");
	const summary = `${text}${formatFileLists(preparation.fileOps)}`;
	deps.manager.appendCompaction(
		summary,
		preparation.firstKeptEntryId,
		preparation.tokensBefore,
		compactionDetails(preparation.fileOps),
	);
	deps.session.agent.state.messages = [...deps.manager.buildSessionContext().messages];
	await deps.hooks?.after?.(deps.manager.getLeafEntry() as SessionEntry, false, options.reason);
	return { summary, firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: preparation.tokensBefore };
}

function textOf(message: AssistantMessage | undefined): string {
	if (!message) return "";
	return message.content
		.filter((b) => b.type === "text")
		.map((b) => (b as { text: string }).text)
		.join("")
		.trim();
}
