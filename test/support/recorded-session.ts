/**
 * An in-memory session file with an agent session recording into it, on a given model: the set-up the runtime's
 * compaction, tree and lifecycle tests start from.
 */
import type { Model } from "../../src/ai/index.ts";
import { type AgentSession, createAgentSession, type RetrySettings, recordSession } from "../../src/runtime/index.ts";
import { SessionManager } from "../../src/session/index.ts";

export function recordedSession(
	model: Model,
	options: { systemPrompt?: string; retry?: RetrySettings } = {},
): { manager: SessionManager; session: AgentSession } {
	const manager = SessionManager.inMemory("/projects/demo");
	const session = createAgentSession({
		model,
		thinkingLevel: "off",
		tools: [],
		systemPrompt: options.systemPrompt ?? "",
		getApiKey: () => "k",
		...(options.retry ? { retry: options.retry } : {}),
	});
	recordSession(session, manager);
	return { manager, session };
}
