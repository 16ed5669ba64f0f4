/** `<logDirectory>/pi-tui-debug.log`: render problems and (with PI_TUI_DEBUG_REDRAW=1) why frames were redrawn. */
import { join } from "node:path";
import { nodeFs } from "../../util/index.ts";

/** Append one timestamped line; without a directory, or when the file cannot be written, nothing happens. */
export function appendDebugLog(directory: string | undefined, text: string): void {
	if (directory === undefined) return;
	try {
		nodeFs().mkdirSync(directory, { recursive: true });
		nodeFs().appendFileSync(join(directory, "pi-tui-debug.log"), `[${new Date().toISOString()}] ${text}\n`);
	} catch {
		// A debug log that cannot be written must not break rendering.
	}
}
