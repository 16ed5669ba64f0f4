/** CustomEditor: the Editor plus the agent's app-level keys (interrupt, exit, actions, extension shortcuts). */
import { Editor, type EditorOptions, type EditorTheme } from "./editor.ts";
import { type KeyId, matchesKey } from "./keys.ts";
import type { TUI } from "./types.ts";
import { visibleWidth } from "./width.ts";

/** The part of the agent's KeybindingsManager the editor needs. */
export interface KeybindingMatcher {
	matches(data: string, keybinding: string): boolean;
	getDefinition?(keybinding: string): unknown;
}

/** What the host draws in the top border while the agent works (pi's status indicator). */
export interface WorkingStatusIndicator {
	/** The status (spinner and message) in at most `width` columns. */
	renderInBorder(width: number): string;
	/** Only the spinner, for narrow borders. */
	renderSpinnerInBorder(width: number): string;
}

export type CustomEditorOptions = EditorOptions & {
	/** Draw the working status indicator (when one is set) in the top border. */
	embedWorkingStatus?: boolean;
};

const windowsKeys =
	process.platform === "win32" ||
	(process.platform === "linux" && Boolean(process.env.WSL_DISTRO_NAME || process.env.WSL_INTEROP));

/** Default keys of the app actions (pi's), used when the keybindings manager given does not define them. */
const DEFAULT_APP_KEYS: Record<string, KeyId[]> = {
	"app.interrupt": ["escape"],
	"app.clear": ["ctrl+c"],
	"app.exit": ["ctrl+d"],
	"app.suspend": process.platform === "win32" ? [] : ["ctrl+z"],
	"app.thinking.cycle": ["shift+tab"],
	"app.thinking.save": ["ctrl+s"],
	"app.thinking.toggle": ["ctrl+t"],
	"app.model.cycleForward": ["ctrl+p"],
	"app.model.cycleBackward": [windowsKeys ? "alt+p" : "shift+ctrl+p"],
	"app.model.select": ["ctrl+l"],
	"app.tools.expand": ["ctrl+o"],
	"app.editor.external": ["ctrl+g"],
	"app.message.copy": ["ctrl+x"],
	"app.message.followUp": [windowsKeys ? "ctrl+q" : "alt+enter"],
	"app.message.dequeue": [windowsKeys ? "alt+q" : "alt+up"],
	"app.clipboard.pasteImage": [windowsKeys ? "alt+v" : "ctrl+v"],
};

export class CustomEditor extends Editor {
	private readonly keybindings: KeybindingMatcher | undefined;
	private workingStatusIndicator: WorkingStatusIndicator | undefined;
	readonly embedWorkingStatus: boolean;
	actionHandlers = new Map<string, () => void>();
	onEscape?: () => void;
	onCtrlD?: () => void;
	onPasteImage?: () => void;
	/** Extension-registered shortcuts; returns true when it handled the key. */
	onExtensionShortcut?: (data: string) => boolean;

	constructor(tui: TUI, theme: EditorTheme, keybindings?: KeybindingMatcher, options: CustomEditorOptions = {}) {
		super(tui, theme, options);
		this.keybindings = keybindings;
		this.embedWorkingStatus = options.embedWorkingStatus ?? false;
	}

	setWorkingStatusIndicator(indicator: WorkingStatusIndicator | undefined): void {
		this.workingStatusIndicator = indicator;
	}

	/** The indicator set by the host, if any. */
	getWorkingStatusIndicator(): WorkingStatusIndicator | undefined {
		return this.workingStatusIndicator;
	}

	/**
	 * With `embedWorkingStatus` and an indicator: `── <status> ───…`, keeping the centred `↑ N more` label when both
	 * fit (the status shrinks to its spinner first), and only the spinner when even the status does not fit.
	 */
	protected override renderTopBorder(width: number, hiddenLineCount: number): string {
		const indicator = this.workingStatusIndicator;
		if (!this.embedWorkingStatus || !indicator || width <= 0) return super.renderTopBorder(width, hiddenLineCount);
		let status = indicator.renderInBorder(Math.max(1, width - 5));
		let statusWidth = visibleWidth(status);
		if (statusWidth === 0) return super.renderTopBorder(width, hiddenLineCount);
		const label = hiddenLineCount > 0 ? ` ↑ ${hiddenLineCount} more ` : "";
		const labelWidth = visibleWidth(label);
		const labelStart = Math.floor((width - labelWidth) / 2);
		const labelFits = () => label !== "" && labelWidth + 2 <= width && labelStart - (statusWidth + 4) >= 1;
		if (label && !labelFits()) {
			status = indicator.renderSpinnerInBorder(width);
			statusWidth = visibleWidth(status);
		}
		const rule = (count: number) => "─".repeat(Math.max(0, count));
		if (labelFits()) {
			const between = labelStart - (statusWidth + 4);
			return (
				this.borderColor("── ") +
				status +
				this.borderColor(` ${rule(between)}${label}${rule(width - labelStart - labelWidth)}`)
			);
		}
		if (width >= statusWidth + 5)
			return this.borderColor("── ") + status + this.borderColor(` ${rule(width - statusWidth - 4)}`);
		status = indicator.renderSpinnerInBorder(width);
		statusWidth = visibleWidth(status);
		const lead = Math.min(3, Math.max(0, width - statusWidth));
		return this.borderColor(rule(lead)) + status + this.borderColor(rule(width - lead - statusWidth));
	}

	/** Run `handler` when the key bound to `action` is pressed. */
	onAction(action: string, handler: () => void): void {
		this.actionHandlers.set(action, handler);
	}

	private matchesAction(data: string, action: string): boolean {
		const keybindings = this.keybindings;
		if (keybindings && typeof keybindings.matches === "function") {
			// A manager that knows the action decides (even to leave it unbound); one that does not (the TUI's own
			// keybindings) leaves app actions on their default keys.
			const knows = typeof keybindings.getDefinition !== "function" || keybindings.getDefinition(action) !== undefined;
			if (knows || !(action in DEFAULT_APP_KEYS)) return keybindings.matches(data, action);
		}
		return (DEFAULT_APP_KEYS[action] ?? []).some((key) => matchesKey(data, key));
	}

	override handleInput(data: string): void {
		if (this.onExtensionShortcut?.(data)) return;
		if (this.matchesAction(data, "app.clipboard.pasteImage")) {
			this.onPasteImage?.();
			return;
		}
		if (this.matchesAction(data, "app.interrupt")) {
			// Escape closes autocomplete first; without a handler the editor gets it.
			const interrupt = this.isShowingAutocomplete()
				? undefined
				: (this.onEscape ?? this.actionHandlers.get("app.interrupt"));
			if (interrupt) interrupt();
			else super.handleInput(data);
			return;
		}
		if (this.matchesAction(data, "app.exit") && this.getText().length === 0) {
			const exit = this.onCtrlD ?? this.actionHandlers.get("app.exit");
			if (exit) exit();
			return;
		}
		// The editor's own history keys win over app actions bound to the same key (Ctrl+P, say).
		if (this.matchesAction(data, "tui.editor.historyPrevious") || this.matchesAction(data, "tui.editor.historyNext")) {
			super.handleInput(data);
			return;
		}
		for (const [action, handler] of this.actionHandlers) {
			if (action === "app.interrupt" || action === "app.exit") continue;
			if (this.matchesAction(data, action)) {
				handler();
				return;
			}
		}
		super.handleInput(data);
	}
}
