/**
 * The account step of `/login`: "Login to <provider>", then what the provider's flow shows — the URL to open (a
 * terminal hyperlink, with the hint to Ctrl/Cmd+click it), instructions, a device code, progress lines — and, while
 * the browser callback is awaited, an input line for pasting the final redirect URL (or the code) from a browser on
 * another machine. Escape cancels the whole login (its `signal` aborts).
 */
import { Container, Input, Spacer, Text } from "../../../tui/index.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { MaskedInput } from "./login-dialog.ts";
import { keyPlain, matches, theme } from "./model-common.ts";

/** The dialog's input line: shown as typed, or as dots while a secret is asked. */
class DialogInput extends MaskedInput {
	masked = false;

	override render(width: number): string[] {
		return this.masked ? super.render(width) : Input.prototype.render.call(this, width);
	}
}

const OSC = "\u001b]8;;";
const BEL = "\u0007";

function link(url: string, text: string): string {
	return `${OSC}${url}${BEL}${text}${OSC}${BEL}`;
}

export class OAuthLoginDialog extends Container {
	private readonly content = new Container();
	private readonly input = new DialogInput();
	private readonly controller = new AbortController();
	private pending: { resolve(value: string): void; reject(error: Error): void } | undefined;
	private _focused = false;

	constructor(
		providerName: string,
		private readonly onCancel: () => void,
	) {
		super();
		const t = theme();
		this.addChild(dialogBorder());
		this.addChild(new Text(t.fg("accent", t.bold(`Login to ${providerName}`)), 1, 0));
		this.addChild(this.content);
		this.addChild(dialogBorder());
		this.input.onSubmit = (value) => {
			const pending = this.pending;
			if (!pending) return;
			this.pending = undefined;
			this.content.children = this.content.children.map((child) =>
				child === this.input ? new Text(`> ${this.input.masked ? "•".repeat(value.length) : value}`, 1, 0) : child,
			);
			pending.resolve(value);
		};
		this.input.onEscape = () => this.cancel();
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
	}

	cancel(): void {
		this.controller.abort();
		this.pending?.reject(new Error("Login cancelled"));
		this.pending = undefined;
		this.onCancel();
	}

	showAuth(url: string, instructions?: string): void {
		const t = theme();
		this.content.clear();
		this.content.addChild(new Spacer(1));
		this.content.addChild(new Text(t.fg("accent", link(url, url)), 1, 0));
		const click = process.platform === "darwin" ? "Cmd+click to open" : "Ctrl+click to open";
		this.content.addChild(new Text(t.fg("dim", link(url, click)), 1, 0));
		if (instructions) {
			this.content.addChild(new Spacer(1));
			this.content.addChild(new Text(t.fg("warning", instructions), 1, 0));
		}
	}

	showDeviceCode(userCode: string, verificationUri: string): void {
		const t = theme();
		this.content.clear();
		this.content.addChild(new Spacer(1));
		this.content.addChild(new Text(t.fg("accent", link(verificationUri, verificationUri)), 1, 0));
		this.content.addChild(new Spacer(1));
		this.content.addChild(new Text(t.fg("warning", `Enter code: ${userCode}`), 1, 0));
		this.content.addChild(new Spacer(1));
		this.content.addChild(new Text(t.fg("dim", "Waiting for authentication..."), 1, 0));
		this.content.addChild(new Text(`(${keyPlain("tui.select.cancel")} to cancel)`, 1, 0));
	}

	showLine(message: string, color: "text" | "dim" = "dim"): void {
		this.content.addChild(new Text(theme().fg(color, message), 1, 0));
	}

	/** An input line under what is shown; resolves with the submitted text, rejects when the login is cancelled. */
	ask(message: string, placeholder?: string, masked = false): Promise<string> {
		const t = theme();
		this.pending?.reject(new Error("superseded"));
		this.input.setValue("");
		this.input.masked = masked;
		this.content.addChild(new Spacer(1));
		this.content.addChild(new Text(t.fg("dim", message), 1, 0));
		if (placeholder) this.content.addChild(new Text(t.fg("dim", `e.g., ${placeholder}`), 1, 0));
		this.content.addChild(this.input);
		this.content.addChild(new Text(`(${keyPlain("tui.select.cancel")} to cancel)`, 1, 0));
		return new Promise((resolve, reject) => {
			this.pending = { resolve, reject };
		});
	}

	/** Withdraws the input line (the browser callback finished the login first). */
	withdraw(): void {
		this.pending?.reject(new Error("withdrawn"));
		this.pending = undefined;
	}

	handleInput(data: string): void {
		if (matches(data, "tui.select.cancel")) {
			this.cancel();
			return;
		}
		this.input.handleInput(data);
	}
}
