/** Key hints as the transcript shows them: keys dim, description muted (keys from the process-wide bindings). */
import { formatKeyText, type Keybinding, keyText } from "../../../tui/index.ts";
import { theme } from "./style.ts";

export function keyHint(keybinding: Keybinding, description: string): string {
	return theme().fg("dim", keyText(keybinding)) + theme().fg("muted", ` ${description}`);
}

export function rawKeyHint(key: string, description: string): string {
	return theme().fg("dim", formatKeyText(key)) + theme().fg("muted", ` ${description}`);
}

export { keyText };

/** "\n... (N more lines, <key> to expand)" in muted, as the built-in tool previews end. */
export function moreLinesHint(count: number, extra = ""): string {
	return `${theme().fg("muted", `\n... (${count} more lines,${extra}`)} ${keyHint("app.tools.expand", "to expand")}${theme().fg("muted", ")")}`;
}
