/**
 * The API-key step of `/login`: "Login to <provider>", what to enter, a masked input line (the key never shows on
 * screen; each character is drawn as `•`), and the key hints. Enter submits a non-empty key, Escape cancels.
 */
import { Container, Input, Spacer, Text } from "../../../tui/index.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { keyPlain, matches, theme } from "./model-common.ts";

const PROMPT = "> ";
const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
/** An escape sequence (kept: the cursor marker, SGR) or any other character that is not a space (masked). */
const MASKABLE = new RegExp(`(${ESC}(?:_[^${BEL}]*${BEL}|\\[[0-9;]*[A-Za-z]))|[^ ]`, "gu");

/** An Input that draws every character of its value as `•` (the cursor stays where it is). */
export class MaskedInput extends Input {
	constructor() {
		super({ prompt: PROMPT });
	}

	override render(width: number): string[] {
		return super.render(width).map((line) => {
			if (!line.startsWith(PROMPT)) return line;
			// Escape sequences (the cursor marker, reverse video) are kept; every other non-space character is masked.
			const body = line.slice(PROMPT.length).replace(MASKABLE, (m, esc) => (esc ? m : "•"));
			return PROMPT + body;
		});
	}
}

export interface ApiKeyDialogOptions {
	providerName: string;
	/** What to enter (`Enter OpenAI API key`). */
	message: string;
	onSubmit(key: string): void;
	onCancel(): void;
}

export class ApiKeyDialog extends Container {
	private readonly input = new MaskedInput();
	private readonly error = new Text("", 1, 0);
	private _focused = false;

	constructor(private readonly o: ApiKeyDialogOptions) {
		super();
		const t = theme();
		this.addChild(dialogBorder());
		this.addChild(new Text(t.fg("accent", t.bold(`Login to ${o.providerName}`)), 1, 0));
		this.addChild(new Spacer(1));
		this.addChild(new Text(t.fg("text", o.message), 1, 0));
		this.addChild(this.input);
		this.addChild(this.error);
		const hint = (action: string, text: string) => t.fg("dim", keyPlain(action)) + t.fg("muted", ` ${text}`);
		this.addChild(
			new Text(`(${hint("tui.select.cancel", "to cancel,")} ${hint("tui.select.confirm", "to submit")})`, 1, 0),
		);
		this.addChild(dialogBorder());
		this.input.onSubmit = (value) => {
			const key = value.trim();
			if (!key) {
				this.error.setText(theme().fg("warning", "Enter a key, or press Escape to cancel."));
				return;
			}
			this.o.onSubmit(key);
		};
		this.input.onEscape = () => this.o.onCancel();
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
	}

	handleInput(data: string): void {
		if (matches(data, "tui.select.cancel")) {
			this.o.onCancel();
			return;
		}
		this.input.handleInput(data);
	}
}
