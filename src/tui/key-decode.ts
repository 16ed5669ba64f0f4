/** Decoding of raw terminal key input into key events. See keys.ts for the public API. */

export interface Modifiers {
	ctrl: boolean;
	shift: boolean;
	alt: boolean;
	super: boolean;
}

/** One interpretation of a key sequence. `key` is a base key name ("a", "enter", "pageUp", "!", …). */
export interface KeyEvent extends Modifiers {
	key: string;
	event: "press" | "repeat" | "release";
	/** True when the input was a kitty `CSI … u` sequence. */
	kitty: boolean;
	/** For kitty printable keys: the character the key types (shift applied). */
	text?: string;
}

const NO_MODS: Modifiers = { ctrl: false, shift: false, alt: false, super: false };

function ev(key: string, mods: Partial<Modifiers> = {}, extra: Partial<KeyEvent> = {}): KeyEvent {
	return { key, ...NO_MODS, ...mods, event: "press", kitty: false, ...extra };
}

/** Decode the xterm/kitty modifier parameter (1 + bitmask); caps/num lock bits are ignored, meta counts as alt. */
function modifiersFrom(param: string | undefined): Modifiers {
	const bits = Math.max(0, (Number(param) || 1) - 1);
	return {
		shift: (bits & 1) !== 0,
		alt: (bits & 2) !== 0 || (bits & 32) !== 0,
		ctrl: (bits & 4) !== 0,
		super: (bits & 8) !== 0,
	};
}

function eventFrom(param: string | undefined): KeyEvent["event"] {
	return param === "2" ? "repeat" : param === "3" ? "release" : "press";
}

/** Kitty functional-key code points (private use area) and C0 codes kitty reports as key codes. */
const KITTY_CODES: Record<number, string> = {
	8: "backspace",
	9: "tab",
	13: "enter",
	27: "escape",
	32: "space",
	127: "backspace",
	57399: "0",
	57400: "1",
	57401: "2",
	57402: "3",
	57403: "4",
	57404: "5",
	57405: "6",
	57406: "7",
	57407: "8",
	57408: "9",
	57409: ".",
	57410: "/",
	57411: "*",
	57412: "-",
	57413: "+",
	57414: "enter",
	57415: "=",
	57417: "left",
	57418: "right",
	57419: "up",
	57420: "down",
	57421: "pageUp",
	57422: "pageDown",
	57423: "home",
	57424: "end",
	57425: "insert",
	57426: "delete",
};
for (let n = 1; n <= 12; n++) KITTY_CODES[57363 + n] = `f${n}`;

/** Final bytes of `CSI [1;mods] X` and `SS3 X` sequences. */
const LETTER_KEYS: Record<string, string> = {
	A: "up",
	B: "down",
	C: "right",
	D: "left",
	H: "home",
	F: "end",
	E: "clear",
	P: "f1",
	Q: "f2",
	R: "f3",
	S: "f4",
};

/** Numbers of `CSI n [;mods] ~` sequences. */
const TILDE_KEYS: Record<string, string> = {
	"1": "home",
	"2": "insert",
	"3": "delete",
	"4": "end",
	"5": "pageUp",
	"6": "pageDown",
	"7": "home",
	"8": "end",
	"11": "f1",
	"12": "f2",
	"13": "f3",
	"14": "f4",
	"15": "f5",
	"17": "f6",
	"18": "f7",
	"19": "f8",
	"20": "f9",
	"21": "f10",
	"23": "f11",
	"24": "f12",
};

/** The key a code point stands for: a named key, a lowercase letter (with shift for uppercase), or the character. */
function keyForCodePoint(code: number, mods: Modifiers): { key: string; mods: Modifiers } | undefined {
	const named = KITTY_CODES[code];
	if (named) return { key: named, mods };
	if (code >= 65 && code <= 90) return { key: String.fromCharCode(code + 32), mods: { ...mods, shift: true } };
	if (code < 32 || (code >= 57344 && code <= 63743)) return undefined;
	return { key: String.fromCodePoint(code), mods };
}

