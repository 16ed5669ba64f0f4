/**
 * Keeps the session file in step with the run: every finished message is appended (the session layer holds
 * everything back until the first assistant message, then writes each entry as one line), and a model or
 * thinking-level change is recorded when it differs from what the branch last said.
 */
import type { ThinkingLevel } from "../agent/index.ts";
import type { Model } from "../ai/index.ts";
import type { AppendableMessage, SessionManager } from "../session/index.ts";
import { errorMessage } from "../util/index.ts";
import type { AgentSession } from "./agent-session.ts";

/**
 * A failed write (the file changed under us, the disk is full, the session is read-only) is reported once through
 * `onError` and recording stops; the run itself goes on.
 */
export function recordSession(
	session: AgentSession,
	manager: SessionManager,
	onError: (message: string) => void = () => {},
): () => void {
	let failed = false;
	return session.subscribe((event) => {
		if (failed || event.type !== "message_end") return;
		try {
			manager.appendMessage(event.message as AppendableMessage);
		} catch (error) {
			failed = true;
			onError(`Session not saved from here on: ${errorMessage(error)}`);
		}
	});
}

/** Appends model_change / thinking_level_change entries when the run starts with different settings. */
export function recordSettings(manager: SessionManager, model: Model, thinkingLevel: ThinkingLevel): void {
	const context = manager.buildSessionContext();
	if (context.model?.provider !== model.provider || context.model?.modelId !== model.id) {
		manager.appendModelChange(model.provider, model.id);
	}
	if (context.thinkingLevel !== thinkingLevel) manager.appendThinkingLevelChange(thinkingLevel);
}
