/**
 * Keeps the session file in step with the run: every finished message is appended (the session layer holds
 * everything back until the first assistant message, then writes each entry as one line), and a model or
 * thinking-level change is recorded when it differs from what the branch last said.
 */
import type { ThinkingLevel } from "../agent/index.ts";
import type { Model } from "../ai/index.ts";
import {
	type AppendableMessage,
	SessionFileChangedError,
	type SessionManager,
	SessionReadOnlyError,
} from "../session/index.ts";
import { errorMessage } from "../util/index.ts";
import type { AgentSession } from "./agent-session.ts";
import type { SessionSaveFailure } from "./events.ts";

/**
 * A failed write (the file changed under us, the disk is full, the session is read-only) is reported once, through
 * `onError` (stderr, or the chat in the interactive mode) and as a `session_save_failed` event (JSON and RPC
 * clients), and recording stops; the run itself goes on.
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
			const message = `Session not saved from here on: ${errorMessage(error)}`;
			onError(message);
			const sessionFile = manager.getSessionFile();
			void session.emitEvent({
				type: "session_save_failed",
				reason: saveFailure(error),
				...(sessionFile ? { sessionFile } : {}),
				message,
			});
		}
	});
}

function saveFailure(error: unknown): SessionSaveFailure {
	if (!(error instanceof SessionReadOnlyError)) return "write_error";
	return error.cause instanceof SessionFileChangedError ? "file_changed" : "read_only";
}

/** Appends model_change / thinking_level_change entries when the run starts with different settings. */
export function recordSettings(manager: SessionManager, model: Model, thinkingLevel: ThinkingLevel): void {
	const context = manager.buildSessionContext();
	if (context.model?.provider !== model.provider || context.model?.modelId !== model.id) {
		manager.appendModelChange(model.provider, model.id);
	}
	if (context.thinkingLevel !== thinkingLevel) manager.appendThinkingLevelChange(thinkingLevel);
}
