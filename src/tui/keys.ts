/**
 * Keyboard input API: turn what a terminal sends (legacy bytes, xterm modified keys, modifyOtherKeys, the kitty
 * keyboard protocol with press/repeat/release events) into key ids such as "ctrl+c" or "shift+tab", and match
 * input against key ids. Behaviour follows pi-tui 0.87.1 (see test/e2e/tui-keys-parity.test.ts).
 */
import {
	fromKeypad,
	isKittyProtocolActive,
	isWindowsTerminal,
	keyIdOf,
	LOCK_BITS,
	MOD,
	parseModifyOtherKeys,
	parseReportedKey,
	SYMBOLS,
} from "./key-decode.ts";

export { isKittyProtocolActive, setKittyProtocolActive } from "./key-decode.ts";
export { type BaseKey, Key, type KeyEventType, type KeyId } from "./key-ids.ts";
export { matchesKey } from "./key-match.ts";

/** Legacy sequences with a fixed meaning (rxvt modified keys, SS3 keys, old Linux-console function keys, …). */
const LEGACY_IDS: Record<string, string> = {
	"\x1bOA": "up",
	"\x1bOB": "down",
	"\x1bOC": "right",
	"\x1bOD": "left",
	"\x1bOH": "home",
	"\x1bOF": "end",
	"\x1b[E": "clear",
	"\x1bOE": "clear",
	"\x1bOe": "ctrl+clear",
	"\x1b[e": "shift+clear",
	"\x1b[2~": "insert",
	"\x1b[2$": "shift+insert",
	"\x1b[2^": "ctrl+insert",
	"\x1b[3$": "shift+delete",
	"\x1b[3^": "ctrl+delete",
	"\x1b[[5~": "pageUp",
	"\x1b[[6~": "pageDown",
	"\x1b[a": "shift+up",
	"\x1b[b": "shift+down",
	"\x1b[c": "shift+right",
	"\x1b[d": "shift+left",
	"\x1bOa": "ctrl+up",
	"\x1bOb": "ctrl+down",
	"\x1bOc": "ctrl+right",
	"\x1bOd": "ctrl+left",
	"\x1b[5$": "shift+pageUp",
	"\x1b[6$": "shift+pageDown",
	"\x1b[7$": "shift+home",
	"\x1b[8$": "shift+end",
	"\x1b[5^": "ctrl+pageUp",
	"\x1b[6^": "ctrl+pageDown",
	"\x1b[7^": "ctrl+home",
	"\x1b[8^": "ctrl+end",
	"\x1bOP": "f1",
	"\x1bOQ": "f2",
	"\x1bOR": "f3",
	"\x1bOS": "f4",
	"\x1b[11~": "f1",
	"\x1b[12~": "f2",
	"\x1b[13~": "f3",
	"\x1b[14~": "f4",
	"\x1b[[A": "f1",
	"\x1b[[B": "f2",
	"\x1b[[C": "f3",
	"\x1b[[D": "f4",
	"\x1b[[E": "f5",
	"\x1b[15~": "f5",
	"\x1b[17~": "f6",
	"\x1b[18~": "f7",
	"\x1b[19~": "f8",
	"\x1b[20~": "f9",
	"\x1b[21~": "f10",
	"\x1b[23~": "f11",
	"\x1b[24~": "f12",
	"\x1bb": "alt+left",
	"\x1bf": "alt+right",
	"\x1bp": "alt+up",
	"\x1bn": "alt+down",
};

/** Single bytes and ESC pairs whose meaning does not depend on the kitty protocol. */
const FIXED_IDS: Record<string, string> = {
	"\x1b": "escape",
	"\x1c": "ctrl+\\",
	"\x1d": "ctrl+]",
	"\x1f": "ctrl+-",
	"\x1b\x1b": "ctrl+alt+[",
	"\x1b\x1c": "ctrl+alt+\\",
	"\x1b\x1d": "ctrl+alt+]",
	"\x1b\x1f": "ctrl+alt+-",
	"\t": "tab",
	"\r": "enter",
	"\x1bOM": "enter",
	"\x00": "ctrl+space",
	" ": "space",
	"\x7f": "backspace",
	"\x1b[Z": "shift+tab",
	"\x1b\x7f": "alt+backspace",
	"\x1b\b": "alt+backspace",
};

/** Meanings without the kitty protocol; under kitty these bytes come from terminal key mappings instead. */
const LEGACY_ONLY_IDS: Record<string, string> = {
	"\n": "enter",
	"\x1b\r": "alt+enter",
	"\x1b ": "alt+space",
	"\x1bB": "alt+left",
	"\x1bF": "alt+right",
};

const CURSOR_IDS: Record<string, string> = {
	"\x1b[A": "up",
	"\x1b[B": "down",
	"\x1b[C": "right",
	"\x1b[D": "left",
	"\x1b[H": "home",
	"\x1b[F": "end",
	"\x1b[5~": "pageUp",
	"\x1b[6~": "pageDown",
};

