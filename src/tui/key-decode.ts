/**
 * Reading raw terminal input: the kitty keyboard protocol (`CSI code[:shifted[:base]];mods[:event]u`), xterm's
 * modified cursor and editing keys (`CSI 1;mods A`, `CSI n;mods ~`), xterm modifyOtherKeys (`CSI 27;mods;code ~`,
 * what tmux sends with extended keys) and the legacy byte sequences. keys.ts and key-match.ts build the public API
 * on these pieces; the behaviour follows pi-tui 0.87.1 exactly (the parity test compares both on a large corpus).
 */
import type { KeyEventType } from "./key-ids.ts";

/** Modifier bits as the terminal reports them (the parameter is 1 + these bits). */
export const MOD = { shift: 1, alt: 2, ctrl: 4, super: 8 } as const;
/** Caps Lock and Num Lock: reported by kitty, never part of a key id. */
export const LOCK_BITS = 64 | 128;

/** Code points of keys, with negative stand-ins for keys Unicode has no character for. */
export const CODE = {
	escape: 27,
	tab: 9,
	enter: 13,
	space: 32,
	backspace: 127,
	keypadEnter: 57414,
	up: -1,
	down: -2,
	right: -3,
	left: -4,
	delete: -10,
	insert: -11,
	pageUp: -12,
	pageDown: -13,
	home: -14,
	end: -15,
} as const;

let kittyActive = false;

/** Record whether the terminal accepted the kitty keyboard protocol (set by ProcessTerminal). */
export function setKittyProtocolActive(active: boolean): void {
	kittyActive = active;
}

export function isKittyProtocolActive(): boolean {
	return kittyActive;
}

export const SYMBOLS: ReadonlySet<string> = new Set("`-=[]\\;',./!@#$%^&*()_+|~{}:<>?");

/** Kitty's keypad and keypad-navigation keys, as the key they stand for. */
const KEYPAD: ReadonlyMap<number, number> = new Map([
	...Array.from({ length: 10 }, (_, i) => [57399 + i, 48 + i] as [number, number]),
	[57409, 46],
	[57410, 47],
	[57411, 42],
	[57412, 45],
	[57413, 43],
	[57415, 61],
	[57416, 44],
	[57417, CODE.left],
	[57418, CODE.right],
	[57419, CODE.up],
	[57420, CODE.down],
	[57421, CODE.pageUp],
	[57422, CODE.pageDown],
	[57423, CODE.home],
	[57424, CODE.end],
	[57425, CODE.insert],
	[57426, CODE.delete],
]);

export function fromKeypad(code: number): number {
	return KEYPAD.get(code) ?? code;
}

/** An uppercase letter reported with shift held stands for the lowercase letter key. */
export function letterIdentity(code: number, modifier: number): number {
	return (modifier & ~LOCK_BITS & MOD.shift) !== 0 && code >= 65 && code <= 90 ? code + 32 : code;
}

export function isLowerLetterCode(code: number): boolean {
	return code >= 97 && code <= 122;
}

export function isKnownSymbolCode(code: number): boolean {
	return SYMBOLS.has(String.fromCharCode(code));
}

/** A key reported with its modifiers: from kitty's CSI u form or xterm's modified cursor/editing keys. */
export interface ReportedKey {
	code: number;
	/** Modifier bits (the reported parameter minus one). */
	modifier: number;
	/** Kitty's alternate keys: the shifted character and the key at that position on a US layout. */
	shifted?: number;
	base?: number;
	event: KeyEventType;
}

