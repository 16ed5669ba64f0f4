/**
 * Replies a terminal sends about its colours: the background colour (answer to the OSC 11 query, as `#rrggbb`,
 * `#rrrrggggbbbb` or `rgb:r/g/b` with 1–4 hex digits per channel) and the light/dark scheme report (`CSI ? 997 ; 1 n`
 * dark, `2 n` light, which terminals also send unasked when the scheme changes).
 */
import type { RgbColor, TerminalColorScheme } from "./types.ts";

/** The whole input must be one OSC 11 reply, ended by BEL or ST. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
const OSC11_REPLY = /^\x1b\]11;([^\x07\x1b]*)(?:\x07|\x1b\\)$/i;
/** One or more scheme reports in a row; the last one decides (a repeated group keeps its last capture). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
const SCHEME_REPORT = /^(?:\x1b\[\?997;(1|2)n)+$/;

/** A channel of 1–4 hex digits scaled to 0–255 (`f` → 255, `8000` → 128). */
function channel(hex: string): number | undefined {
	if (!/^[0-9a-f]+$/i.test(hex)) return undefined;
	const max = 16 ** hex.length - 1;
	if (max <= 0) return undefined;
	return Math.round((Number.parseInt(hex, 16) / max) * 255);
}

function rgb(red: string, green: string, blue: string): RgbColor | undefined {
	const r = channel(red);
	const g = channel(green);
	const b = channel(blue);
	return r !== undefined && g !== undefined && b !== undefined ? { r, g, b } : undefined;
}

export function isOsc11BackgroundColorResponse(data: string): boolean {
	return OSC11_REPLY.test(data);
}

/** The background colour in an OSC 11 reply; undefined when `data` is not one or its colour is unreadable. */
export function parseOsc11BackgroundColor(data: string): RgbColor | undefined {
	const match = OSC11_REPLY.exec(data);
	if (!match) return undefined;
	const value = (match[1] as string).trim();
	if (value.startsWith("#")) {
		const hex = value.slice(1);
		if (/^[0-9a-f]{6}$/i.test(hex)) {
			return {
				r: Number.parseInt(hex.slice(0, 2), 16),
				g: Number.parseInt(hex.slice(2, 4), 16),
				b: Number.parseInt(hex.slice(4, 6), 16),
			};
		}
		if (/^[0-9a-f]{12}$/i.test(hex)) return rgb(hex.slice(0, 4), hex.slice(4, 8), hex.slice(8, 12));
		return undefined;
	}
	const [red, green, blue] = value.replace(/^rgba?:/i, "").split("/");
	if (red === undefined || green === undefined || blue === undefined) return undefined;
	return rgb(red, green, blue);
}

/** "dark" or "light" from a colour scheme report; undefined when `data` is not one. */
export function parseTerminalColorSchemeReport(data: string): TerminalColorScheme | undefined {
	const match = SCHEME_REPORT.exec(data);
	if (!match) return undefined;
	return match[1] === "2" ? "light" : "dark";
}
