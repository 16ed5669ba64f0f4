/**
 * The indicators under the chat: the active status (working, compacting, retrying, summarising a branch) drawn in
 * the editor's top border when the editor embeds it, else as its own row; and the pending area listing queued
 * steering and follow-up messages.
 */
import { currentTheme } from "../../../resources/index.ts";
import { type Container, type LoaderIndicatorOptions, Spacer, TruncatedText } from "../../../tui/index.ts";
import { appKeyText, IdleStatus, type StatusIndicator, WorkingStatusIndicator } from "../chrome/index.ts";
import type { InteractiveApp } from "./app.ts";

interface WorkingStatusEditor {
	setWorkingStatusIndicator(indicator: StatusIndicator | undefined): void;
	embedWorkingStatus?: boolean;
	borderColor?: (text: string) => string;
}

function embeds(editor: unknown): editor is WorkingStatusEditor {
	const e = editor as Partial<WorkingStatusEditor> | null;
	return typeof e?.setWorkingStatusIndicator === "function" && e.embedWorkingStatus === true;
}

export class StatusArea {
	private active: StatusIndicator | undefined;
	private embedded = false;
	workingMessage: string | undefined;
	workingVisible = true;
	workingIndicator: LoaderIndicatorOptions | undefined;
	private readonly idle = new IdleStatus();

	constructor(private readonly app: InteractiveApp) {}

	private get row(): Container {
		return this.app.layout.statusRow;
	}

	get activeKind(): StatusIndicator["kind"] | undefined {
		return this.active?.kind;
	}

	show(indicator: StatusIndicator): void {
		this.active?.dispose();
		this.active = indicator;
		this.embedded = false;
		this.row.clear();
		this.app.defaultEditor.setWorkingStatusIndicator(undefined);
		const editor = this.app.editor;
		if (embeds(editor)) {
			editor.setWorkingStatusIndicator(indicator);
			this.embedded = true;
		} else {
			this.row.addChild(indicator);
		}
		this.app.tui.requestRender();
	}

	clear(kind?: StatusIndicator["kind"]): void {
		if (kind && this.active?.kind !== kind) return;
		const cleared = this.active;
		const wasEmbedded = this.embedded;
		cleared?.dispose();
		this.active = undefined;
		this.embedded = false;
		this.row.clear();
		this.app.defaultEditor.setWorkingStatusIndicator(undefined);
		const editor = this.app.editor;
		if (embeds(editor)) editor.setWorkingStatusIndicator(undefined);
		if (cleared && !wasEmbedded && this.app.tui.getClearOnShrink()) this.row.addChild(this.idle);
		this.app.tui.requestRender();
	}

	showWorking(thinkingLevel: string): void {
		if (!this.workingVisible) {
			this.clear("working");
			return;
		}
		if (this.active?.kind === "working") return;
		const editor = this.app.editor as Partial<WorkingStatusEditor>;
		const colorFn = embeds(editor)
			? (text: string) => (editor.borderColor ?? currentTheme().getThinkingBorderColor(thinkingLevel))(text)
			: undefined;
		this.show(
			new WorkingStatusIndicator(this.app.tui, this.workingMessage ?? "Working", this.workingIndicator, colorFn),
		);
	}

	setWorkingMessage(message: string | undefined): void {
		this.workingMessage = message;
		if (this.active?.kind === "working") this.active.setMessage(message ?? "Working");
		this.app.tui.requestRender();
	}

	setWorkingIndicator(options: LoaderIndicatorOptions | undefined): void {
		this.workingIndicator = options;
		if (this.active?.kind === "working") this.active.setIndicator(options);
		this.app.tui.requestRender();
	}

	setWorkingVisible(visible: boolean, streaming: boolean, thinkingLevel: string): void {
		this.workingVisible = visible;
		if (!visible) this.clear("working");
		else if (streaming) this.showWorking(thinkingLevel);
		this.app.tui.requestRender();
	}

	/** The editor changed (setEditorComponent): move the active indicator to where the new editor wants it. */
	reattach(): void {
		if (this.active) this.show(this.active);
	}

	/** Steering / follow-up texts waiting for the agent, with the key that brings them back. */
	showPending(steering: readonly string[], followUp: readonly string[]): void {
		const pending = this.app.layout.pending;
		pending.clear();
		if (steering.length > 0 || followUp.length > 0) {
			const theme = currentTheme();
			pending.addChild(new Spacer(1));
			for (const text of steering) pending.addChild(new TruncatedText(theme.fg("dim", `Steering: ${text}`), 1, 0));
			for (const text of followUp) pending.addChild(new TruncatedText(theme.fg("dim", `Follow-up: ${text}`), 1, 0));
			const hint = theme.fg("dim", `↳ ${appKeyText("app.message.dequeue")} to edit all queued messages`);
			pending.addChild(new TruncatedText(hint, 1, 0));
		}
		this.app.tui.requestRender();
	}
}
