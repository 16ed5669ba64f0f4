/**
 * One compaction as the session reports it, for every entry point (RPC `compact`, `/compact`, `ctx.compact()`,
 * threshold and overflow): `compaction_start`, the compaction under its own abort signal (`session.abort()` and RPC
 * `abort` stop it), `compaction_end` with pi's result or `aborted` / `errorMessage`, and `session_compact_failed`
 * for extensions when it did not complete. Counted in `session.compacting` (`isCompacting`) while it runs.
 */
import { errorMessage } from "../util/index.ts";
import {
	CompactionCancelledError,
	type CompactionDeps,
	type CompactionReason,
	type CompactionResult,
	compactSession,
} from "./compaction-run.ts";

export interface CompactionRequest {
	reason: CompactionReason;
	customInstructions?: string;
	/** Overflow recovery: the interrupted run continues once the compaction succeeded. */
	willRetry?: boolean;
}

export type CompactionRunOutcome =
	| { ok: true; result: CompactionResult }
	| {
			ok: false;
			/** Aborted, or cancelled by `session_before_compact`. */
			aborted: boolean;
			/** Nothing to compact (automatic compaction then emits no events at all). */
			nothingToCompact: boolean;
			error: Error;
	  };

/** Why a manual compaction found nothing to do, worded as pi words it. */
export class NothingToCompactError extends Error {
	constructor(alreadyCompacted: boolean) {
		super(alreadyCompacted ? "Already compacted" : "Nothing to compact (session too small)");
		this.name = "NothingToCompactError";
	}
}

const FAILURE_PREFIX: Record<CompactionReason, string> = {
	manual: "Compaction failed",
	threshold: "Auto-compaction failed",
	overflow: "Context overflow recovery failed",
};

/**
 * Runs one compaction with its events. A manual compaction announces itself at once; an automatic one only once
 * there is something to compact. Never throws: the outcome says what happened.
 */
export async function runCompaction(deps: CompactionDeps, request: CompactionRequest): Promise<CompactionRunOutcome> {
	const { session } = deps;
	const { reason } = request;
	const willRetry = request.willRetry === true;
	const controller = new AbortController();
	let started = false;
	let fromExtension = false;
	const start = async () => {
		started = true;
		await session.emitEvent({ type: "compaction_start", reason });
	};
	session.compacting++;
	session.summarizing.add(controller);
	try {
		if (reason === "manual") await start();
		const result = await compactSession(deps, {
			reason,
			...(request.customInstructions ? { customInstructions: request.customInstructions } : {}),
			signal: controller.signal,
			...(started ? {} : { onPrepared: start }),
			onFromExtension: () => {
				fromExtension = true;
			},
		});
		if (!result) {
			const last = deps.manager.getBranch().at(-1);
			throw new NothingToCompactError(last?.type === "compaction");
		}
		await session.emitEvent({ type: "compaction_end", reason, result, aborted: false, willRetry });
		return { ok: true, result };
	} catch (thrown) {
		const aborted = controller.signal.aborted || thrown instanceof CompactionCancelledError;
		// An aborted request surfaces as whatever the provider said; the caller is told what happened instead.
		const error = aborted
			? new CompactionCancelledError()
			: thrown instanceof Error
				? thrown
				: new Error(String(thrown));
		if (started) {
			const message = aborted ? undefined : `${FAILURE_PREFIX[reason]}: ${errorMessage(error)}`;
			const failure = { aborted, willRetry: false, ...(message !== undefined ? { errorMessage: message } : {}) };
			await session.emitEvent({ type: "compaction_end", reason, ...failure });
			await deps.hooks?.failed?.({ reason, fromExtension, ...failure });
		}
		return { ok: false, aborted, nothingToCompact: error instanceof NothingToCompactError, error };
	} finally {
		session.summarizing.delete(controller);
		session.compacting--;
	}
}

/**
 * Manual compaction (`/compact`, RPC `compact`, `ctx.compact()`): the result, or the failure thrown as pi does.
 * As in pi, whatever the session is doing is aborted first (a run, a retry wait, a summary), and the compaction
 * starts once the run has settled.
 */
export async function compactNow(deps: CompactionDeps, customInstructions?: string): Promise<CompactionResult> {
	deps.session.abort();
	await deps.session.waitForIdle();
	const outcome = await runCompaction(deps, {
		reason: "manual",
		...(customInstructions ? { customInstructions } : {}),
	});
	if (!outcome.ok) throw outcome.error;
	return outcome.result;
}
