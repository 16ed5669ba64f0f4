/**
 * A list of strings to pick from, in place of the editor (`ctx.ui.select`, `confirm`): a rule, the title in bold
 * accent (with ` (Ns)` counting down when there is a timeout), an optional description, the options (`→ ` and
 * accent on the highlighted one), the key hints and a rule. Up/Down or k/j move without wrapping, Enter or LF picks,
 * Escape/Ctrl+C cancels (as does the timeout reaching 0), the tools-expand key (Ctrl+O) toggles tool output.
 */
import { Container, type KeybindingsManager, Spacer, Text } from "../../../tui/index.ts";
import type { CountdownTimer } from "../chrome/index.ts";
import { keyHint, rawKeyHint } from "../chrome/keys.ts";
import { addDialogHead, dialogBorder, keyMatches, type Redrawable, theme } from "./common.ts";

export interface ExtensionSelectorOptions {
	/** Redraws on each countdown tick; without it a timeout is not armed (as in pi). */
	tui?: Redrawable;
	/** Milliseconds until the dialog cancels itself. */
	timeout?: number;
	description?: string;
	onToggleToolsExpanded?: () => void;
	/** Keys to match (default: the process-wide keybindings). */
	keybindings?: KeybindingsManager;
}

export class ExtensionSelectorComponent extends Container {
	private selectedIndex = 0;
	private readonly listContainer = new Container();
	private readonly countdown: CountdownTimer | undefined;

	constructor(
		baseTitle: string,
		private readonly options: string[],
		private readonly onSelectCallback: (option: string) => void,
		private readonly onCancelCallback: () => void,
		private readonly opts: ExtensionSelectorOptions = {},
	) {
		super();
		this.countdown = addDialogHead(
			this,
			baseTitle,
			(text) => theme().fg("accent", theme().bold(text)),
			opts,
			() => this.onCancelCallback(),
		);
		this.addChild(this.listContainer);
		this.addChild(new Spacer(1));
		const hints = [
			rawKeyHint("↑↓", "navigate"),
			keyHint("tui.select.confirm", "select"),
			keyHint("tui.select.cancel", "cancel"),
		];
		this.addChild(new Text(hints.join("  "), 1, 0));
		this.addChild(new Spacer(1));
		this.addChild(dialogBorder());
		this.updateList();
	}

	private updateList(): void {
		this.listContainer.clear();
		this.options.forEach((option, index) => {
			const text =
				index === this.selectedIndex
					? theme().fg("accent", "→ ") + theme().fg("accent", option)
					: `  ${theme().fg("text", option)}`;
			this.listContainer.addChild(new Text(text, 1, 0));
		});
	}

	handleInput(data: string): void {
		const kb = this.opts.keybindings;
		if (keyMatches(data, "app.tools.expand", kb)) {
			this.opts.onToggleToolsExpanded?.();
		} else if (keyMatches(data, "tui.select.up", kb) || data === "k") {
			this.selectedIndex = Math.max(0, this.selectedIndex - 1);
			this.updateList();
		} else if (keyMatches(data, "tui.select.down", kb) || data === "j") {
			this.selectedIndex = Math.max(0, Math.min(this.options.length - 1, this.selectedIndex + 1));
			this.updateList();
		} else if (keyMatches(data, "tui.select.confirm", kb) || data === "\n") {
			const selected = this.options[this.selectedIndex];
			if (selected !== undefined) this.onSelectCallback(selected);
		} else if (keyMatches(data, "tui.select.cancel", kb)) {
			this.onCancelCallback();
		}
	}

	dispose(): void {
		this.countdown?.dispose();
	}
}
