/**
 * Keyboard input: decode what a terminal sends (legacy byte sequences, xterm modified keys, and the kitty keyboard
 * protocol's `CSI … u` form with press/repeat/release events) into key ids such as "ctrl+c" or "shift+tab".
 */
import { decodeKeySequence, type KeyEvent, type Modifiers } from "./key-decode.ts";

export type { KeyEvent } from "./key-decode.ts";

type Letter =
	| "a"
	| "b"
	| "c"
	| "d"
	| "e"
	| "f"
	| "g"
	| "h"
	| "i"
	| "j"
	| "k"
	| "l"
	| "m"
	| "n"
	| "o"
	| "p"
	| "q"
	| "r"
	| "s"
	| "t"
	| "u"
	| "v"
	| "w"
	| "x"
	| "y"
	| "z";
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
type SymbolKey =
	| "`"
	| "-"
	| "="
	| "["
	| "]"
	| "\\"
	| ";"
	| "'"
	| ","
	| "."
	| "/"
	| "!"
	| "@"
	| "#"
	| "$"
	| "%"
	| "^"
	| "&"
	| "*"
	| "("
	| ")"
	| "_"
	| "+"
	| "|"
	| "~"
	| "{"
	| "}"
	| ":"
	| "<"
	| ">"
	| "?";
type SpecialKey =
	| "escape"
	| "esc"
	| "enter"
	| "return"
	| "tab"
	| "space"
	| "backspace"
	| "delete"
	| "insert"
	| "clear"
	| "home"
	| "end"
	| "pageUp"
	| "pageDown"
	| "up"
	| "down"
	| "left"
	| "right"
	| "f1"
	| "f2"
	| "f3"
	| "f4"
	| "f5"
	| "f6"
	| "f7"
	| "f8"
	| "f9"
	| "f10"
	| "f11"
	| "f12";
export type BaseKey = Letter | Digit | SymbolKey | SpecialKey;
type ModifierName = "ctrl" | "shift" | "alt" | "super";
type ModifiedKeyId<K extends string, Remaining extends ModifierName = ModifierName> = {
	[M in Remaining]: `${M}+${K}` | `${M}+${ModifiedKeyId<K, Exclude<Remaining, M>>}`;
}[Remaining];

/** Every key id `matchesKey` understands, e.g. "enter", "ctrl+c", "ctrl+shift+p". */
export type KeyId = BaseKey | ModifiedKeyId<BaseKey>;

/** Event types of the kitty keyboard protocol (flag 2). Legacy input is always "press". */
export type KeyEventType = "press" | "repeat" | "release";

function mod<P extends string>(prefix: P): <K extends BaseKey>(key: K) => `${P}+${K}` {
	return <K extends BaseKey>(key: K) => `${prefix}+${key}` as `${P}+${K}`;
}

/** Typed key ids: `Key.enter`, `Key.ctrl("c")`, `Key.ctrlShift("p")`, … */
export const Key = {
	escape: "escape",
	esc: "esc",
	enter: "enter",
	return: "return",
	tab: "tab",
	space: "space",
	backspace: "backspace",
	delete: "delete",
	insert: "insert",
	clear: "clear",
	home: "home",
	end: "end",
	pageUp: "pageUp",
	pageDown: "pageDown",
	up: "up",
	down: "down",
	left: "left",
	right: "right",
	f1: "f1",
	f2: "f2",
	f3: "f3",
	f4: "f4",
	f5: "f5",
	f6: "f6",
	f7: "f7",
	f8: "f8",
	f9: "f9",
	f10: "f10",
	f11: "f11",
	f12: "f12",
	backtick: "`",
	hyphen: "-",
	equals: "=",
	leftbracket: "[",
	rightbracket: "]",
	backslash: "\\",
	semicolon: ";",
	quote: "'",
	comma: ",",
	period: ".",
	slash: "/",
	exclamation: "!",
	at: "@",
	hash: "#",
	dollar: "$",
	percent: "%",
	caret: "^",
	ampersand: "&",
	asterisk: "*",
	leftparen: "(",
	rightparen: ")",
	underscore: "_",
	plus: "+",
	pipe: "|",
	tilde: "~",
	leftbrace: "{",
	rightbrace: "}",
	colon: ":",
	lessthan: "<",
	greaterthan: ">",
	question: "?",
	ctrl: mod("ctrl"),
	shift: mod("shift"),
	alt: mod("alt"),
	super: mod("super"),
	ctrlShift: mod("ctrl+shift"),
	shiftCtrl: mod("shift+ctrl"),
	ctrlAlt: mod("ctrl+alt"),
	altCtrl: mod("alt+ctrl"),
	shiftAlt: mod("shift+alt"),
	altShift: mod("alt+shift"),
	ctrlSuper: mod("ctrl+super"),
	superCtrl: mod("super+ctrl"),
	shiftSuper: mod("shift+super"),
	superShift: mod("super+shift"),
	altSuper: mod("alt+super"),
	superAlt: mod("super+alt"),
	ctrlShiftAlt: mod("ctrl+shift+alt"),
	ctrlShiftSuper: mod("ctrl+shift+super"),
} as const;

