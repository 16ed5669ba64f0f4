/**
 * A multi-line editor in place of the main one (`ctx.ui.editor`): a rule, the title in accent, an optional
 * description, an editor (prefilled), the key hints and a rule. Enter submits (Shift+Enter / Ctrl+J add a line),
 * Escape/Ctrl+C cancels, the external-editor key (Ctrl+G) edits the text in $VISUAL/$EDITOR with the TUI stopped.
 */
import {
	Container,
	Editor,
	type EditorOptions,
	type EditorTheme,
	type KeybindingsManager,
	Spacer,
	Text,
	type TUI,
} from "../../../tui/index.ts";
import { keyHint } from "../chrome/keys.ts";
import { dialogBorder, keyMatches, theme } from "./common.ts";
import { editInExternalEditor, externalEditorCommand } from "./external-editor.ts";

export type ExtensionEditorOptions = EditorOptions & {
	description?: string;
	/** The editor's colours (default: the run theme's, as the main editor has them). */
	editorTheme?: EditorTheme;
	/** Told in one line when the external editor could not be run or failed. */
	onNotice?: (message: string) => void;
};

/** The main editor's look in the run's theme: `borderMuted` rules, accent/muted completion list. */
export function defaultEditorTheme(): EditorTheme {
	const fg = (token: "accent" | "muted") => (text: string) => theme().fg(token, text);
	return {
		borderColor: (text) => theme().fg("borderMuted", text),
		selectList: {
			selectedPrefix: fg("accent"),
			selectedText: fg("accent"),
			description: fg("muted"),
			scrollInfo: fg("muted"),
			noMatch: fg("muted"),
		},
	};
}

export class ExtensionEditorComponent extends Container {
	private readonly editor: Editor;
	private readonly command: string;
	private readonly onNotice: ((message: string) => void) | undefined;
	private isFocused = false;

	constructor(
		private readonly tui: TUI,
		private readonly keybindings: KeybindingsManager | undefined,
		title: string,
		prefill: string | undefined,
		private readonly onSubmitCallback: (value: string) => void,
		private readonly onCancelCallback: () => void,
		options?: ExtensionEditorOptions,
		externalCommand?: string,
	) {
		super();
		const { description, editorTheme, onNotice, ...editorOptions } = options ?? {};
		this.command = externalEditorCommand(externalCommand);
		this.onNotice = onNotice;
		this.addChild(dialogBorder());
		this.addChild(new Spacer(1));
		this.addChild(new Text(theme().fg("accent", title), 1, 0));
		if (description) {
			this.addChild(new Spacer(1));
			this.addChild(new Text(theme().fg("text", description), 1, 0));
		}
		this.addChild(new Spacer(1));
		this.editor = new Editor(tui, editorTheme ?? defaultEditorTheme(), editorOptions);
		if (prefill) this.editor.setText(prefill);
		this.editor.onSubmit = (text) => this.onSubmitCallback(text);
		this.addChild(this.editor);
		this.addChild(new Spacer(1));
		const hints = [
			keyHint("tui.select.confirm", "submit"),
			keyHint("tui.input.newLine", "newline"),
			keyHint("tui.select.cancel", "cancel"),
			keyHint("app.editor.external", "external editor"),
		];
		this.addChild(new Text(hints.join("  "), 1, 0));
		this.addChild(new Spacer(1));
		this.addChild(dialogBorder());
	}

	get focused(): boolean {
		return this.isFocused;
	}
	set focused(value: boolean) {
		this.isFocused = value;
		this.editor.focused = value;
	}

	/** The text so far. */
	getText(): string {
		return this.editor.getText();
	}

	handleInput(data: string): void {
		if (keyMatches(data, "tui.select.cancel", this.keybindings)) {
			this.onCancelCallback();
			return;
		}
		if (keyMatches(data, "app.editor.external", this.keybindings)) {
			void this.openExternalEditor();
			return;
		}
		this.editor.handleInput(data);
	}

	private async openExternalEditor(): Promise<void> {
		const content = this.editor.getText();
		this.tui.stop();
		try {
			const result = await editInExternalEditor({ command: this.command, content });
			if (result.status === "complete") this.editor.setText(result.content);
			else this.onNotice?.(`External editor "${this.command}" failed: ${result.reason}`);
		} catch (error) {
			this.onNotice?.(`External editor "${this.command}" failed: ${(error as Error).message}`);
		} finally {
			this.tui.start();
			this.tui.requestRender(true);
		}
	}
}
