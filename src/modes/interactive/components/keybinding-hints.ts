/** Key hints as the transcript shows them: keys dim, description muted (the chrome's hints, in the run's theme). */
import { keyHint } from "../chrome/keys.ts";
import { theme } from "./style.ts";

export { keyText } from "../../../tui/index.ts";
export { keyHint, rawKeyHint } from "../chrome/keys.ts";

/** "\n... (N more lines, <key> to expand)" in muted, as the built-in tool previews end. */
export function moreLinesHint(count: number, extra = ""): string {
	return `${theme().fg("muted", `\n... (${count} more lines,${extra}`)} ${keyHint("app.tools.expand", "to expand")}${theme().fg("muted", ")")}`;
}
