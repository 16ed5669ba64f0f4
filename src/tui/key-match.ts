/**
 * `matchesKey`: whether raw terminal input is a given key id. Each key accepts its legacy byte forms, the kitty
 * CSI u form (any event type) and, where terminals use it, the xterm modifyOtherKeys form. Which forms count for
 * which key and modifier follows pi-tui 0.87.1 (compared by the parity test).
 */
import {
	CODE,
	fromKeypad,
	isKittyProtocolActive,
	isKnownSymbolCode,
	isLowerLetterCode,
	isWindowsTerminal,
	LOCK_BITS,
	letterIdentity,
	MOD,
	parseModifyOtherKeys,
	parseReportedKey,
	SYMBOLS,
} from "./key-decode.ts";

/** The unmodified legacy sequences of the navigation and function keys. */
const PLAIN: Record<string, readonly string[]> = {
	up: ["\x1b[A", "\x1bOA"],
	down: ["\x1b[B", "\x1bOB"],
	right: ["\x1b[C", "\x1bOC"],
	left: ["\x1b[D", "\x1bOD"],
	home: ["\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~"],
	end: ["\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~"],
	insert: ["\x1b[2~"],
	delete: ["\x1b[3~"],
	pageup: ["\x1b[5~", "\x1b[[5~"],
	pagedown: ["\x1b[6~", "\x1b[[6~"],
	clear: ["\x1b[E", "\x1bOE"],
	f1: ["\x1bOP", "\x1b[11~", "\x1b[[A"],
	f2: ["\x1bOQ", "\x1b[12~", "\x1b[[B"],
	f3: ["\x1bOR", "\x1b[13~", "\x1b[[C"],
	f4: ["\x1bOS", "\x1b[14~", "\x1b[[D"],
	f5: ["\x1b[15~", "\x1b[[E"],
	f6: ["\x1b[17~"],
	f7: ["\x1b[18~"],
	f8: ["\x1b[19~"],
	f9: ["\x1b[20~"],
	f10: ["\x1b[21~"],
	f11: ["\x1b[23~"],
	f12: ["\x1b[24~"],
};

/** rxvt-style shifted (`$`, lowercase final) and ctrl (`^`, SS3 lowercase) forms. */
const RXVT_SHIFT: Record<string, string> = {
	up: "\x1b[a",
	down: "\x1b[b",
	right: "\x1b[c",
	left: "\x1b[d",
	clear: "\x1b[e",
	insert: "\x1b[2$",
	delete: "\x1b[3$",
	pageup: "\x1b[5$",
	pagedown: "\x1b[6$",
	home: "\x1b[7$",
	end: "\x1b[8$",
};
const RXVT_CTRL: Record<string, string> = {
	up: "\x1bOa",
	down: "\x1bOb",
	right: "\x1bOc",
	left: "\x1bOd",
	clear: "\x1bOe",
	insert: "\x1b[2^",
	delete: "\x1b[3^",
	pageup: "\x1b[5^",
	pagedown: "\x1b[6^",
	home: "\x1b[7^",
	end: "\x1b[8^",
};

const NAV_CODES: Record<string, number> = {
	up: CODE.up,
	down: CODE.down,
	left: CODE.left,
	right: CODE.right,
	insert: CODE.insert,
	delete: CODE.delete,
	home: CODE.home,
	end: CODE.end,
	pageup: CODE.pageUp,
	pagedown: CODE.pageDown,
};

function rxvtForm(data: string, key: string, modifier: number): boolean {
	if (modifier === MOD.shift) return RXVT_SHIFT[key] === data;
	if (modifier === MOD.ctrl) return RXVT_CTRL[key] === data;
	return false;
}

