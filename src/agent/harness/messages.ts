/**
 * The message roles pi-agent-core adds to `AgentMessage` (shell runs, extension messages, branch and compaction
 * summaries) and its `convertToLlm`, which turns them into user-role text and keeps the LLM roles (system
 * included) as they are.
 */
import type { ImageContent, Message, TextContent } from "../../ai/index.ts";
import type { AgentMessage } from "../types.ts";

// The exact wording the model sees; pi's compaction helpers share these texts.
const COMPACTION_PREFIX =
	"The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const COMPACTION_SUFFIX = "\n</summary>";
const BRANCH_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
const BRANCH_SUFFIX = "</summary>";

export interface BashExecutionMessage {
	role: "bashExecution";
	command: string;
	output: string;
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
	timestamp: number;
	excludeFromContext?: boolean;
}

export interface CustomMessage<T = unknown> {
	role: "custom";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: T;
	timestamp: number;
}

export interface BranchSummaryMessage {
	role: "branchSummary";
	summary: string;
	fromId: string | null;
	timestamp: number;
}

export interface CompactionSummaryMessage {
	role: "compactionSummary";
	summary: string;
	tokensBefore: number;
	timestamp: number;
}

/** How a shell run the user made reads to the model. */
export function bashExecutionToText(msg: BashExecutionMessage): string {
	let text = `Ran \`${msg.command}\`\n`;
	text += msg.output ? `\`\`\`\n${msg.output}\n\`\`\`` : "(no output)";
	if (msg.cancelled) text += "\n\n(command cancelled)";
	else if (msg.exitCode != null && msg.exitCode !== 0) text += `\n\nCommand exited with code ${msg.exitCode}`;
	if (msg.truncated && msg.fullOutputPath) text += `\n\n[Output truncated. Full output: ${msg.fullOutputPath}]`;
	return text;
}

function userText(text: string, timestamp: number): Message {
	return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** pi-agent-core's `convertToLlm`: agent roles become user text; unknown roles are dropped. */
export function convertToLlm(messages: AgentMessage[]): Message[] {
	const out: Message[] = [];
	for (const message of messages) {
		const m = message as unknown as { role: string };
		switch (m.role) {
			case "bashExecution": {
				const bash = m as unknown as BashExecutionMessage;
				if (!bash.excludeFromContext) out.push(userText(bashExecutionToText(bash), bash.timestamp));
				break;
			}
			case "custom": {
				const custom = m as unknown as CustomMessage;
				const content =
					typeof custom.content === "string" ? [{ type: "text" as const, text: custom.content }] : custom.content;
				out.push({ role: "user", content, timestamp: custom.timestamp });
				break;
			}
			case "branchSummary": {
				const summary = m as unknown as BranchSummaryMessage;
				out.push(userText(BRANCH_PREFIX + summary.summary + BRANCH_SUFFIX, summary.timestamp));
				break;
			}
			case "compactionSummary": {
				const summary = m as unknown as CompactionSummaryMessage;
				out.push(userText(COMPACTION_PREFIX + summary.summary + COMPACTION_SUFFIX, summary.timestamp));
				break;
			}
			case "system":
			case "user":
			case "assistant":
			case "toolResult":
				out.push(message as Message);
				break;
			default:
				break;
		}
	}
	return out;
}
