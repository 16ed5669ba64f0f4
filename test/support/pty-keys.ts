/**
 * The bytes a terminal sends for a named key ("enter", "ctrl+c", "alt+enter", "shift+tab", "up", "ctrl+alt+p" …),
 * for the pseudo-terminal harness. By default these are what a plain xterm sends (legacy sequences, with xterm's
 * `CSI 27;mod;code ~` form for modified keys when the app turned modifyOtherKeys on); when the app negotiated the
 * kitty keyboard protocol, keys that protocol disambiguates are sent in its `CSI code;mod u` form.
 */

export interface KeyboardState {
	/** The app pushed kitty keyboard flags and the terminal said it supports them. */
	kitty: boolean;
	/** The app turned xterm's modifyOtherKeys on (`CSI > 4 ; 2 m`). */
	modifyOtherKeys: boolean;
	/** DECCKM: cursor keys send `ESC O A` instead of `ESC [ A`. */
	applicationCursorKeys: boolean;
}

const CURSOR: Record<string, string> = { up: "A", down: "B", right: "C", left: "D", home: "H", end: "F" };
const TILDE: Record<string, number> = { insert: 2, delete: 3, pageup: 5, pagedown: 6 };
const FUNCTION: Record<string, string> = { f1: "OP", f2: "OQ", f3: "OR", f4: "OS" };
const TILDE_F: Record<string, number> = { f5: 15, f6: 17, f7: 18, f8: 19, f9: 20, f10: 21, f11: 23, f12: 24 };
/** Keys with a code point of their own (kitty and modifyOtherKeys use it). */
const CODEPOINT: Record<string, number> = {
	enter: 13,
	return: 13,
	tab: 9,
	escape: 27,
	esc: 27,
	backspace: 127,
	space: 32,
};
const LEGACY: Record<string, string> = {
	enter: "\r",
	return: "\r",
	tab: "\t",
	escape: "\x1b",
	esc: "\x1b",
	backspace: "\x7f",
	space: " ",
};

interface Parsed {
	key: string;
	shift: boolean;
	alt: boolean;
	ctrl: boolean;
}

function parse(spec: string): Parsed {
	const parts = spec.split("+");
	// "ctrl++" would be odd; a lone "+" stays the text "+".
	const key = parts.pop() as string;
	const mods = new Set(parts.map((p) => p.toLowerCase()));
	for (const mod of mods) {
		if (!["shift", "alt", "ctrl", "meta", "option"].includes(mod))
			throw new Error(`unknown modifier "${mod}" in "${spec}"`);
	}
	return {
		key: key.length === 1 ? key : key.toLowerCase(),
		shift: mods.has("shift"),
		alt: mods.has("alt") || mods.has("meta") || mods.has("option"),
		ctrl: mods.has("ctrl"),
	};
}

/** The xterm/kitty modifier parameter: 1 + shift(1) + alt(2) + ctrl(4). */
function modifierParam(p: Parsed): number {
	return 1 + (p.shift ? 1 : 0) + (p.alt ? 2 : 0) + (p.ctrl ? 4 : 0);
}

/** True when `spec` names a key (as opposed to text to type). */
export function isKeyName(spec: string): boolean {
	if (spec.length <= 1) return false;
	try {
		const p = parse(spec);
		if (spec.includes("+")) return p.key.length === 1 || isNamed(p.key);
		return isNamed(p.key);
	} catch {
		return false;
	}
}

function isNamed(key: string): boolean {
	return key in CURSOR || key in TILDE || key in FUNCTION || key in TILDE_F || key in CODEPOINT;
}

/** The bytes for one key spec; throws on a name it does not know. */
export function keyBytes(spec: string, state: KeyboardState): string {
	const p = parse(spec);
	const mod = modifierParam(p);
	const { key } = p;
	if (key in CURSOR) {
		const letter = CURSOR[key] as string;
		if (mod > 1) return `\x1b[1;${mod}${letter}`;
		return state.applicationCursorKeys && key !== "home" && key !== "end" ? `\x1bO${letter}` : `\x1b[${letter}`;
	}
	if (key in TILDE) return mod > 1 ? `\x1b[${TILDE[key]};${mod}~` : `\x1b[${TILDE[key]}~`;
	if (key in FUNCTION) {
		const code = (FUNCTION[key] as string).slice(1);
		return mod > 1 ? `\x1b[1;${mod}${code}` : `\x1b${FUNCTION[key]}`;
	}
	if (key in TILDE_F) return mod > 1 ? `\x1b[${TILDE_F[key]};${mod}~` : `\x1b[${TILDE_F[key]}~`;
	if (key in CODEPOINT) return specialKey(p, CODEPOINT[key] as number, LEGACY[key] as string, state);
	if (key.length === 1) return characterKey(p, state);
	throw new Error(`unknown key "${spec}"`);
}

/** enter, tab, escape, backspace, space with modifiers. */
function specialKey(p: Parsed, code: number, legacy: string, state: KeyboardState): string {
	const mod = modifierParam(p);
	if (state.kitty) {
		// Under disambiguation, plain enter/tab/backspace/space keep their legacy bytes; escape does not.
		if (mod === 1) return code === 27 ? "\x1b[27u" : legacy;
		return `\x1b[${code};${mod}u`;
	}
	if (mod === 1) return legacy;
	if (code === 9 && p.shift && !p.alt && !p.ctrl) return "\x1b[Z";
	if (state.modifyOtherKeys) return `\x1b[27;${mod};${code}~`;
	// A plain xterm: alt prefixes ESC, ctrl/shift are lost (ctrl+space is NUL).
	let bytes = legacy;
	if (p.ctrl && code === 32) bytes = "\x00";
	if (p.ctrl && code === 127) bytes = "\x08";
	return p.alt ? `\x1b${bytes}` : bytes;
}

/** A printable character with modifiers (ctrl+c, alt+x, ctrl+alt+p, ctrl+shift+u …). */
function characterKey(p: Parsed, state: KeyboardState): string {
	const mod = modifierParam(p);
	const lower = p.key.toLowerCase();
	if (mod === 1) return p.key;
	if (state.kitty && (p.ctrl || p.alt)) return `\x1b[${lower.codePointAt(0)};${mod}u`;
	if (p.shift && !p.ctrl && !p.alt) return p.key.toUpperCase();
	if (p.ctrl && p.shift && state.modifyOtherKeys) return `\x1b[27;${mod};${lower.codePointAt(0)}~`;
	let bytes = p.shift ? p.key.toUpperCase() : p.key;
	if (p.ctrl) {
		const code = lower.codePointAt(0) as number;
		if (code >= 97 && code <= 122) bytes = String.fromCharCode(code - 96);
		else if (lower === "[") bytes = "\x1b";
		else if (lower === "\\") bytes = "\x1c";
		else if (lower === "]") bytes = "\x1d";
		else if (lower === "_" || lower === "-") bytes = "\x1f";
		else if (state.modifyOtherKeys) return `\x1b[27;${mod};${code}~`;
	}
	return p.alt ? `\x1b${bytes}` : bytes;
}