// biome-ignore-start lint/suspicious/noControlCharactersInRegex: terminal input starts with ESC
const CSI_U = /^\x1b\[(\d+)(?::(\d*))?(?::(\d+))?(?:;(\d+))?(?::(\d+))?u$/;
const CSI_ARROW = /^\x1b\[1;(\d+)(?::(\d+))?([ABCD])$/;
const CSI_TILDE = /^\x1b\[(\d+)(?:;(\d+))?(?::(\d+))?~$/;
const CSI_HOME_END = /^\x1b\[1;(\d+)(?::(\d+))?([HF])$/;
const MODIFY_OTHER_KEYS = /^\x1b\[27;(\d+);(\d+)~$/;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: terminal input starts with ESC

const ARROW_CODES: Record<string, number> = { A: CODE.up, B: CODE.down, C: CODE.right, D: CODE.left };
const TILDE_CODES: Record<string, number> = {
	"2": CODE.insert,
	"3": CODE.delete,
	"5": CODE.pageUp,
	"6": CODE.pageDown,
	"7": CODE.home,
	"8": CODE.end,
};

function eventOf(param: string | undefined): KeyEventType {
	const n = param ? Number.parseInt(param, 10) : 1;
	return n === 2 ? "repeat" : n === 3 ? "release" : "press";
}

const modifierOf = (param: string | undefined) => (param ? Number.parseInt(param, 10) : 1) - 1;

// One input is matched against many key ids in a row (every keybinding): remember the last parse.
let lastReportedInput: string | undefined;
let lastReported: ReportedKey | undefined;

/** The key of a kitty CSI u sequence or of an xterm modified arrow / editing / Home / End sequence. */
export function parseReportedKey(data: string): ReportedKey | undefined {
	if (!data.startsWith("\x1b[")) return undefined;
	if (data !== lastReportedInput) {
		lastReported = readReportedKey(data);
		lastReportedInput = data;
	}
	return lastReported;
}

function readReportedKey(data: string): ReportedKey | undefined {
	let m = CSI_U.exec(data);
	if (m) {
		return {
			code: Number.parseInt(m[1] as string, 10),
			shifted: m[2] ? Number.parseInt(m[2], 10) : undefined,
			base: m[3] ? Number.parseInt(m[3], 10) : undefined,
			modifier: modifierOf(m[4]),
			event: eventOf(m[5]),
		};
	}
	m = CSI_ARROW.exec(data);
	if (m) return { code: ARROW_CODES[m[3] as string] as number, modifier: modifierOf(m[1]), event: eventOf(m[2]) };
	m = CSI_TILDE.exec(data);
	if (m) {
		const code = TILDE_CODES[m[1] as string];
		if (code !== undefined) return { code, modifier: modifierOf(m[2]), event: eventOf(m[3]) };
	}
	m = CSI_HOME_END.exec(data);
	if (m) return { code: m[3] === "H" ? CODE.home : CODE.end, modifier: modifierOf(m[1]), event: eventOf(m[2]) };
	return undefined;
}

/** xterm modifyOtherKeys (`CSI 27 ; mods ; code ~`): the key's code point and modifier bits. */
export function parseModifyOtherKeys(data: string): { code: number; modifier: number } | undefined {
	const m = MODIFY_OTHER_KEYS.exec(data);
	if (!m) return undefined;
	return { modifier: Number.parseInt(m[1] as string, 10) - 1, code: Number.parseInt(m[2] as string, 10) };
}

const NAMED_CODES: ReadonlyMap<number, string> = new Map([
	[CODE.escape, "escape"],
	[CODE.tab, "tab"],
	[CODE.enter, "enter"],
	[CODE.keypadEnter, "enter"],
	[CODE.space, "space"],
	[CODE.backspace, "backspace"],
	[CODE.delete, "delete"],
	[CODE.insert, "insert"],
	[CODE.home, "home"],
	[CODE.end, "end"],
	[CODE.pageUp, "pageUp"],
	[CODE.pageDown, "pageDown"],
	[CODE.up, "up"],
	[CODE.down, "down"],
	[CODE.left, "left"],
	[CODE.right, "right"],
]);

/** "shift+ctrl+alt+super+" order, or undefined when bits other than those four (and the locks) are set. */
export function withModifiers(keyName: string, modifier: number): string | undefined {
	const bits = modifier & ~LOCK_BITS;
	if ((bits & ~(MOD.shift | MOD.ctrl | MOD.alt | MOD.super)) !== 0) return undefined;
	let prefix = "";
	if (bits & MOD.shift) prefix += "shift+";
	if (bits & MOD.ctrl) prefix += "ctrl+";
	if (bits & MOD.alt) prefix += "alt+";
	if (bits & MOD.super) prefix += "super+";
	return prefix + keyName;
}

/**
 * The key id of a reported key. A Latin letter, digit or known symbol is taken as reported (remapped layouts
 * report the character they type); any other character falls back to the base-layout key when there is one, so
 * Ctrl+С on a Cyrillic layout is ctrl+c.
 */
export function keyIdOf(code: number, modifier: number, base?: number): string | undefined {
	const identity = letterIdentity(fromKeypad(code), modifier);
	const known = isLowerLetterCode(identity) || (identity >= 48 && identity <= 57) || isKnownSymbolCode(identity);
	const effective = known ? identity : (base ?? identity);
	let name = NAMED_CODES.get(effective);
	if (name === undefined) {
		const ch = String.fromCharCode(effective);
		if (isLowerLetterCode(effective) || (effective >= 48 && effective <= 57) || SYMBOLS.has(ch)) name = ch;
	}
	return name === undefined ? undefined : withModifiers(name, modifier);
}

/** Windows Terminal sends BS (0x08) for Ctrl+Backspace; elsewhere BS is plain Backspace. */
export function isWindowsTerminal(): boolean {
	const env = process.env;
	return Boolean(env.WT_SESSION) && !env.SSH_CONNECTION && !env.SSH_CLIENT && !env.SSH_TTY;
}
