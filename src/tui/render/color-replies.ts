/**
 * Recognising the terminal's answers to colour queries inside the input stream: the OSC 11 background colour reply
 * and the colour-scheme report (`CSI ? 997 ; 1|2 n`, answer to `CSI ? 996 n` and sent unasked while notifications
 * are on).
 */
import type { RgbColor, TerminalColorScheme } from "../types.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal replies start with ESC
const OSC11_REPLY = /^\x1b\]11;([^\x07\x1b]*)(?:\x07|\x1b\\)$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal replies start with ESC
const SCHEME_REPORT = /^(?:\x1b\[\?997;([12])n)+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal replies start with ESC
const CELL_SIZE_REPLY = /^\x1b\[6;(\d+);(\d+)t$/;

export function isBackgroundColorReply(data: string): boolean {
	return OSC11_REPLY.test(data);
}

/** A hex channel of 1–4 digits scaled to 0–255. */
function channel(hex: string | undefined): number | undefined {
	if (hex === undefined || !/^[0-9a-f]{1,4}$/i.test(hex)) return undefined;
	return Math.round((Number.parseInt(hex, 16) / (16 ** hex.length - 1)) * 255);
}

function rgb(parts: (string | undefined)[]): RgbColor | undefined {
	const [r, g, b] = parts.map(channel);
	return r === undefined || g === undefined || b === undefined ? undefined : { r, g, b };
}

/** The colour in an OSC 11 reply (`rgb:RRRR/GGGG/BBBB`, `rgba:…`, `#RRGGBB` or `#RRRRGGGGBBBB`). */
export function backgroundColorOfReply(data: string): RgbColor | undefined {
	const value = OSC11_REPLY.exec(data)?.[1]?.trim();
	if (value === undefined) return undefined;
	if (value.startsWith("#")) {
		const hex = value.slice(1);
		const size = hex.length === 6 ? 2 : hex.length === 12 ? 4 : 0;
		if (size === 0) return undefined;
		return rgb([hex.slice(0, size), hex.slice(size, 2 * size), hex.slice(2 * size)]);
	}
	return rgb(
		value
			.replace(/^rgba?:/i, "")
			.split("/")
			.slice(0, 3),
	);
}

/** "dark" or "light" for a colour-scheme report (the last one wins when several arrive together). */
export function colorSchemeOfReport(data: string): TerminalColorScheme | undefined {
	if (!SCHEME_REPORT.test(data)) return undefined;
	return data.endsWith("2n") ? "light" : "dark";
}

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
		if (this.expectedReplies > 0 && isBackgroundColorReply(data)) {
			this.expectedReplies -= 1;
			const query = this.background.shift();
			if (query && !query.settled) {
				query.settled = true;
				clearTimeout(query.timer);
				query.resolve(backgroundColorOfReply(data));
			}
			return true;
		}
		const scheme = colorSchemeOfReport(data);
		if (!scheme) return false;
		for (const listener of [...this.schemeListeners]) listener(scheme);
		return true;
	}
}
