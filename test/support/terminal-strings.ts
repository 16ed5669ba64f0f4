/**
 * A seeded generator of terminal strings for parity tests: ASCII words and spaces, CJK, emoji sequences (ZWJ,
 * skin tones, flags, keycaps, VS15/VS16), combining and spacing marks, tabs, SGR styling, OSC 8 links (BEL and ST),
 * the cursor marker (APC), other CSI and stray escapes, newlines, and random code points.
 */

/** mulberry32: a small deterministic PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const WORDS = ["a", "hello", "world", "x", "supercalifragilistic", "pi", "--flag", "path/to/file.ts", "ok.", "(yes)"];
const CJK = ["中", "文字", "日本語", "テスト", "ひらがな", "한국어", "ㄅㄆ", "，", "。", "　", "ｱｲｳ", "ＡＢ", "丽"];
const EMOJI = [
	"🎉",
	"👍",
	"👍🏽",
	"👨‍👩‍👧‍👦",
	"👩🏾‍💻",
	"🏳️‍🌈",
	"❤️",
	"❤︎",
	"❤",
	"☺️",
	"✌🏻",
	"🇯🇵",
	"🇺🇸",
	"🇦",
	"🇦🇦",
	"1️⃣",
	"#️⃣",
	"🏴󠁧󠁢󠁳󠁣󠁴󠁿",
	"🐻‍❄️",
	"😀\ufe0e",
	"↔️",
	"©️",
	"⌚",
	"🫨",
	"🧑‍🧑‍🧒",
];
const MARKS = [
	"e\u0301",
	"\u0301",
	"a\u0308\u0323",
	"क्षि",
	"कि",
	"\u093f",
	"नमस्ते",
	"ำ",
	"กำ",
	"ຳ",
	"\u0e33",
	"\u200d",
	"\u200b",
	"\u00ad",
	"\ufe0f",
	"\u0600\u0661",
	"\u1100\u1161\u11a8",
	"ｶﾞ",
	"\u102b",
	"\u0f7f",
	"ᄀ",
	"\u302e",
];
const SGR = [
	"\x1b[0m",
	"\x1b[m",
	"\x1b[1m",
	"\x1b[2m",
	"\x1b[3m",
	"\x1b[4m",
	"\x1b[24m",
	"\x1b[22m",
	"\x1b[31m",
	"\x1b[39m",
	"\x1b[44m",
	"\x1b[49m",
	"\x1b[38;5;208m",
	"\x1b[48;2;10;20;30m",
	"\x1b[1;4;93m",
	"\x1b[7m",
	"\x1b[9m",
	"\x1b[21m",
	"\x1b[38;5m",
	"\x1b[38:2:1:2:3m",
];
const OTHER = [
	"\x1b_pi:c\x07",
	"\x1b[2K",
	"\x1b[3A",
	"\x1b[?25l",
	"\x1b[H",
	"\x1b[1G",
	"\x1b]0;title\x07",
	"\x1b",
	"\x1b[",
	"\x1b]",
	"\x1bM",
	"\x07",
	"\r",
	"\r\n",
	"\n",
];

function linkOpen(random: () => number): string {
	const url = ["https://example.com", "file:///tmp/a b", "http://x/?q=1;2", "u"][Math.floor(random() * 4)];
	const params = random() < 0.3 ? "id=42" : "";
	return `\x1b]8;${params};${url}${random() < 0.5 ? "\x07" : "\x1b\\"}`;
}

function randomCodePoint(random: () => number): string {
	const ranges: [number, number][] = [
		[0x20, 0x7e],
		[0xa0, 0x2ff],
		[0x300, 0x36f],
		[0x370, 0x10ff],
		[0x1100, 0x11ff],
		[0x2000, 0x2bff],
		[0x2e80, 0x9fff],
		[0xac00, 0xd7a3],
		[0xfe00, 0xfe6f],
		[0xff00, 0xffef],
		[0x1f000, 0x1faff],
		[0x10000, 0x2ffff],
		[0xe0000, 0xe01ef],
	];
	const [lo, hi] = ranges[Math.floor(random() * ranges.length)] as [number, number];
	return String.fromCodePoint(lo + Math.floor(random() * (hi - lo + 1)));
}

function pick<T>(random: () => number, list: readonly T[]): T {
	return list[Math.floor(random() * list.length)] as T;
}

/** One random terminal string of up to `maxPieces` pieces. */
export function terminalString(random: () => number, maxPieces = 24): string {
	let out = "";
	let linkIsOpen = false;
	const pieces = 1 + Math.floor(random() * maxPieces);
	for (let i = 0; i < pieces; i++) {
		const r = random();
		if (r < 0.22) out += pick(random, WORDS);
		else if (r < 0.36) out += " ".repeat(1 + Math.floor(random() * 3));
		else if (r < 0.46) out += pick(random, CJK);
		else if (r < 0.55) out += pick(random, EMOJI);
		else if (r < 0.63) out += pick(random, MARKS);
		else if (r < 0.67) out += "\t";
		else if (r < 0.79) out += pick(random, SGR);
		else if (r < 0.85) {
			out += linkIsOpen ? (random() < 0.5 ? "\x1b]8;;\x07" : "\x1b]8;;\x1b\\") : linkOpen(random);
			linkIsOpen = !linkIsOpen;
		} else if (r < 0.9) out += pick(random, OTHER);
		else out += randomCodePoint(random);
	}
	return out;
}
