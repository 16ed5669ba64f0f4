/**
 * A one-line text field in place of the editor (`ctx.ui.input`): a rule, the title in accent (with ` (Ns)` counting
 * down when there is a timeout), an optional description, the `> ` field, the key hints and a rule. Enter or LF
 * submits the text (possibly empty), Escape/Ctrl+C cancels, as does the timeout reaching 0. Like pi, the
 * placeholder is accepted and not shown.
 */
import { Container, Input, type KeybindingsManager, Spacer, Text } from "../../../tui/index.ts";
import type { CountdownTimer } from "../chrome/index.ts";
import { keyHint } from "../chrome/keys.ts";
import { addDialogHead, dialogBorder, keyMatches, type Redrawable, theme } from "./common.ts";

export interface ExtensionInputOptions {
	/** Redraws on each countdown tick; without it a timeout is not armed (as in pi). */
	tui?: Redrawable;
	/** Milliseconds until the dialog cancels itself. */
	timeout?: number;
	description?: string;
	initialValue?: string;
	/** Keys to match (default: the process-wide keybindings). */
	keybindings?: KeybindingsManager;
}

export class ExtensionInputComponent extends Container {
	private readonly input = new Input();
	private readonly countdown: CountdownTimer | undefined;
	private isFocused = false;

	constructor(
		baseTitle: string,
		_placeholder: string | undefined,
		private readonly onSubmitCallback: (value: string) => void,
		private readonly onCancelCallback: () => void,
		private readonly opts: ExtensionInputOptions = {},
	) {
		super();
		this.countdown = addDialogHead(
			this,
			baseTitle,
			(text) => theme().fg("accent", text),
			opts,
			() => this.onCancelCallback(),
		);
		if (opts.initialValue) this.input.setValue(opts.initialValue);
		this.addChild(this.input);
		this.addChild(new Spacer(1));
		this.addChild(
			new Text(`${keyHint("tui.select.confirm", "submit")}  ${keyHint("tui.select.cancel", "cancel")}`, 1, 0),
		);
		this.addChild(new Spacer(1));
		this.addChild(dialogBorder());
	}

	/** Focus goes to the field, which then shows the cursor (and places the IME). */
	get focused(): boolean {
		return this.isFocused;
	}
	set focused(value: boolean) {
		this.isFocused = value;
		this.input.focused = value;
	}

	/** The text typed so far. */
	getValue(): string {
		return this.input.getValue();
	}

	handleInput(data: string): void {
		const kb = this.opts.keybindings;
		if (keyMatches(data, "tui.select.confirm", kb) || data === "\n") this.onSubmitCallback(this.input.getValue());
		else if (keyMatches(data, "tui.select.cancel", kb)) this.onCancelCallback();
		else this.input.handleInput(data);
	}

	dispose(): void {
		this.countdown?.dispose();
	}
}
