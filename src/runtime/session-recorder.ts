/**
 * Keeps the session file in step with the run: every finished message is appended (the session layer holds
 * everything back until the first assistant message, then writes each entry as one line), and a model or
 * thinking-level change is recorded when it differs from what the branch last said.
 */
import type { ThinkingLevel } from "../agent/index.ts";
import type { Model } from "../ai/index.ts";
import type { AppendableMessage, SessionManager } from "../session/index.ts";
import type { AgentSession } from "./agent-session.ts";

export function recordSession(session: AgentSession, manager: SessionManager): () => void {
	return session.subscribe((event) => {
		if (event.type === "message_end") manager.appendMessage(event.message as AppendableMessage);
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
