/**
 * The `/hotkeys` table: pi 0.87.1's groups and rows (Navigation, Editing, Other, then Extensions), each key read
 * from the keybindings in force (keybindings.json applied), capitalised as pi shows them (`Ctrl+X`), as Markdown.
 */
import { formatKeyText, type KeybindingsManager } from "../../../tui/index.ts";

type Row = [keys: string[], action: string];

const NAVIGATION: Row[] = [
	[
		["tui.editor.cursorUp", "tui.editor.cursorDown", "tui.editor.cursorLeft", "tui.editor.cursorRight"],
		"Move cursor / browse history",
	],
	[["tui.editor.cursorWordLeft", "tui.editor.cursorWordRight"], "Move by word"],
	[["tui.editor.cursorLineStart"], "Start of line"],
	[["tui.editor.cursorLineEnd"], "End of line"],
	[["tui.editor.jumpForward"], "Jump forward to character"],
	[["tui.editor.jumpBackward"], "Jump backward to character"],
	[["tui.editor.pageUp", "tui.editor.pageDown"], "Scroll by page"],
];

const EDITING: Row[] = [
	[["tui.input.submit"], "Send message"],
	[["tui.input.newLine"], `New line${process.platform === "win32" ? " (Ctrl+Enter on Windows Terminal)" : ""}`],
	[["tui.editor.deleteWordBackward"], "Delete word backwards"],
	[["tui.editor.deleteWordForward"], "Delete word forwards"],
	[["tui.editor.deleteToLineStart"], "Delete to start of line"],
	[["tui.editor.deleteToLineEnd"], "Delete to end of line"],
	[["tui.editor.yank"], "Paste the most-recently-deleted text"],
	[["tui.editor.yankPop"], "Cycle through the deleted text after pasting"],
	[["tui.editor.undo"], "Undo"],
];

const OTHER: Row[] = [
	[["tui.input.tab"], "Path completion / accept autocomplete"],
	[["app.interrupt"], "Cancel autocomplete / abort streaming"],
	[["app.clear"], "Clear editor (first) / exit (second)"],
	[["app.exit"], "Exit (when editor is empty)"],
	[["app.suspend"], "Suspend to background"],
	[["app.thinking.cycle"], "Cycle thinking level"],
	[["app.model.cycleForward", "app.model.cycleBackward"], "Cycle models"],
	[["app.model.select"], "Open model selector"],
	[["app.tools.expand"], "Toggle tool output expansion"],
	[["app.thinking.toggle"], "Toggle thinking block visibility"],
	[["app.editor.external"], "Edit message in external editor"],
	[["app.message.copy"], "Copy selection or last assistant message"],
	[["app.message.followUp"], "Queue follow-up message"],
	[["app.message.dequeue"], "Restore queued messages"],
	[["app.clipboard.pasteImage"], "Paste image or text from clipboard"],
];

const LITERAL: Row[] = [
	[["/"], "Slash commands"],
	[["!"], "Run bash command"],
	[["!!"], "Run bash command (excluded from context)"],
];

const HEAD = "| Key | Action |\n|-----|--------|";

export interface HotkeyShortcut {
	key: string;
	description?: string;
	extensionPath: string;
}

export function hotkeysMarkdown(keybindings: KeybindingsManager, shortcuts: readonly HotkeyShortcut[]): string {
	const display = (id: string) => {
		const keys = keybindings.getKeys(id);
		return keys.length === 0 ? "" : formatKeyText(keys.join("/"), { capitalize: true });
	};
	const row = ([ids, action]: Row, literal = false) =>
		`| ${ids.map((id) => `\`${literal ? id : display(id)}\``).join(" / ")} | ${action} |`;
	const group = (title: string, rows: string[]) => `**${title}**\n${HEAD}\n${rows.join("\n")}`;
	const parts = [
		group(
			"Navigation",
			NAVIGATION.map((r) => row(r)),
		),
		group(
			"Editing",
			EDITING.map((r) => row(r)),
		),
		group("Other", [...OTHER.map((r) => row(r)), ...LITERAL.map((r) => row(r, true))]),
	];
	if (shortcuts.length > 0) {
		const rows = shortcuts.map(
			(s) => `| \`${formatKeyText(s.key, { capitalize: true })}\` | ${s.description ?? s.extensionPath} |`,
		);
		parts.push(group("Extensions", rows));
	}
	return parts.join("\n\n");
}