let kittyActive = false;

/** Record whether the terminal accepted the kitty keyboard protocol (set by the terminal layer). */
export function setKittyProtocolActive(active: boolean): void {
	kittyActive = active;
}

export function isKittyProtocolActive(): boolean {
	return kittyActive;
}

const KEY_ALIASES: Record<string, string> = { esc: "escape", return: "enter" };

/** Split a key id into its base key and modifiers ("ctrl++" is ctrl with the plus key). */
function parseKeyId(keyId: string): (Modifiers & { key: string }) | undefined {
	const id = keyId.trim();
	if (id === "") return undefined;
	const parts = id.endsWith("++") ? [...id.slice(0, -2).split("+"), "+"] : id.split("+");
	const rawKey = parts.pop();
	if (rawKey === undefined || rawKey === "") return undefined;
	const mods: Modifiers = { ctrl: false, shift: false, alt: false, super: false };
	for (const part of parts) {
		const name = part.toLowerCase();
		if (name === "ctrl" || name === "shift" || name === "alt" || name === "super") mods[name] = true;
		else if (name === "meta" || name === "option") mods.alt = true;
		else if (name === "cmd") mods.super = true;
		else return undefined;
	}
	let key = rawKey;
	if (key.length === 1 && key >= "A" && key <= "Z") {
		key = key.toLowerCase();
		mods.shift = true;
	} else if (key.length > 1) {
		const lower = key.toLowerCase();
		key = KEY_ALIASES[lower] ?? (lower === "pageup" ? "pageUp" : lower === "pagedown" ? "pageDown" : lower);
	}
	return { key, ...mods };
}

function sameKey(event: KeyEvent, wanted: Modifiers & { key: string }): boolean {
	return (
		event.key === wanted.key &&
		event.ctrl === wanted.ctrl &&
		event.shift === wanted.shift &&
		event.alt === wanted.alt &&
		event.super === wanted.super
	);
}

/** Whether the raw input `data` is the key `keyId` (press, repeat or release alike). */
export function matchesKey(data: string, keyId: KeyId): boolean {
	const wanted = parseKeyId(keyId);
	if (!wanted) return false;
	return decodeKeySequence(data).some((event) => sameKey(event, wanted));
}

function formatKeyId(event: KeyEvent): string {
	let id = "";
	if (event.ctrl) id += "ctrl+";
	if (event.shift) id += "shift+";
	if (event.alt) id += "alt+";
	if (event.super) id += "super+";
	return id + event.key;
}

/** The key id of the raw input `data` (e.g. "ctrl+c", "shift+tab", "a"), or undefined if it is not one key. */
export function parseKey(data: string): string | undefined {
	const event = decodeKeySequence(data)[0];
	return event ? formatKeyId(event) : undefined;
}

/** Whether `data` is a kitty key-release event. */
export function isKeyRelease(data: string): boolean {
	return decodeKeySequence(data)[0]?.event === "release";
}

/** Whether `data` is a kitty key-repeat event. */
export function isKeyRepeat(data: string): boolean {
	return decodeKeySequence(data)[0]?.event === "repeat";
}

/**
 * The character a kitty `CSI … u` sequence types, when it is a plain or shifted printable key; undefined for
 * anything else (ctrl/alt combinations, functional keys, releases, legacy input).
 */
export function decodeKittyPrintable(data: string): string | undefined {
	const event = decodeKeySequence(data)[0];
	if (!event?.kitty || event.event === "release" || event.ctrl || event.alt || event.super) return undefined;
	return event.text;
}

/** The text a key press types, for both legacy input (a printable character) and kitty sequences. */
export function decodePrintableKey(data: string): string | undefined {
	if (data.startsWith("\x1b")) return decodeKittyPrintable(data);
	if (data.length === 0) return undefined;
	for (let i = 0; i < data.length; i++) {
		const code = data.charCodeAt(i);
		if (code < 0x20 || code === 0x7f) return undefined;
	}
	return data;
}
