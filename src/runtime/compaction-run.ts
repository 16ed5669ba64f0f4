/**
 * Running a compaction: prepare it from the current branch, let `session_before_compact` cancel or supply it, have
 * the model write the summary (see compaction-summary.ts), record it as a compaction entry, and continue from the
 * rebuilt context. A failed, cancelled or aborted compaction changes nothing: the session file and the transcript
 * stay as they were. Events around it live in compaction-lifecycle.ts.
 */
import type { Model, Usage } from "../ai/index.ts";
import {
	type CompactionPreparation,
	type CompactionSettings,
	compactionDetails,
	estimateTokens,
	formatFileLists,
	prepareCompaction,
} from "../compaction/index.ts";
import type { SessionEntry, SessionManager } from "../session/index.ts";
import { timing } from "../util/index.ts";
import type { AgentSession } from "./agent-session.ts";
import { generateCompactionSummary, type SummaryRetry } from "./compaction-summary.ts";
import type { SummarizationSource } from "./events.ts";

export type CompactionReason = "manual" | "threshold" | "overflow";

/** What a compaction produced, in the shape of pi's `CompactionResult`. */
export interface CompactionResult {
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
	/** Estimated size of the rebuilt context. */
	estimatedTokensAfter?: number;
	/** What the summary requests cost. */
	usage?: Usage;
	/** Files read / modified (built-in summaries), or the extension's own data. */
	details?: unknown;
}

/** Earlier name of {@link CompactionResult}. */
export type CompactionOutcome = CompactionResult;

/** Compaction stopped by `session_before_compact` (`cancel`) or by an abort; nothing was changed. */
export class CompactionCancelledError extends Error {
	constructor() {
		super("Compaction cancelled");
		this.name = "CompactionCancelledError";
	}
}

/** Extension hooks (`session_before_compact` may cancel or supply the compaction; `session_compact` after). */
export interface CompactionHooks {
	before?(input: {
		preparation: CompactionPreparation;
		branchEntries: SessionEntry[];
		customInstructions?: string;
		reason: CompactionReason;
		signal: AbortSignal;
	}): Promise<{ cancel?: boolean; compaction?: CompactionResult } | undefined>;
	after?(entry: SessionEntry, fromExtension: boolean, reason: CompactionReason): Promise<void>;
	failed?(info: {
		reason: CompactionReason;
		errorMessage?: string;
		aborted: boolean;
		willRetry: boolean;
		fromExtension: boolean;
	}): Promise<void>;
}

export interface CompactionDeps {
	session: AgentSession;
	manager: SessionManager;
	/** Compaction settings; a function is asked for the session's current model each time a compaction runs. */
	settings: CompactionSettings | ((model: Model) => CompactionSettings);
	getApiKey: (model: Model) => string | undefined | Promise<string | undefined>;
	/** The model that writes summaries (settings `compaction.model`); default: the session's current model. */
	model?: Model | (() => Model | undefined);
	/** Settings `branchSummary.reserveTokens`: room kept free when a branch is summarised (default 16384). */
	branchSummaryReserveTokens?: number;
	hooks?: CompactionHooks;
}

/** The settings that apply now, for the session's current model. */
export function currentCompactionSettings(deps: CompactionDeps): CompactionSettings {
	const { settings } = deps;
	return typeof settings === "function" ? settings(deps.session.agent.state.model) : settings;
}

/** The model that writes summaries now. */
export function summaryModel(deps: CompactionDeps): Model {
	const chosen = typeof deps.model === "function" ? deps.model() : deps.model;
	return chosen ?? deps.session.agent.state.model;
}

export interface CompactSessionOptions {
	reason: CompactionReason;
	customInstructions?: string;
	signal?: AbortSignal;
	/** Called once there is something to compact, before any hook or model call. */
	onPrepared?: () => Promise<void>;
	/** Called when `session_before_compact` supplied the compaction. */
	onFromExtension?: () => void;
}

/**
 * Compacts the session's current branch. Resolves undefined when there is nothing to compact; throws
 * `CompactionCancelledError` when an extension cancels or `signal` aborts, and an Error when a summary fails.
 */
export async function compactSession(
	deps: CompactionDeps,
	options: CompactSessionOptions,
): Promise<CompactionResult | undefined> {
	const signal = options.signal ?? new AbortController().signal;
	timing("compaction: start");
	const branch = deps.manager.getBranch();
	const preparation = prepareCompaction(branch, currentCompactionSettings(deps));
	timing("compaction: prepared");
	if (!preparation) return undefined;
	await options.onPrepared?.();
	const stopIfAborted = () => {
		if (signal.aborted) throw new CompactionCancelledError();
	};
	stopIfAborted();
	const decision = await deps.hooks?.before?.({
		preparation,
		branchEntries: branch,
		...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
		reason: options.reason,
		signal,
	});
	if (decision?.cancel) throw new CompactionCancelledError();
	stopIfAborted();
	let result: CompactionResult;
	const fromExtension = decision?.compaction !== undefined;
	if (decision?.compaction) {
		options.onFromExtension?.();
		const { summary, firstKeptEntryId, tokensBefore, usage, details } = decision.compaction;
		result = { summary, firstKeptEntryId, tokensBefore, ...optional({ usage, details }) };
	} else {
		const model = summaryModel(deps);
		const apiKey = await deps.getApiKey(model);
		stopIfAborted();
		const generated = await generateCompactionSummary(
			{
				model,
				...(apiKey ? { apiKey } : {}),
				// As pi does: the session's stream function (a login's base URL and env are applied there).
				...(deps.session.agent.streamFn ? { streamFn: deps.session.agent.streamFn } : {}),
				...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
				signal,
				thinkingLevel: deps.session.agent.state.thinkingLevel,
				retry: summaryRetry(deps, { source: "compaction", reason: options.reason }),
			},
			preparation,
		);
		timing("compaction: summary written");
		result = {
			summary: `${generated.text}${formatFileLists(preparation.fileOps)}`,
			firstKeptEntryId: preparation.firstKeptEntryId,
			tokensBefore: preparation.tokensBefore,
			usage: generated.usage,
			details: compactionDetails(preparation.fileOps),
		};
	}
	stopIfAborted();
	deps.manager.appendCompaction(
		result.summary,
		result.firstKeptEntryId,
		result.tokensBefore,
		result.details,
		fromExtension,
		result.usage,
	);
	timing("compaction: recorded");
	const messages = [...deps.manager.buildSessionContext().messages];
	deps.session.agent.state.messages = messages;
	result.estimatedTokensAfter = messages.reduce((sum, m) => sum + estimateTokens(m), 0);
	timing("compaction: context rebuilt");
	await deps.hooks?.after?.(deps.manager.getLeafEntry() as SessionEntry, fromExtension, options.reason);
	timing("compaction: done");
	return result;
}

/** Summary requests retry transient failures with the session's retry settings and report it as session events. */
export function summaryRetry(deps: CompactionDeps, source: SummarizationSource): SummaryRetry {
	return { settings: deps.session.retry, source, emit: (event) => deps.session.emitEvent(event) };
}

function optional<T extends Record<string, unknown>>(fields: T): Partial<T> {
	const out: Partial<T> = {};
	for (const [key, value] of Object.entries(fields))
		if (value !== undefined) (out as Record<string, unknown>)[key] = value;
	return out;
}
