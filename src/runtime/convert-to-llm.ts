/**
 * The coding agent's `convertToLlm`: the roles only pi knows (shell commands the user ran, extension messages,
 * branch and compaction summaries) become user-role text the model understands; system messages (the prompt and
 * tool declarations) pass through to the provider, which replays them; unknown roles are left out.
 */
import type { AgentMessage } from "../agent/index.ts";
import type { TranscriptMessage } from "../ai/index.ts";
import type {
	BashExecutionMessage,
	BranchSummaryMessage,
	CompactionSummaryMessage,
	CustomMessage,
} from "../session/index.ts";

type BashExecutionLike = BashExecutionMessage;
type CustomLike = CustomMessage;
type SummaryLike = BranchSummaryMessage | CompactionSummaryMessage;

export function bashExecutionText(m: BashExecutionLike): string {
	const lines = [`The user ran a shell command: \`${m.command}\``, "```", m.output.trimEnd() || "(no output)", "```"];
	if (m.cancelled) lines.push("(the command was cancelled)");
	else if (m.exitCode !== undefined && m.exitCode !== 0) lines.push(`(exit code ${m.exitCode})`);
	if (m.truncated) lines.push(`(output truncated${m.fullOutputPath ? `; full output in ${m.fullOutputPath}` : ""})`);
	return lines.join("\n");
}

/**
 * The frames around a summary in the model context. Their exact text is part of pi's API (pi-agent-core and
 * pi-coding-agent export these four constants, and extensions match on them), so they are pi 0.87.1's values.
 */
export const COMPACTION_SUMMARY_PREFIX =
	"The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX =
	"The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

export function convertToLlm(messages: AgentMessage[]): TranscriptMessage[] {
	const out: TranscriptMessage[] = [];
	for (const message of messages) {
		const m = message as { role?: string };
		switch (m.role) {
			case "user":
			case "assistant":
			case "toolResult":
			case "system":
				out.push(message as TranscriptMessage);
				break;
			case "bashExecution": {
				const bash = m as BashExecutionLike;
				if (!bash.excludeFromContext) {
					out.push({
						role: "user",
						content: [{ type: "text", text: bashExecutionText(bash) }],
						timestamp: bash.timestamp,
					});
				}
				break;
			}
			case "custom": {
				const custom = m as CustomLike;
				const content =
					typeof custom.content === "string" ? [{ type: "text" as const, text: custom.content }] : custom.content;
				out.push({ role: "user", content, timestamp: custom.timestamp });
				break;
			}
			case "branchSummary":
			case "compactionSummary": {
				const summary = m as SummaryLike;
				const branch = summary.role === "branchSummary";
				const prefix = branch ? BRANCH_SUMMARY_PREFIX : COMPACTION_SUMMARY_PREFIX;
				const suffix = branch ? BRANCH_SUMMARY_SUFFIX : COMPACTION_SUMMARY_SUFFIX;
				out.push({
					role: "user",
					content: [{ type: "text", text: `${prefix}${summary.summary}${suffix}` }],
					timestamp: summary.timestamp,
				});
				break;
			}
			default:
				// Unknown custom roles carry nothing for the chat history.
				break;
		}
	}
	return out;
}