function legacyKeyId(data: string, kitty: boolean): string | undefined {
	const fixed = LEGACY_IDS[data] ?? FIXED_IDS[data];
	if (fixed) return fixed;
	if (data === "\x08") return isWindowsTerminal() ? "ctrl+backspace" : "backspace";
	if (!kitty) {
		const legacy = LEGACY_ONLY_IDS[data];
		if (legacy) return legacy;
		if (data.length === 2 && data[0] === "\x1b") {
			const code = data.charCodeAt(1);
			if (code >= 1 && code <= 26) return `ctrl+alt+${String.fromCharCode(code + 96)}`;
			const ch = data[1] as string;
			if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57) || SYMBOLS.has(ch)) return `alt+${ch}`;
		}
	}
	const cursor = CURSOR_IDS[data];
	if (cursor) return cursor;
	if (data.length === 1) {
		const code = data.charCodeAt(0);
		if (code >= 1 && code <= 26) return `ctrl+${String.fromCharCode(code + 96)}`;
		if (code >= 32 && code <= 126) return data;
	}
	return undefined;
}

/** The key id of raw input `data` ("ctrl+c", "shift+tab", "a", …), or undefined when it is not one known key. */
export function parseKey(data: string): string | undefined {
	const reported = parseReportedKey(data);
	if (reported) return keyIdOf(reported.code, reported.modifier, reported.base);
	const other = parseModifyOtherKeys(data);
	if (other) return keyIdOf(other.code, other.modifier);
	const kitty = isKittyProtocolActive();
	// Under kitty, ESC CR (kitty's mapping) and LF (Ghostty's) are how terminals send Shift+Enter.
	if (kitty && (data === "\x1b\r" || data === "\n")) return "shift+enter";
	return legacyKeyId(data, kitty);
}

/** Pasted text arrives wrapped in bracketed-paste markers and is never a key event, whatever it contains. */
const PASTE_START = "\x1b[200~";
const EVENT_FINALS = ["u", "~", "A", "B", "C", "D", "H", "F"];

function hasEventType(data: string, event: "2" | "3"): boolean {
	if (data.includes(PASTE_START)) return false;
	return EVENT_FINALS.some((final) => data.includes(`:${event}${final}`));
}

/** Whether `data` is a kitty key-release event (`…:3u`, `…:3~`, `…:3A`, …). */
export function isKeyRelease(data: string): boolean {
	return hasEventType(data, "3");
}

/** Whether `data` is a kitty key-repeat event (`…:2u`, `…:2~`, `…:2A`, …). */
export function isKeyRepeat(data: string): boolean {
	return hasEventType(data, "2");
}

function codePointText(code: number): string | undefined {
	if (!Number.isFinite(code) || code < 32) return undefined;
	try {
		return String.fromCodePoint(code);
	} catch {
		return undefined;
	}
}

/**
 * The character a kitty CSI u key event types: plain or shifted keys only (the shifted alternate key when shift
 * is held and reported); undefined for ctrl/alt/super combinations, control keys and anything that is not CSI u.
 */
export function decodeKittyPrintable(data: string): string | undefined {
	if (!data.endsWith("u")) return undefined;
	const key = parseReportedKey(data);
	if (!key) return undefined;
	if ((key.modifier & ~(MOD.shift | LOCK_BITS)) !== 0) return undefined;
	const code = key.modifier & MOD.shift && key.shifted !== undefined ? key.shifted : key.code;
	return codePointText(fromKeypad(code));
}

/**
 * The text a key press types: a kitty or modifyOtherKeys printable key (plain or shifted; a shifted letter is
 * uppercase even when the terminal does not report the shifted key), or legacy input made only of printable
 * characters. Not part of pi-tui's exports; our Editor and Input use it.
 */
export function decodePrintableKey(data: string): string | undefined {
	const kitty = decodeKittyPrintable(data);
	if (kitty === "\x7f") return undefined; // kitty's Backspace (CSI 127 u) types nothing
	if (kitty !== undefined) {
		// Without the alternate-keys flag a shifted letter comes as its lowercase code with shift held.
		const key = parseReportedKey(data);
		const shiftedLetter = key && key.modifier & MOD.shift && key.shifted === undefined && /^[a-z]$/.test(kitty);
		return shiftedLetter ? kitty.toUpperCase() : kitty;
	}
	const other = parseModifyOtherKeys(data);
	if (other) return (other.modifier & ~LOCK_BITS & ~MOD.shift) === 0 ? codePointText(other.code) : undefined;
	if (data.length === 0 || data.startsWith("\x1b")) return undefined;
	for (let i = 0; i < data.length; i++) {
		const code = data.charCodeAt(i);
		if (code < 0x20 || code === 0x7f) return undefined;
	}
	return data;
}
