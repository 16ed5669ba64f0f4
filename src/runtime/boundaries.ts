/**
 * The two actionable boundaries of a run (pi 0.80+): `turn_end` after each turn and `agent_before_settle` once
 * the run would settle. Handlers chain proposed entries (`custom`, `custom_message`, `context_edit`,
 * `compaction`), each proposal previewed through `buildContext` (a proposal that cannot be applied is reported
 * and dropped), and may ask for `continue`: one more model request. Accepted entries are appended to the session
 * (custom messages and compactions also change what the model sees); a continuation requested at either boundary
 * is taken once, after the run, before `agent_settled`.
 */
import type { AgentMessage } from "../agent/index.ts";
import type {
	AgentActivityOutcome,
	BoundaryContextPreview,
	ExtensionRunner,
	SessionBoundaryDraft,
} from "../extensions/index.ts";
import type { SessionManager } from "../session/index.ts";
import type { AgentSession } from "./agent-session.ts";
import { convertToLlm } from "./convert-to-llm.ts";
import { customMessage } from "./prompt-input.ts";

export interface BoundaryDeps {
	session: AgentSession;
	manager: () => SessionManager;
	runner: ExtensionRunner;
	context: () => unknown;
}

export class RunBoundaries {
	private continueRequested = false;

	constructor(private readonly d: BoundaryDeps) {
		d.session.runEndHooks.push(() => this.beforeSettle());
		d.session.subscribe((event) => {
			if (event.type === "turn_end") return this.turnEnd(event.message as AgentMessage, event.toolResults);
		});
	}

	private async turnEnd(message: AgentMessage, toolResults: unknown[]): Promise<void> {
		const index = this.d.session.turnIndex;
		if (!this.d.runner.hasHandlers("turn_end")) return;
		const ids = this.d
			.manager()
			.getBranchIds()
			.slice(-(toolResults.length + 1));
		const outcome = await this.d.runner.emit(
			"turn_end",
			{
				turnIndex: index,
				message,
				toolResults,
				messageEntryId: ids[0] ?? "",
				toolResultEntryIds: ids.slice(1),
				outcome: outcomeOf(message),
				buildContext: (entries: SessionBoundaryDraft[]) => this.preview(entries),
			} as never,
			this.d.context() as never,
		);
		this.apply(outcome.entries);
		if (outcome.continue) this.continueRequested = true;
	}

	private async beforeSettle(): Promise<"continue" | undefined> {
		let wanted = this.continueRequested;
		this.continueRequested = false;
		if (this.d.runner.hasHandlers("agent_before_settle")) {
			const last = this.d.session.lastAssistantMessage();
			const outcome = await this.d.runner.emit(
				"agent_before_settle",
				{
					outcome: last ? outcomeOf(last as AgentMessage) : "completed",
					buildContext: (entries: SessionBoundaryDraft[]) => this.preview(entries),
				} as never,
				this.d.context() as never,
			);
			this.apply(outcome.entries);
			wanted ||= outcome.continue;
		}
		const last = this.d.session.lastAssistantMessage();
		return wanted && last?.stopReason !== "aborted" ? "continue" : undefined;
	}

	/** What the context would be with `entries` appended; throws for a proposal that cannot be applied. */
	private preview(entries: SessionBoundaryDraft[]): BoundaryContextPreview {
		const manager = this.d.manager();
		const messages = [...this.d.session.messages];
		for (const draft of entries) {
			switch (draft?.type) {
				case "custom":
					if (typeof draft.customType !== "string") throw new Error("custom entry needs a customType");
					break;
				case "custom_message":
					if (typeof draft.customType !== "string") throw new Error("custom_message entry needs a customType");
					messages.push(customMessage(draft));
					break;
				case "context_edit":
					if (!manager.getEntry(draft.targetId)) throw new Error(`context_edit target ${draft.targetId} not found`);
					break;
				case "compaction":
					if (typeof draft.summary !== "string") throw new Error("compaction entry needs a summary");
					if (draft.firstKeptEntryId !== null && !manager.getEntry(draft.firstKeptEntryId)) {
						throw new Error(`compaction firstKeptEntryId ${draft.firstKeptEntryId} not found`);
					}
					break;
				default:
					throw new Error(`unknown boundary entry type ${JSON.stringify((draft as { type?: unknown })?.type)}`);
			}
		}
		const queued = this.d.session.agent.queuedMessages;
		return {
			contextEntries: manager.buildContextEntries() as never,
			contextMessages: messages,
			llmMessages: convertToLlm(messages),
			pendingMessages: [...queued.steering, ...queued.followUp],
			canContinue: true,
		};
	}

	private apply(entries: SessionBoundaryDraft[]): void {
		if (entries.length === 0) return;
		const manager = this.d.manager();
		let rebuild = false;
		for (const draft of entries) {
			switch (draft.type) {
				case "custom":
					manager.appendCustomEntry(draft.customType, draft.data);
					break;
				case "custom_message":
					manager.appendCustomMessageEntry(draft.customType, draft.content, draft.display, draft.details);
					this.d.session.agent.state.messages.push(customMessage(draft));
					break;
				case "context_edit":
					manager.appendContextEdit(draft.targetId, draft.replacement as never);
					rebuild = true;
					break;
				case "compaction":
					manager.appendCompaction(draft.summary, draft.firstKeptEntryId, 0, draft.details, true, draft.usage);
					rebuild = true;
					break;
			}
		}
		if (rebuild) this.d.session.agent.state.messages = [...manager.buildSessionContext().messages] as AgentMessage[];
	}
}

function outcomeOf(message: AgentMessage): AgentActivityOutcome {
	const stop = (message as { stopReason?: string }).stopReason;
	return stop === "aborted" ? "aborted" : stop === "error" ? "error" : "completed";
}
