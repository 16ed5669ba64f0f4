/**
 * While the chat is on screen, `console.log` and friends (an extension's debug output) would write into the
 * middle of a frame and shift everything under it. They are shown in the chat instead, one dim line per call,
 * and the console is given back when the app stops.
 */
import { formatWithOptions } from "node:util";

const METHODS = ["log", "info", "warn", "error", "debug"] as const;

export function captureConsole(show: (line: string, method: (typeof METHODS)[number]) => void): () => void {
	const saved = METHODS.map((method) => [method, console[method]] as const);
	for (const method of METHODS) {
		console[method] = (...args: unknown[]) => {
			const text = formatWithOptions({ colors: false }, ...args);
			for (const line of text.split("\n")) show(line, method);
		};
	}
	return () => {
		for (const [method, original] of saved) console[method] = original;
	};
}
