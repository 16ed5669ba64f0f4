/**
 * A provider that refuses the credential (401/403) or whose account is out of quota is not retried, and its error
 * line alone does not say what to fix. The line is completed with where the credential came from (the variable,
 * the models.json entry, the login), so the one line the user reads names what to check.
 */
import { type AssistantMessage, accountProblem, type Model } from "../ai/index.ts";
import type { AgentSession } from "./agent-session.ts";

/** Completes the error line of a failed reply as it ends (before anything records or shows it). */
export function explainAccountErrors(session: AgentSession, hint: (model: Model) => string): void {
	session.subscribe((event) => {
		if (event.type !== "message_end") return;
		const message = event.message as AssistantMessage;
		if (message.role !== "assistant") return;
		const problem = accountProblem(message);
		if (problem === undefined) return;
		const where = hint(session.agent.state.model);
		message.errorMessage =
			problem === "quota"
				? `${message.errorMessage} — not retried: the account is out of quota or credit (${where})`
				: `${message.errorMessage} — ${where}`;
	});
}
