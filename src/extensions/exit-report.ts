/**
 * `process.exit(n)` called by an extension ends pi with status `n`, as in pi 0.87.1 (session entries are already on
 * disk; the interactive mode resets the terminal on exit). `reportExtensionExits` makes pi say so first, in one
 * line on stderr, with the file and line of the call when the stack still names it (an arrow function's tail call
 * can drop its frame). pi's own exits go through util's `exitProcess` and pass unannounced. For the CLI only (an
 * SDK host's own `process.exit` calls are not extensions'); installed once, before the first extension loads.
 */
import { dirname } from "node:path";
import { exitProcess, writeSync } from "../util/index.ts";
import { isBinaryFrame, stackFrames } from "./error-location.ts";

/** pi's source root when run from source (`src/`); in the binary pi's frames are under `/$bunfs/`. */
const SOURCE_ROOT = `${dirname(import.meta.dir)}/`;

let installed = false;

export function reportExtensionExits(): void {
	if (installed) return;
	installed = true;
	process.exit = ((code?: number | string | null) => {
		const frames = stackFrames(new Error().stack ?? "");
		const caller = frames.find((frame) => !isBinaryFrame(frame) && !frame.startsWith(SOURCE_ROOT));
		const status = typeof code === "number" ? code : Number.parseInt(String(code ?? process.exitCode ?? 0), 10) || 0;
		try {
			writeSync(2, `pi: an extension called process.exit(${code ?? ""})${caller ? ` at ${caller}` : ""}; exiting\n`);
		} catch {
			// stderr is gone; exit anyway.
		}
		return exitProcess(status);
	}) as typeof process.exit;
}
