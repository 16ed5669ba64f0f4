/**
 * The chat region of the interactive mode: a resumed session's history, then the session's events as they happen
 * (messages, tool calls, summaries, retries and compactions), and the notices the app and `ctx.ui.notify` post.
 * The app mounts it between the header and the pending-messages area and feeds it every `SessionEvent`; the
 * status indicators and the pending area stay the app's (`statusIndicatorChange` says what an event does to the
 * indicator).
 */
import type { AgentMessage } from "../../../agent/index.ts";
import type { SessionEvent } from "../../../runtime/index.ts";
import type { SessionEntry, StoredMessage } from "../../../session/index.ts";
import { type Component, Container, Spacer, Text } from "../../../tui/index.ts";
import { AssistantMessageComponent, type BashExecutionComponent } from "../components/index.ts";
import { theme } from "../components/style.ts";
import { DEFAULT_HIDDEN_THINKING_LABEL, TranscriptFactory } from "./factory.ts";
import { FrozenChunks } from "./frozen-chunks.ts";
import { addMessage, renderEntries, renderItems } from "./history.ts";
import { handleAgentEvent } from "./live.ts";
import { ChatNotices } from "./notices.ts";
import type { ChatState } from "./state.ts";
import type { ChatTranscriptOptions } from "./types.ts";

type Expandable = Component & { setExpanded(expanded: boolean): void };
const isExpandable = (component: Component): component is Expandable =>
	typeof (component as Partial<Expandable>).setExpanded === "function";

export class ChatTranscript extends Container {
	private readonly options: ChatTranscriptOptions;
	private readonly factory: TranscriptFactory;
	private readonly notices: ChatNotices;
	private readonly state: ChatState;
	/** Finished messages joined into chunks that frames take as they are (see frozen-chunks.ts). */
	private readonly frozen = new FrozenChunks();
	private readonly changed = (child: Component) => () => this.frozen.thaw(this.children, child);

	constructor(options: ChatTranscriptOptions) {
		super();
		this.options = options;
		this.factory = new TranscriptFactory(options);
		this.notices = new ChatNotices(this, () => this.factory.outputPad);
		this.state = {
			chat: this,
			factory: this.factory,
			notices: this.notices,
			ui: options.ui,
			pendingTools: new Map(),
			streaming: undefined,
			retryAttempt: 0,
			onHistoryUserText: undefined,
		};
	}

	override render(width: number): string[] {
		return this.frozen.lines(this.renderBlocks(width));
	}

	/** The chat's lines in blocks: one per frozen chunk of finished messages, one per live child. */
	renderBlocks(width: number): string[][] {
		return this.frozen.blocks(this.children, width, this.changed);
	}

	override removeChild(component: Component): void {
		const index = this.children.indexOf(component);
		if (index >= 0) this.frozen.thawFrom(index);
		super.removeChild(component);
	}

	override invalidate(): void {
		this.frozen.thawAll();
		super.invalidate();
	}

	/** Whether an assistant message is being streamed into the chat. */
	get isStreaming(): boolean {
		return this.state.streaming !== undefined;
	}

	get toolsExpanded(): boolean {
		return this.factory.expanded;
	}

	get hideThinking(): boolean {
		return this.factory.hideThinking;
	}

	/** Shows what a session event changes in the chat (`queue_update` and the indicators are the app's). */
	handleEvent(event: SessionEvent): void {
		if (handleAgentEvent(this.state, event as never)) {
			this.options.ui.requestRender();
			return;
		}
		switch (event.type) {
			case "entry_appended":
				this.entryAppended(event.entry as SessionEntry);
				break;
			case "compaction_end":
				if (event.aborted) {
					if (event.reason === "manual") this.notices.error("Compaction cancelled");
					else this.notices.status("Auto-compaction cancelled");
				} else if (event.result) {
					this.afterCompaction(event.result.summary, event.result.tokensBefore, event.result.usage);
				} else if (event.errorMessage) {
					if (event.reason === "manual") this.notices.error(event.errorMessage);
					else {
						this.addChild(new Spacer(1));
						this.addChild(new Text(theme().fg("error", event.errorMessage), 1, 0));
					}
				}
				break;
			case "auto_retry_start":
				this.state.retryAttempt = event.attempt;
				break;
			case "auto_retry_end":
				this.state.retryAttempt = 0;
				if (!event.success)
					this.notices.error(`Retry failed after ${event.attempt} attempts: ${event.finalError || "Unknown error"}`);
				break;
			case "summarization_retry_scheduled":
				this.notices.error(event.errorMessage);
				break;
			default:
				return;
		}
		this.options.ui.requestRender();
	}

	/**
	 * Draws a session's compaction-aware context entries (`SessionManager.buildContextEntries()`), as pi does when it
	 * opens or switches to a session; user texts go to `onHistoryUserText`. One pass, whatever the length.
	 */
	renderHistory(entries: Iterable<SessionEntry>): void {
		this.state.onHistoryUserText = this.options.onHistoryUserText;
		try {
			renderEntries(this.state, entries);
		} finally {
			this.state.onHistoryUserText = undefined;
		}
	}