/** The character a plain or shifted kitty key types, if it is a printable key. */
function kittyText(code: number, key: string, shift: boolean, shifted: number | undefined, text: string | undefined) {
	if (text) return String.fromCodePoint(...text.split(":").map(Number));
	if (key === "space") return " ";
	const keypad = code >= 57399 && code <= 57415 && code !== 57414;
	if (KITTY_CODES[code] && !keypad) return undefined;
	if (shift && shifted) return String.fromCodePoint(shifted);
	return shift ? key.toUpperCase() : key;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
const KITTY_U = /^\x1b\[(\d+)(?::(\d*))?(?::(\d+))?(?:;(\d*)(?::(\d+))?)?(?:;([\d:]*))?u$/;

function decodeKittyU(data: string): KeyEvent[] {
	const m = KITTY_U.exec(data);
	if (!m) return [];
	const code = Number(m[1]);
	const mods = modifiersFrom(m[4]);
	const base = keyForCodePoint(code, mods);
	if (!base) return [];
	const extra: Partial<KeyEvent> = { event: eventFrom(m[5]), kitty: true };
	const shifted = m[2] ? Number(m[2]) : undefined;
	if (!mods.ctrl && !mods.alt && !mods.super) extra.text = kittyText(code, base.key, base.mods.shift, shifted, m[6]);
	const events = [ev(base.key, base.mods, extra)];
	// A shifted symbol ("shift+1" reporting "!") also matches the symbol itself.
	if (shifted && base.mods.shift && !/^[a-z]$/.test(base.key)) {
		events.push(ev(String.fromCodePoint(shifted), { ...base.mods, shift: false }, extra));
	}
	return events;
}

function decodeCsi(data: string): KeyEvent[] {
	if (data === "\x1b[Z") return [ev("tab", { shift: true })];
	// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
	let m = /^\x1b\[(?:1)?(?:;(\d+)(?::(\d+))?)?([A-HPQRS])$/.exec(data);
	if (m) {
		const key = LETTER_KEYS[m[3] as string];
		return key ? [ev(key, modifiersFrom(m[1]), { event: eventFrom(m[2]) })] : [];
	}
	// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
	m = /^\x1b\[27;(\d+);(\d+)~$/.exec(data); // xterm modifyOtherKeys
	if (m) {
		const base = keyForCodePoint(Number(m[2]), modifiersFrom(m[1]));
		return base ? [ev(base.key, base.mods)] : [];
	}
	// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
	m = /^\x1b\[(\d+)(?:;(\d+)(?::(\d+))?)?~$/.exec(data);
	if (m) {
		const key = TILDE_KEYS[m[1] as string];
		return key ? [ev(key, modifiersFrom(m[2]), { event: eventFrom(m[3]) })] : [];
	}
	return decodeKittyU(data);
}

/** Single-byte (or single-character) legacy input. */
function decodeLegacyChar(ch: string): KeyEvent[] {
	const code = ch.codePointAt(0) ?? -1;
	switch (code) {
		case 0x0d:
			return [ev("enter")];
		case 0x0a:
			return [ev("j", { ctrl: true }), ev("enter")];
		case 0x09:
			return [ev("tab")];
		case 0x1b:
			return [ev("escape")];
		case 0x7f:
			return [ev("backspace")];
		case 0x08:
			return [ev("backspace"), ev("h", { ctrl: true })];
		case 0x00:
			return [ev("space", { ctrl: true }), ev("@", { ctrl: true })];
		case 0x1c:
			return [ev("\\", { ctrl: true })];
		case 0x1d:
			return [ev("]", { ctrl: true })];
		case 0x1e:
			return [ev("^", { ctrl: true })];
		case 0x1f:
			return [ev("-", { ctrl: true }), ev("_", { ctrl: true })];
		case 0x20:
			return [ev("space")];
	}
	if (code >= 0x01 && code <= 0x1a) return [ev(String.fromCharCode(code + 96), { ctrl: true })];
	if (code >= 65 && code <= 90) return [ev(ch.toLowerCase(), { shift: true })];
	if (code > 0x20) return [ev(ch)];
	return [];
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function isSingleGrapheme(data: string): boolean {
	const it = segmenter.segment(data)[Symbol.iterator]();
	it.next();
	return it.next().done === true;
}

/**
 * All interpretations of `data` as one key press, most specific first; empty if `data` is not a single key
 * (for example pasted text or an unknown escape sequence).
 */
export function decodeKeySequence(data: string): KeyEvent[] {
	if (data.length === 0) return [];
	if (data.startsWith("\x1b[") && data.length > 2) return decodeCsi(data);
	if (data.startsWith("\x1bO") && data.length === 3) {
		const key = LETTER_KEYS[data[2] as string];
		return key ? [ev(key)] : [];
	}
	if (data.startsWith("\x1b") && data.length > 1) {
		// ESC prefix = alt (legacy "meta sends escape").
		const rest = data.slice(1);
		if (!isSingleGrapheme(rest)) return [];
		return decodeLegacyChar(rest).map((e) => ({ ...e, alt: true }));
	}
	if (!isSingleGrapheme(data)) return [];
	return decodeLegacyChar(data);
}
