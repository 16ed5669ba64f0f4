/**
 * Generated keyboard input for parity tests: every key × modifier combination in the kitty CSI u form (press,
 * repeat, release, lock bits, alternate keys), xterm's modified cursor/editing keys, modifyOtherKeys and the
 * legacy encodings, plus odd inputs (pastes, replies, partial sequences, text). Also every key id to match.
 */

const LETTERS = "abcdefghijklmnopqrstuvwxyz".split("");
const DIGITS = "0123456789".split("");
const SYMBOLS = "`-=[]\\;',./!@#$%^&*()_+|~{}:<>?".split("");
const NAMED = [
	"escape",
	"enter",
	"tab",
	"space",
	"backspace",
	"delete",
	"insert",
	"clear",
	"home",
	"end",
	"pageUp",
	"pageDown",
	"up",
	"down",
	"left",
	"right",
	...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
];
export const BASE_KEYS = [...LETTERS, ...DIGITS, ...SYMBOLS, ...NAMED];

/** Modifier prefix for bits shift=1 alt=2 ctrl=4 super=8, in `ctrl+shift+alt+super` order. */
function prefix(bits: number): string {
	let p = "";
	if (bits & 4) p += "ctrl+";
	if (bits & 1) p += "shift+";
	if (bits & 2) p += "alt+";
	if (bits & 8) p += "super+";
	return p;
}

/** Every base key with every modifier combination, plus aliases and malformed ids. */
export function keyIds(): string[] {
	const ids: string[] = [];
	for (const key of BASE_KEYS) for (let bits = 0; bits < 16; bits++) ids.push(prefix(bits) + key);
	ids.push("esc", "return", "shift+return", "alt+return", "PageUp", "ctrl+A", "Ctrl+Shift+P", "shift+ctrl+p");
	ids.push("meta+a", "ctrl++", "+", "", "foo", "f13", "ctrl+ctrl+a", "ctrl+escape", "super+esc", "ctrl+pagedown");
	return ids;
}

const KITTY_CODES: Record<string, number> = { escape: 27, enter: 13, tab: 9, space: 32, backspace: 127 };
/** Keys kitty reports in xterm's CSI forms: `CSI 1;m X` letters and `CSI n;m ~` numbers. */
const CSI_LETTER: Record<string, string> = {
	up: "A",
	down: "B",
	right: "C",
	left: "D",
	home: "H",
	end: "F",
	clear: "E",
};
const CSI_LETTER_F: Record<string, string> = { f1: "P", f2: "Q", f3: "R", f4: "S" };
const CSI_NUMBER: Record<string, number> = {
	insert: 2,
	delete: 3,
	pageUp: 5,
	pageDown: 6,
	f5: 15,
	f6: 17,
	f7: 18,
	f8: 19,
	f9: 20,
	f10: 21,
	f11: 23,
	f12: 24,
};

function codeOf(key: string): number | undefined {
	return key.length === 1 ? key.charCodeAt(0) : KITTY_CODES[key];
}

/** The kitty encoding of `key` with modifier bits `bits` and event suffix (`""`, `":1"`, `":2"`, `":3"`). */
function kittyForm(key: string, bits: number, event: string): string | undefined {
	const m = `${bits + 1}${event}`;
	const code = codeOf(key);
	if (code !== undefined) return bits === 0 && event === "" ? `\x1b[${code}u` : `\x1b[${code};${m}u`;
	if (CSI_LETTER[key]) return `\x1b[1;${m}${CSI_LETTER[key]}`;
	if (CSI_LETTER_F[key]) return `\x1b[1;${m}${CSI_LETTER_F[key]}`;
	if (CSI_NUMBER[key] !== undefined) return `\x1b[${CSI_NUMBER[key]};${m}~`;
	return undefined;
}

const SHIFTED: Record<string, string> = {
	"1": "!",
	"2": "@",
	"3": "#",
	"4": "$",
	"5": "%",
	"6": "^",
	"7": "&",
	"8": "*",
	"9": "(",
	"0": ")",
	"-": "_",
	"=": "+",
	"[": "{",
	"]": "}",
	"\\": "|",
	";": ":",
	"'": '"',
	",": "<",
	".": ">",
	"/": "?",
	"`": "~",
};

function add(out: Set<string>, s: string | undefined): void {
	if (s !== undefined) out.add(s);
}