	/** Draws context messages (e.g. RPC `get_messages`, `AgentSession.messages`), tool calls matched with results. */
	renderMessages(messages: Iterable<AgentMessage | StoredMessage>): void {
		renderItems(this.state, messages as Iterable<StoredMessage>);
	}

	/** Clears the chat and draws the session's context again (after a setting that changes every message). */
	rebuildFromContext(): void {
		const entries = this.options.contextEntries?.();
		if (!entries) return;
		this.clearChat();
		renderEntries(this.state, entries);
	}

	/** Adds one message as pi's chat shows it (a tool result is shown only inside its tool call). */
	addMessage(message: AgentMessage | StoredMessage): void {
		addMessage(this.state, message);
		this.options.ui.requestRender();
	}

	/** A `!command` starting now, added to the chat; stream its output in with `appendOutput`, end with `setComplete`. */
	startBashExecution(command: string, excludeFromContext = false): BashExecutionComponent {
		const component = this.factory.bashRun(command, excludeFromContext);
		this.appendComponent(component);
		return component;
	}

	/** Adds a component made elsewhere (a `!command` run while streaming, moved in from the pending area). */
	appendComponent(component: Component): void {
		this.addChild(component);
		this.options.ui.requestRender();
	}

	/** A dim line after a blank line; a status right after another status replaces it. */
	showStatus(message: string): void {
		this.notices.status(message);
		this.options.ui.requestRender();
	}

	showWarning(message: string): void {
		this.notices.warning(message);
		this.options.ui.requestRender();
	}

	showError(message: string): void {
		this.notices.error(message);
		this.options.ui.requestRender();
	}

	showExtensionError(extensionPath: string, message: string, stack?: string): void {
		this.notices.extensionError(extensionPath, message, stack);
		this.options.ui.requestRender();
	}

	/**
	 * Expands or collapses every tool call, custom message, summary, skill and custom entry, now and later. Returns
	 * false (and does nothing) when it already was so; pi then posts no `Tool output: …` status either.
	 */
	setToolsExpanded(expanded: boolean): boolean {
		if (expanded === this.factory.expanded) return false;
		this.factory.expanded = expanded;
		this.frozen.thawAll();
		for (const child of this.children) if (isExpandable(child)) child.setExpanded(expanded);
		this.options.ui.requestRender();
		return true;
	}

	/** Hides or shows the thinking of every assistant message, now and later. */
	setHideThinking(hide: boolean): void {
		this.factory.hideThinking = hide;
		this.frozen.thawAll();
		for (const child of this.children) if (child instanceof AssistantMessageComponent) child.setHideThinkingBlock(hide);
		this.options.ui.requestRender();
	}

	/** The label hidden thinking shows (`ctx.ui.setHiddenThinkingLabel`); undefined restores "Thinking...". */
	setHiddenThinkingLabel(label?: string): void {
		this.factory.hiddenThinkingLabel = label ?? DEFAULT_HIDDEN_THINKING_LABEL;
		this.frozen.thawAll();
		for (const child of this.children)
			if (child instanceof AssistantMessageComponent) child.setHiddenThinkingLabel(this.factory.hiddenThinkingLabel);
		this.options.ui.requestRender();
	}

	/** Empties the chat and forgets the live turn (a new or switched session is drawn next). */
	override clear(): void {
		this.clearChat();
		this.state.streaming = undefined;
		this.state.pendingTools.clear();
		this.options.ui.requestRender();
	}

	private clearChat(): void {
		super.clear();
		this.frozen.thawAll();
		this.notices.reset();
	}

	private entryAppended(entry: SessionEntry | undefined): void {
		if (!entry) return;
		if (entry.type === "custom") {
			const component = this.factory.entry(entry);
			if (!component) return;
			// Above a reply that is still streaming, as pi places it.
			const at = this.state.streaming ? this.children.indexOf(this.state.streaming) : -1;
			if (at >= 0) {
				this.frozen.thawFrom(at);
				this.children.splice(at, 0, component);
			} else this.addChild(component);
		} else if (entry.type === "usage" && entry.kind === "cache_warm") {
			if (this.factory.showCacheNotices) this.notices.cacheWarming(entry);
		} else if (entry.type === "custom_message" && entry.display) {
			const { customType, content, display, details } = entry;
			addMessage(this.state, { role: "custom", customType, content, display, details, timestamp: Date.now() });
		} else if (entry.type === "compaction") {
			const first = this.options.contextEntries?.()[0];
			if (first?.id === entry.id) this.afterCompaction(entry.summary, entry.tokensBefore, entry.usage);
		}
	}

	/** pi clears the chat after a compaction and draws the new context, the summary at its place in time. */
	private afterCompaction(
		summary: string,
		tokensBefore: number,
		usage: Parameters<ChatNotices["summaryCost"]>[1] | undefined,
	): void {
		const entries = this.options.contextEntries?.();
		if (entries) {
			this.clearChat();
			renderEntries(this.state, entries[0]?.type === "compaction" ? entries.slice(1) : entries);
		}
		addMessage(this.state, { role: "compactionSummary", summary, tokensBefore, timestamp: Date.now() });
		if (usage && this.factory.showCacheNotices) this.notices.summaryCost("compaction", usage);
	}
}
