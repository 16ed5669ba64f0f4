/**
 * Automatic compaction, after each run: when the context has grown into the reserve kept for the reply
 * (threshold), or when the provider refused the request as too long (overflow: the failed reply is dropped, the
 * branch compacted, and the run continued once). Emits `compaction_start` / `compaction_end`. Overflow recovery is
 * tried once per prompt: a second overflow before a reply gets through ends the run with `compaction_end` naming
 * the failure, as pi does, instead of compacting again.
 */
import { isContextOverflow } from "../ai/index.ts";
import { getContextUsage, shouldCompact } from "../compaction/index.ts";
import { runCompaction } from "./compaction-lifecycle.ts";
import { type CompactionDeps, type CompactionReason, currentCompactionSettings } from "./compaction-run.ts";

const RECOVERY_FAILED =
	"Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.";

export function attachAutoCompaction(deps: CompactionDeps): void {
	const { session } = deps;
	// Set by an overflow recovery; cleared by the next user message or a reply that got through.
	let recovered = false;
	session.subscribe((event) => {
		if (event.type !== "message_start" && event.type !== "message_end") return;
		const message = event.message as { role?: string; stopReason?: string };
		if (event.type === "message_start" && message.role === "user") recovered = false;
		const through = message.stopReason !== "error" && message.stopReason !== "length";
		if (event.type === "message_end" && message.role === "assistant" && through) recovered = false;
	});
	const run = async (reason: CompactionReason, willRetry: boolean): Promise<boolean> =>
		(await runCompaction(deps, { reason, willRetry })).ok;
	session.runEndHooks.push(async () => {
		const settings = currentCompactionSettings(deps);
		if (!settings.enabled) return undefined;
		const last = session.lastAssistantMessage();
		if (!last) return undefined;
		const model = session.agent.state.model;
		if (last.stopReason === "error" && isContextOverflow(last)) {
			if (recovered) {
				const failure = { aborted: false, willRetry: false, errorMessage: RECOVERY_FAILED };
				await session.emitEvent({ type: "compaction_end", reason: "overflow", ...failure });
				await deps.hooks?.failed?.({ reason: "overflow", fromExtension: false, ...failure });
				return undefined;
			}
			recovered = true;
			const messages = session.agent.state.messages;
			const dropped = messages[messages.length - 1] === last;
			if (dropped) messages.pop();
			if (!(await run("overflow", true))) {
				// Nothing changed: the transcript ends with the failed reply again, as the session file does.
				if (dropped && session.agent.state.messages === messages) messages.push(last);
				return undefined;
			}
			dropTrailingFailures(session.agent.state.messages);
			return "continue";
		}
		if (last.stopReason === "error" || last.stopReason === "aborted") return undefined;
		const usage = getContextUsage(session.messages, model.contextWindow);
		if (model.contextWindow > 0 && shouldCompact(usage.tokens, model.contextWindow, settings)) {
			await run("threshold", false);
		}
		return undefined;
	});
}

/** The rebuilt context may end with the failed reply (the session file keeps it); it must not be sent again. */
function dropTrailingFailures(messages: unknown[]): void {
	while (messages.length > 0) {
		const last = messages[messages.length - 1] as { role?: string; stopReason?: string };
		if (last.role !== "assistant" || (last.stopReason !== "error" && last.stopReason !== "aborted")) return;
		messages.pop();
	}
}
