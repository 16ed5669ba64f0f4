/**
 * The session as the screen shows it: every session event goes to the chat; the working / compacting / retry
 * indicators, the queued-message list, the footer (usage counted as entries arrive, context use recomputed only
 * when messages change — never per keystroke), the editor's border colour and the terminal title follow the
 * session. Follows the runtime host across session replacements.
 */
import { basename } from "node:path";
import { getContextUsage } from "../../../compaction/index.ts";
import { currentTheme } from "../../../resources/index.ts";
import type { RuntimeHost, SessionEvent } from "../../../runtime/index.ts";
import {
	CompactionStatusIndicator,
	FooterComponent,
	type FooterContextUsage,
	FooterData,
	type FooterSession,
	RetryStatusIndicator,
	UsageTally,
} from "../chrome/index.ts";
import type { InteractiveApp } from "./app.ts";
import type { StatusArea } from "./status-area.ts";

export class SessionView {
	readonly footerData: FooterData;
	readonly footer: FooterComponent;
	private readonly tally = new UsageTally();
	private contextUsage: FooterContextUsage | undefined;
	private contextStale = true;
	/** Usage is recounted only when entries were added (never per frame: listing entries costs the whole session). */
	private usageStale = false;
	private afterCompaction = false;
	bashMode = false;
	appTitle = "π";
	private hostRef: RuntimeHost | undefined;

	constructor(
		private readonly app: InteractiveApp,
		private readonly cwd: string,
		private readonly status: StatusArea,
	) {
		this.footerData = new FooterData(cwd);
		this.footer = new FooterComponent(this.footerSession(), this.footerData);
		this.footer.setAutoCompactEnabled(false);
		app.layout.setFooter(this.footer);
		const offBranch = this.footerData.onBranchChange(() => app.tui.requestRender());
		app.onStop(() => {
			if (this.counting) clearTimeout(this.counting);
			offBranch();
			this.footerData.dispose();
		});
	}

	/** The runtime is up: follow its sessions from now on. */
	attach(host: RuntimeHost): void {
		this.hostRef = host;
		const off = host.subscribe((event) => this.onEvent(event));
		this.app.onStop(off);
		this.sessionReplaced();
	}

	private get host(): RuntimeHost {
		if (!this.hostRef) throw new Error("the session view is not attached yet");
		return this.hostRef;
	}

	get attached(): boolean {
		return this.hostRef !== undefined;
	}

	private footerSession(): FooterSession {
		const view = this;
		return {
			get state() {
				const state = view.hostRef?.session?.agent.state;
				return { model: state?.model, thinkingLevel: state?.thinkingLevel };
			},
			getContextUsage: () => view.currentContextUsage(),
			sessionManager: {
				getCwd: () => view.hostRef?.manager.getCwd() ?? view.cwd,
				getSessionName: () => view.hostRef?.manager.getSessionName(),
				getEntries: () => (view.hostRef?.manager.getEntries() ?? []) as never,
			},
			getUsageTotals: () => {
				if (view.usageStale && view.hostRef && !view.counting) {
					view.usageStale = false;
					view.tally.syncPositions(view.hostRef.manager as never);
				}
				return view.tally.get();
			},
		};
	}

	private currentContextUsage(): FooterContextUsage | undefined {
		if (!this.hostRef) return undefined;
		if (this.afterCompaction) {
			const window = this.host.session?.agent.state.model.contextWindow;
			return { ...(window ? { contextWindow: window } : {}), percent: null };
		}
		if (!this.contextStale) return this.contextUsage;
		this.contextStale = false;
		const session = this.host.session;
		const window = session?.agent.state.model.contextWindow;
		this.contextUsage = session && window ? getContextUsage(session.messages, window) : undefined;
		return this.contextUsage;
	}

	/** A new, switched or reloaded session: everything the footer counted starts over. */
	sessionReplaced(): void {
		this.countInSlices();
		this.contextStale = true;
		this.afterCompaction = false;
		this.footerData.setCwd(this.host.manager.getCwd());
		this.footer.setAutoCompactEnabled(this.host.current.compactionSettings?.enabled ?? false);
		this.updateTitle();
		this.updateBorderColor();
	}

	/** A slice of entries counted per tick while a session's usage is first added up. */
	private static readonly SLICE = 4000;
	counting: ReturnType<typeof setTimeout> | undefined;

	/**
	 * Adds up a session's usage a slice at a time after the first frame, so a long resumed session takes input at
	 * once (reading every entry of a 100 MB session in one go takes about a second).
	 */
	private countInSlices(): void {
		if (this.counting) clearTimeout(this.counting);
		this.counting = undefined;
		this.tally.reset();
		const manager = this.hostRef?.manager;
		if (!manager) return;
		const total = manager.getEntryCount();
		let next = 0;
		const step = () => {
			if (this.hostRef?.manager !== manager) return;
			const end = Math.min(total, next + SessionView.SLICE);
			this.tally.syncPositions(manager as never, end);
			next = end;
			if (next < total) {
				this.counting = setTimeout(step, 0);
				return;
			}
			this.counting = undefined;
			this.usageStale = true;
			this.app.tui.requestRender();
		};
		this.counting = setTimeout(step, 0);
	}

	thinkingLevel(): string {
		return this.hostRef?.session?.agent.state.thinkingLevel ?? "off";
	}

	updateBorderColor(): void {
		const theme = currentTheme();
		const color = this.bashMode ? theme.getBashModeBorderColor() : theme.getThinkingBorderColor(this.thinkingLevel());
		this.app.defaultEditor.borderColor = color;
		const editor = this.app.editor as { borderColor?: (text: string) => string };
		if (editor !== this.app.defaultEditor && "borderColor" in editor) editor.borderColor = color;
		this.app.tui.requestRender();
	}

	updateTitle(): void {
		const cwd = basename(this.hostRef?.manager.getCwd() ?? this.cwd);
		const name = this.hostRef?.manager.getSessionName();
		this.app.tui.terminal.setTitle(name ? `${this.appTitle} - ${name} - ${cwd}` : `${this.appTitle} - ${cwd}`);
	}

	private onEvent(event: SessionEvent): void {
		const app = this.app;
		const status = this.status;
		app.chat.handleEvent(event);
		if (event.type === "message_end" || event.type === "compaction_end" || event.type === "entry_appended") {
			this.usageStale = true;
		}
		switch (event.type) {
			case "turn_start":
				status.showWorking(this.thinkingLevel());
				break;
			case "agent_end":
				status.clear("working");
				break;
			case "message_end":
				this.contextStale = true;
				if (event.message.role === "assistant") this.afterCompaction = false;
				break;
			case "queue_update":
				status.showPending(event.steering, event.followUp);
				break;
			case "compaction_start":
				status.show(new CompactionStatusIndicator(app.tui, event.reason));
				break;
			case "compaction_end":
				status.clear("compaction");
				if (event.result) {
					this.contextStale = true;
					this.afterCompaction = true;
				}
				break;
			case "auto_retry_start":
				status.show(new RetryStatusIndicator(app.tui, event.attempt, event.maxAttempts, event.delayMs));
				break;
			case "auto_retry_end":
				status.clear("retry");
				break;
			case "session_info_changed":
				this.updateTitle();
				break;
			case "thinking_level_changed":
				this.updateBorderColor();
				break;
		}
		app.tui.requestRender();
	}
}
