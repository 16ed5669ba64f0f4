/**
 * Recognising the terminal's answers to colour queries inside the input stream: the OSC 11 background colour reply
 * and the colour-scheme report (`CSI ? 997 ; 1|2 n`, answer to `CSI ? 996 n` and sent unasked while notifications
 * are on).
 */
import {
	isOsc11BackgroundColorResponse,
	parseOsc11BackgroundColor,
	parseTerminalColorSchemeReport,
} from "../terminal-colors.ts";
import type { RgbColor, TerminalColorScheme } from "../types.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal replies start with ESC
const CELL_SIZE_REPLY = /^\x1b\[6;(\d+);(\d+)t$/;

/** Cell size in pixels from a `CSI 6 ; height ; width t` reply. */
export function cellSizeOfReply(data: string): { widthPx: number; heightPx: number } | undefined {
	const match = CELL_SIZE_REPLY.exec(data);
	if (!match) return undefined;
	return { heightPx: Number(match[1]), widthPx: Number(match[2]) };
}

interface PendingBackgroundQuery {
	settled: boolean;
	resolve: (color: RgbColor | undefined) => void;
	timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Colour queries in flight and colour-scheme listeners. A background reply that arrives after its query timed out
 * is still swallowed (it must not reach the focused component as typed text).
 */
export class ColorQueries {
	private readonly background: PendingBackgroundQuery[] = [];
	private expectedReplies = 0;
	private readonly schemeListeners = new Set<(scheme: TerminalColorScheme) => void>();

	constructor(private readonly write: (data: string) => void) {}

	onScheme(listener: (scheme: TerminalColorScheme) => void): () => void {
		this.schemeListeners.add(listener);
		return () => this.schemeListeners.delete(listener);
	}

	queryBackground(timeoutMs: number): Promise<RgbColor | undefined> {
		return new Promise((resolve) => {
			const query: PendingBackgroundQuery = { settled: false, resolve, timer: undefined };
			query.timer = setTimeout(() => {
				if (query.settled) return;
				query.settled = true;
				resolve(undefined);
			}, timeoutMs);
			this.background.push(query);
			this.expectedReplies += 1;
			this.write("\x1b]11;?\x07");
		});
	}

	queryScheme(timeoutMs: number): Promise<TerminalColorScheme | undefined> {
		return new Promise((resolve) => {
			let settled = false;
			const settle = (scheme: TerminalColorScheme | undefined): void => {
				if (settled) return;
				settled = true;
				clearTimeout(timer);
				unsubscribe();
				resolve(scheme);
			};
			const unsubscribe = this.onScheme(settle);
			const timer = setTimeout(() => settle(undefined), timeoutMs);
			this.write("\x1b[?996n");
		});
	}

	/** True when `data` was a colour reply (and was handled), so it goes no further. */
	consume(data: string): boolean {
		if (this.expectedReplies > 0 && isOsc11BackgroundColorResponse(data)) {
			this.expectedReplies -= 1;
			const query = this.background.shift();
			if (query && !query.settled) {
				query.settled = true;
				clearTimeout(query.timer);
				query.resolve(parseOsc11BackgroundColor(data));
			}
			return true;
		}
		const scheme = parseTerminalColorSchemeReport(data);
		if (!scheme) return false;
		for (const listener of [...this.schemeListeners]) listener(scheme);
		return true;
	}
}
