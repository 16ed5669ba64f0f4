/** CustomEditor: the Editor plus the agent's app-level keys (interrupt, exit, actions, extension shortcuts). */
import { Editor, type EditorOptions, type EditorTheme } from "./editor.ts";
import { type KeyId, matchesKey } from "./keys.ts";
import type { TUI } from "./types.ts";

/** The part of the agent's KeybindingsManager the editor needs. */
export interface KeybindingMatcher {
	matches(data: string, keybinding: string): boolean;
}

export type CustomEditorOptions = EditorOptions & {
	/** Render working/compaction status in the top border (accepted; not drawn yet). */
	embedWorkingStatus?: boolean;
};

/** Default keys of the app actions, used when no keybindings manager is supplied. */
const DEFAULT_APP_KEYS: Record<string, KeyId[]> = {
	"app.interrupt": ["escape"],
	"app.clear": ["ctrl+c"],
	"app.exit": ["ctrl+d"],
	"app.suspend": ["ctrl+z"],
	"app.thinking.cycle": ["shift+tab"],
	"app.thinking.toggle": ["ctrl+t"],
	"app.model.cycleForward": ["ctrl+p"],
	"app.model.cycleBackward": ["shift+ctrl+p", "alt+p"],
	"app.model.select": ["ctrl+l"],
	"app.tools.expand": ["ctrl+o"],
	"app.editor.external": ["ctrl+g"],
	"app.message.followUp": ["alt+enter"],
	"app.message.dequeue": ["alt+up"],
	"app.clipboard.pasteImage": ["ctrl+v"],
};

export class CustomEditor extends Editor {
	private readonly keybindings: KeybindingMatcher | undefined;
	private workingStatusIndicator: unknown;
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

	setWorkingStatusIndicator(indicator: unknown): void {
		this.workingStatusIndicator = indicator;
	}

	/** The indicator set by the host, if any. */
	getWorkingStatusIndicator(): unknown {
		return this.workingStatusIndicator;
	}

	/** Run `handler` when the key bound to `action` is pressed. */
	onAction(action: string, handler: () => void): void {
		this.actionHandlers.set(action, handler);
	}

	private matchesAction(data: string, action: string): boolean {
		const matches = this.keybindings?.matches;
		if (typeof matches === "function") return matches.call(this.keybindings, data, action);
		return (DEFAULT_APP_KEYS[action] ?? []).some((key) => matchesKey(data, key));
	}

	override handleInput(data: string): void {
		if (this.onExtensionShortcut?.(data)) return;
		if (this.onPasteImage && this.matchesAction(data, "app.clipboard.pasteImage")) {
			this.onPasteImage();
			return;
		}
		if (this.matchesAction(data, "app.interrupt") && !this.isShowingAutocomplete()) {
			const interrupt = this.onEscape ?? this.actionHandlers.get("app.interrupt");
			if (interrupt) {
				interrupt();
				return;
			}
		}
		if (this.matchesAction(data, "app.exit") && this.getText().length === 0) {
			const exit = this.onCtrlD ?? this.actionHandlers.get("app.exit");
			if (exit) exit();
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