/** A reported (kitty or xterm-modified) key equal to `code` with exactly `modifier` (lock bits ignored). */
function reported(data: string, code: number, modifier: number): boolean {
	const key = parseReportedKey(data);
	if (!key || (key.modifier & ~LOCK_BITS) !== (modifier & ~LOCK_BITS)) return false;
	const got = letterIdentity(fromKeypad(key.code), key.modifier);
	if (got === letterIdentity(fromKeypad(code), modifier)) return true;
	// Non-Latin layouts: the base-layout key counts unless the reported character is itself a Latin key.
	return key.base !== undefined && key.base === code && !isLowerLetterCode(got) && !isKnownSymbolCode(got);
}

/** modifyOtherKeys with exactly this code point and modifier parameter. */
function otherKeys(data: string, code: number, modifier: number): boolean {
	const key = parseModifyOtherKeys(data);
	return key !== undefined && key.code === code && key.modifier === modifier;
}

/** modifyOtherKeys for a printable key (needs a modifier; shift+A and shift+a are the same key). */
function printableOtherKeys(data: string, code: number, modifier: number): boolean {
	if (modifier === 0) return false;
	const key = parseModifyOtherKeys(data);
	if (!key || key.modifier !== modifier) return false;
	return letterIdentity(key.code, key.modifier) === letterIdentity(code, modifier);
}

/** Either encoding of a key carrying a modifier. */
const anyForm = (data: string, code: number, modifier: number) =>
	reported(data, code, modifier) || otherKeys(data, code, modifier);

/** Raw BS / DEL: DEL is Backspace; BS is Ctrl+Backspace in Windows Terminal and Backspace elsewhere. */
function rawBackspace(data: string, modifier: number): boolean {
	if (data === "\x7f") return modifier === 0;
	if (data !== "\x08") return false;
	return modifier === (isWindowsTerminal() ? MOD.ctrl : 0);
}

/** The control character Ctrl+key sends in legacy mode, if any (`-` shares `_`'s). */
function controlChar(key: string): string | undefined {
	const code = key.charCodeAt(0);
	if (isLowerLetterCode(code) || key === "[" || key === "\\" || key === "]" || key === "_") {
		return String.fromCharCode(code & 0x1f);
	}
	return key === "-" ? "\x1f" : undefined;
}

interface ParsedKeyId {
	key: string;
	modifier: number;
}

const parsedIds = new Map<string, ParsedKeyId | null>();

/** "Ctrl+Shift+X" → key "x" with ctrl and shift; unknown modifier words are ignored, an empty key is no key. */
function parseKeyId(keyId: string): ParsedKeyId | null {
	let parsed = parsedIds.get(keyId);
	if (parsed !== undefined) return parsed;
	const parts = keyId.toLowerCase().split("+");
	const key = parts[parts.length - 1] as string;
	let modifier = 0;
	if (parts.includes("shift")) modifier |= MOD.shift;
	if (parts.includes("alt")) modifier |= MOD.alt;
	if (parts.includes("ctrl")) modifier |= MOD.ctrl;
	if (parts.includes("super")) modifier |= MOD.super;
	parsed = key ? { key, modifier } : null;
	if (parsedIds.size > 4096) parsedIds.clear();
	parsedIds.set(keyId, parsed);
	return parsed;
}

function matchEnter(data: string, modifier: number, kitty: boolean): boolean {
	const csiU = reported(data, CODE.enter, modifier) || reported(data, CODE.keypadEnter, modifier);
	if (modifier === 0) return data === "\r" || (!kitty && data === "\n") || data === "\x1bOM" || csiU;
	if (csiU || otherKeys(data, CODE.enter, modifier)) return true;
	// Under kitty, ESC CR and LF come from terminal mappings for Shift+Enter (kitty, Ghostty); otherwise ESC CR is Alt.
	if (modifier === MOD.shift) return kitty && (data === "\x1b\r" || data === "\n");
	if (modifier === MOD.alt) return !kitty && data === "\x1b\r";
	return false;
}

