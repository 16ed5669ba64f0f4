/**
 * Running a compaction: prepare it from the current branch, have the model write the summary (and, for a split
 * turn, the prefix summary in parallel), record it as a compaction entry, and continue from the rebuilt context.
 * A failed or aborted compaction changes nothing: the session file and the transcript stay as they were.
 */
import type { AgentMessage } from "../agent/index.ts";
import { type AssistantMessage, completeSimple, type Model } from "../ai/index.ts";
import {
	buildSummaryPrompt,
	buildTurnPrefixPrompt,
	type CompactionSettings,
	compactionDetails,
	formatFileLists,
	maxSummaryTokens,
	prepareCompaction,
	serializeConversation,
} from "../compaction/index.ts";
import type { SessionManager } from "../session/index.ts";
import type { AgentSession } from "./agent-session.ts";

export type CompactionReason = "manual" | "threshold" | "overflow";

export interface CompactionOutcome {
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
}

export interface CompactionDeps {
	session: AgentSession;
	manager: SessionManager;
	settings: CompactionSettings;
	getApiKey: (model: Model) => string | undefined | Promise<string | undefined>;
	/** The model that writes summaries (default: the session's). */
	model?: Model;
}

/** Compacts the session's current branch. Resolves undefined when there is nothing to compact. */
export async function compactSession(
	deps: CompactionDeps,
	options: { reason: CompactionReason; customInstructions?: string; signal?: AbortSignal },
): Promise<CompactionOutcome | undefined> {
	const preparation = prepareCompaction(deps.manager.getBranch(), deps.settings);
	if (!preparation) return undefined;
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
	const [main, prefix] = await Promise.all([
		ask(
			preparation.messagesToSummarize,
			buildSummaryPrompt({
				...(preparation.previousSummary !== undefined ? { previousSummary: preparation.previousSummary } : {}),
				...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
			}),
			maxSummaryTokens(reserve),
		),
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
