/**
 * Key ids as types (`KeyId`: "enter", "ctrl+c", "ctrl+shift+p", …) and the `Key` helper that builds them with
 * autocompletion. Pure data; matching and decoding live in keys.ts.
 */
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