function matchNavigation(data: string, key: string, modifier: number, kitty: boolean): boolean {
	const code = NAV_CODES[key] as number;
	if (modifier === MOD.alt) {
		if (key === "up") return data === "\x1bp" || reported(data, code, modifier);
		if (key === "down") return data === "\x1bn" || reported(data, code, modifier);
		if (key === "left") {
			return data === "\x1b[1;3D" || (!kitty && data === "\x1bB") || data === "\x1bb" || reported(data, code, modifier);
		}
		if (key === "right") {
			return data === "\x1b[1;3C" || (!kitty && data === "\x1bF") || data === "\x1bf" || reported(data, code, modifier);
		}
	}
	if (modifier === MOD.ctrl && (key === "left" || key === "right")) {
		const xterm = key === "left" ? "\x1b[1;5D" : "\x1b[1;5C";
		return data === xterm || rxvtForm(data, key, modifier) || reported(data, code, modifier);
	}
	if (modifier === 0) return (PLAIN[key] as readonly string[]).includes(data) || reported(data, code, 0);
	return rxvtForm(data, key, modifier) || reported(data, code, modifier);
}

function matchCharacter(data: string, key: string, modifier: number, kitty: boolean): boolean {
	const code = key.charCodeAt(0);
	const ctrlChar = controlChar(key);
	if (!kitty) {
		// Legacy: Ctrl+Alt+key is ESC + the control character, Alt+key is ESC + the key.
		if (modifier === (MOD.ctrl | MOD.alt) && ctrlChar && data === `\x1b${ctrlChar}`) return true;
		if (modifier === MOD.alt && data === `\x1b${key}`) return true;
	}
	if (modifier === 0) return data === key || reported(data, code, 0);
	if (modifier === MOD.ctrl && ctrlChar && data === ctrlChar) return true;
	if (modifier === MOD.shift && isLowerLetterCode(code) && data === key.toUpperCase()) return true;
	return reported(data, code, modifier) || printableOtherKeys(data, code, modifier);
}

/** Whether raw terminal input `data` is the key `keyId` (press, repeat or release alike). */
export function matchesKey(data: string, keyId: string): boolean {
	const parsed = parseKeyId(keyId);
	if (!parsed) return false;
	const { key, modifier } = parsed;
	const kitty = isKittyProtocolActive();
	switch (key) {
		case "escape":
		case "esc":
			return modifier === 0 && (data === "\x1b" || anyForm(data, CODE.escape, 0));
		case "space":
			if (!kitty && modifier === MOD.ctrl && data === "\x00") return true;
			if (!kitty && modifier === MOD.alt && data === "\x1b ") return true;
			return (modifier === 0 && data === " ") || anyForm(data, CODE.space, modifier);
		case "tab":
			if (modifier === 0) return data === "\t" || reported(data, CODE.tab, 0);
			return (modifier === MOD.shift && data === "\x1b[Z") || anyForm(data, CODE.tab, modifier);
		case "enter":
		case "return":
			return matchEnter(data, modifier, kitty);
		case "backspace":
			if (modifier === MOD.alt && (data === "\x1b\x7f" || data === "\x1b\b")) return true;
			if ((modifier === 0 || modifier === MOD.ctrl) && rawBackspace(data, modifier)) return true;
			return anyForm(data, CODE.backspace, modifier);
		case "clear":
			return modifier === 0 ? (PLAIN.clear as readonly string[]).includes(data) : rxvtForm(data, key, modifier);
		case "up":
		case "down":
		case "left":
		case "right":
		case "insert":
		case "delete":
		case "home":
		case "end":
		case "pageup":
		case "pagedown":
			return matchNavigation(data, key, modifier, kitty);
	}
	if (/^f(?:[1-9]|1[0-2])$/.test(key)) return modifier === 0 && (PLAIN[key] as readonly string[]).includes(data);
	const isDigit = key.length === 1 && key >= "0" && key <= "9";
	if (key.length === 1 && (isLowerLetterCode(key.charCodeAt(0)) || isDigit || SYMBOLS.has(key))) {
		return matchCharacter(data, key, modifier, kitty);
	}
	return false;
}
