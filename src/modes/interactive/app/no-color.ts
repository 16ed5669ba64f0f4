/**
 * NO_COLOR (no-color.org): with it set and not empty, and no FORCE_COLOR, the chat is drawn without colours —
 * every colour in the terminal output is dropped on the way out, while bold, italic, underline and reverse video
 * (the editor's cursor) stay. Themes keep producing colours, so what extensions read from them is unchanged.
 */
import type { Terminal } from "../../../tui/index.ts";

export function noColorRequested(env: NodeJS.ProcessEnv = process.env): boolean {
	return env.NO_COLOR !== undefined && env.NO_COLOR !== "" && env.FORCE_COLOR === undefined;
}

/** An SGR parameter list without its colour parts (`38;5;n`, `38;2;r;g;b`, 30–49, 90–107); undefined = nothing left. */
function withoutColours(params: string): string | undefined {
	if (params === "" || params === "0") return params;
	const parts = params.split(/[;:]/);
	const kept: string[] = [];
	for (let i = 0; i < parts.length; i++) {
		const n = Number(parts[i]);
		if (n === 38 || n === 48 || n === 58) {
			const mode = Number(parts[i + 1]);
			i += mode === 5 ? 2 : mode === 2 ? 4 : 1;
			continue;
		}
		if ((n >= 30 && n <= 49) || (n >= 90 && n <= 107) || n === 59) continue;
		kept.push(parts[i] as string);
	}
	return kept.length > 0 ? kept.join(";") : undefined;
}

export function stripColours(text: string): string {
	if (!text.includes("\x1b[")) return text;
	// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
	return text.replace(/\x1b\[([0-9;:]*)m/g, (_all, params: string) => {
		const kept = withoutColours(params);
		return kept === undefined ? "" : `\x1b[${kept}m`;
	});
}

/** The terminal with colours removed from everything written. */
export function withoutColourOutput(terminal: Terminal): Terminal {
	const write = terminal.write.bind(terminal);
	terminal.write = (data: string) => write(stripColours(data));
	return terminal;
}