function kittyCorpus(out: Set<string>): void {
	for (const key of BASE_KEYS) {
		for (let bits = 0; bits < 16; bits++) add(out, kittyForm(key, bits, ""));
		for (const bits of [0, 1, 4]) add(out, kittyForm(key, bits, ":3"));
		add(out, kittyForm(key, 0, ":2"));
		add(out, kittyForm(key, 0, ":1"));
		// Caps Lock (64) and Num Lock (128) bits, hyper (16) and meta (32) bits.
		for (const bits of [64, 128, 64 + 4, 128 + 1, 16, 32, 32 + 4]) add(out, kittyForm(key, bits, ""));
	}
	// Alternate keys: shifted key and base-layout key (flag 4).
	for (const letter of LETTERS) {
		const code = letter.charCodeAt(0);
		const upper = code - 32;
		out.add(`\x1b[${code}:${upper};2u`);
		out.add(`\x1b[${code}:${upper};6u`);
		out.add(`\x1b[${code}:${upper};2:3u`);
		out.add(`\x1b[${upper};2u`);
		out.add(`\x1b[${upper}u`);
		out.add(`\x1b[${upper}::${code};5u`);
	}
	for (const [key, shifted] of Object.entries(SHIFTED)) {
		out.add(`\x1b[${key.charCodeAt(0)}:${shifted.charCodeAt(0)};2u`);
		out.add(`\x1b[${key.charCodeAt(0)}:${shifted.charCodeAt(0)};6u`);
		out.add(`\x1b[${shifted.charCodeAt(0)};2u`);
	}
	// Non-Latin layouts (Cyrillic с on the c key, е on t), and a remapped layout reporting a Latin letter.
	for (const s of ["\x1b[1089::99;5u", "\x1b[1089::99u", "\x1b[1077::116;5u", "\x1b[1089::99;7u", "\x1b[107::118;5u"]) {
		out.add(s);
	}
	out.add("\x1b[1089::47;5u");
	out.add("\x1b[1089::32;5u");
	// Keypad keys (57399-57426) and other kitty functional keys.
	for (let code = 57399; code <= 57426; code++) {
		out.add(`\x1b[${code}u`);
		out.add(`\x1b[${code};5u`);
		out.add(`\x1b[${code};2u`);
	}
	for (const code of [57364, 57376, 57441, 57358]) out.add(`\x1b[${code}u`);
}

function modifyOtherKeysCorpus(out: Set<string>): void {
	for (const key of BASE_KEYS) {
		const code = codeOf(key);
		if (code === undefined) continue;
		for (let bits = 0; bits < 16; bits++) out.add(`\x1b[27;${bits + 1};${code}~`);
		out.add(`\x1b[27;${64 + 5};${code}~`);
	}
	for (const letter of LETTERS) {
		const upper = letter.toUpperCase().charCodeAt(0);
		out.add(`\x1b[27;2;${upper}~`);
		out.add(`\x1b[27;6;${upper}~`);
		out.add(`\x1b[27;5;${upper}~`);
	}
}

function legacyCorpus(out: Set<string>): void {
	for (let b = 0; b < 128; b++) {
		const ch = String.fromCharCode(b);
		out.add(ch);
		out.add(`\x1b${ch}`);
	}
	for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
		out.add(`\x1bO${c}`);
		out.add(`\x1b[${c}`);
		out.add(`\x1b[1;5${c}`);
	}
	for (let n = 1; n <= 34; n++) for (const f of ["~", "$", "^", "@"]) out.add(`\x1b[${n}${f}`);
	for (const c of "ABCDE") out.add(`\x1b[[${c}`);
	for (const s of ["\x1b[[5~", "\x1b[[6~", "\x1b[1;3D", "\x1b[1;3C", "\x1b[1;5D", "\x1b[1;5C", "\x1bOM"]) out.add(s);
}

function oddCorpus(out: Set<string>): void {
	const odd = [
		"",
		"hello",
		"ab",
		"é",
		"ü",
		"日",
		"😀",
		"\x1b[200~pasted\x1b[201~",
		"\x1b[200~90:62:3F:A5:2u:3u\x1b[201~",
		"\x1b[200~\x1b[97;1:3u\x1b[201~",
		"x:3u",
		"a:2A",
		"\x1b[?62;c",
		"\x1b[?1;2c",
		"\x1b[?7u",
		"\x1b[?0u",
		"\x1b[<0;10;5M",
		"\x1b[<0;10;5m",
		"\x1b[M !!",
		"\x1b]11;rgb:0000/0000/0000\x07",
		"\x1b[97;0u",
		"\x1b[97;u",
		"\x1b[97;1;97u",
		"\x1b[97;2;65u",
		"\x1b[1114112u",
		"\x1b[1114111u",
		"\x1b[55296u",
		"\x1b[97:3u",
		"\x1b[97::u",
		"\x1b[97:65:97;2u",
		"\x1b[1;5P",
		"\x1b[1;2:3A",
		"\x1b[1;1:2B",
		"\x1b[3;1:3~",
		"\x1b[3:3~",
		"\x1b[5;5:2~",
		"\x1b[1;1:3H",
		"\x1b[1;1:3F",
		"\x1b[2;3~",
		"\x1b[27;5;97",
		"\x1b[27;5~",
		"\x1b[27;;97~",
		"\x1b[13;2u",
		"\x1b[57414;2u",
		"\x1b\x1b[A",
		"\x1b\x1b",
		"\x1b[",
		"\x1bO",
		"\x1b[1;",
		"\r\n",
		"\x1b\r",
		"\n",
		"\x1b ",
		"\x1b\x7f",
		"\x1b\b",
		"\x1bb",
		"\x1bB",
		"\x1bf",
		"\x1bF",
		"\x1bp",
		"\x1bn",
		"\x1b\x03",
		"\x1b\x1f",
		"\x1b1",
		"\x1b[Z",
		"\x1b[9;2u",
		"\x1b[27u",
		"\x1b[27;1:3u",
	];
	for (const s of odd) out.add(s);
}

/** The whole corpus, without duplicates. */
export function keyCorpus(): string[] {
	const out = new Set<string>();
	kittyCorpus(out);
	modifyOtherKeysCorpus(out);
	legacyCorpus(out);
	oddCorpus(out);
	return [...out];
}
