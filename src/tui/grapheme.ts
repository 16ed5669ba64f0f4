/**
 * How many terminal cells one grapheme cluster takes, with the rules pi-tui 0.87.1 measures by: tabs 3, emoji 2,
 * East Asian Wide/Fullwidth 2, zero-width marks and format characters 0, spacing marks 1 each, everything else 1.
 */
import { WIDE_RANGES } from "./wide-table.generated.ts";

/** A tab counts as this many columns (the components expand tabs to this many spaces). */
export const TAB_WIDTH = 3;

export const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function inRanges(ranges: readonly number[], cp: number): boolean {
	let lo = 0;
	let hi = (ranges.length >> 1) - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		if (cp < (ranges[mid * 2] as number)) hi = mid - 1;
		else if (cp > (ranges[mid * 2 + 1] as number)) lo = mid + 1;
		else return true;
	}
	return false;
}

/** 2 for East Asian Wide or Fullwidth code points, else 1. */
export function eastAsianCells(cp: number): number {
	return cp >= 0x1100 && inRanges(WIDE_RANGES, cp) ? 2 : 1;
}

// Code point classes, as bits.
const SPACING = 1; // a mark a terminal gives a cell of its own
const MARK = 2; // any combining mark
const SILENT = 4; // default-ignorable, control, mark or surrogate: zero width on its own
const NON_PRINTING = 8; // SILENT plus format characters: skipped when looking for a cluster's base
const WIDE = 16;
const LONE = 32; // never joins a neighbour into one grapheme cluster
const CJK = 64; // Han, Hiragana, Katakana, Hangul or Bopomofo (script extensions): wrapping may break around it
const KNOWN = 128;

/** Spacing marks, less three that terminals draw as combining, plus non-spacing marks legacy wcwidth tables widen. */
const SPACING_RE =
	/^(?:[\p{Spacing_Mark}--[\u1734\u302E\u302F]]|[\u065F\u0F7F\u102B\u102C\u1031\u1033-\u1035\u1038\u103A-\u103E])$/v;
const MARK_RE = /^\p{Mark}$/u;
const CJK_RE =
	/[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\p{Script_Extensions=Bopomofo}]/u;
const SILENT_RE = /^[\p{Default_Ignorable_Code_Point}\p{Control}\p{Mark}\p{Surrogate}]$/v;
const NON_PRINTING_RE = /^[\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Mark}\p{Surrogate}]$/v;

const bmpClasses = new Uint8Array(0x10000);
const astralClasses = new Map<number, number>();

/** True when the segmenter makes one cluster of `text`. */
function oneCluster(text: string): boolean {
	let n = 0;
	for (const _ of graphemeSegmenter.segment(text)) if (++n > 1) return false;
	return true;
}

/**
 * Whether `ch` can never join a neighbour: it neither extends what precedes it (Extend, ZWJ, SpacingMark), nor is
 * a prefix (Prepend), nor pairs with itself or a trailing jamo (Hangul, regional indicators). Together with CR
 * (CR LF) these are the only grapheme break rules that join, so a run made only of such code points is one cluster
 * per code point and needs no segmenter.
 */
function isLone(ch: string): boolean {
	return (
		ch !== "\r" && !oneCluster(`a${ch}`) && !oneCluster(`${ch}a`) && !oneCluster(ch + ch) && !oneCluster(`${ch}\u11a8`)
	);
}

function classify(cp: number): number {
	const ch = String.fromCodePoint(cp);
	let bits = KNOWN;
	if (isLone(ch)) bits |= LONE;
	if (CJK_RE.test(ch)) bits |= CJK;
	if (SPACING_RE.test(ch)) bits |= SPACING;
	if (MARK_RE.test(ch)) bits |= MARK;
	if (SILENT_RE.test(ch)) bits |= SILENT | NON_PRINTING;
	else if (NON_PRINTING_RE.test(ch)) bits |= NON_PRINTING;
	if (eastAsianCells(cp) === 2) bits |= WIDE;
	return bits;
}

function classOf(cp: number): number {
	if (cp < 0x10000) {
		const known = bmpClasses[cp] as number;
		if (known !== 0) return known;
		const bits = classify(cp);
		bmpClasses[cp] = bits;
		return bits;
	}
	let bits = astralClasses.get(cp);
	if (bits === undefined) {
		bits = classify(cp);
		astralClasses.set(cp, bits);
	}
	return bits;
}

/** Blocks where a cluster may be an emoji: checking these first keeps the costly RGI emoji test rare. */
function mayBeEmoji(cluster: string, first: number): boolean {
	return (
		(first >= 0x1f000 && first <= 0x1fbff) ||
		(first >= 0x2300 && first <= 0x23ff) ||
		(first >= 0x2600 && first <= 0x27bf) ||
		(first >= 0x2b50 && first <= 0x2b55) ||
		cluster.includes("\ufe0f") ||
		cluster.length > 2
	);
}

// Compiling the RGI emoji set costs tens of milliseconds, so it happens on the first cluster that needs it.
let rgiEmoji: RegExp | undefined;
function isRgiEmoji(cluster: string): boolean {
	rgiEmoji ??= /^\p{RGI_Emoji}$/v;
	return rgiEmoji.test(cluster);
}

/** Width of a cluster ignoring the emoji rule: from its first printing code point and what follows it. */
function baseWidth(cps: number[]): number {
	let i = 0;
	while (i < cps.length && classOf(cps[i] as number) & NON_PRINTING) i++;
	const base = cps[i];
	if (base === undefined) return 0;
	// Regional indicators stay 2 even unpaired, so a half-streamed flag does not shift the line.
	if (base >= 0x1f1e6 && base <= 0x1f1ff) return 2;
	let width = classOf(base) & WIDE ? 2 : 1;
	let afterMark = false;
	for (i++; i < cps.length; i++) {
		const cp = cps[i] as number;
		const bits = classOf(cp);
		if (bits & SPACING) {
			width += 1;
			afterMark = false;
		} else if (bits & MARK) {
			afterMark = true;
		} else if (!(bits & NON_PRINTING)) {
			// A printing code point the segmenter glued on: after a mark (Indic consonants), halfwidth/fullwidth
			// forms, and the Thai/Lao AM vowels take cells of their own.
			if (afterMark || (cp >= 0xff00 && cp <= 0xffef)) width += bits & WIDE ? 2 : 1;
			else if (cp === 0x0e33 || cp === 0x0eb3) width += 1;
			afterMark = false;
		}
	}
	return width;
}

function clusterWidth(cluster: string): number {
	const cps: number[] = [];
	let allSpacing = true;
	let allSilent = true;
	for (let i = 0; i < cluster.length; ) {
		const cp = cluster.codePointAt(i) as number;
		cps.push(cp);
		const bits = classOf(cp);
		if (!(bits & SPACING)) allSpacing = false;
		if (!(bits & SILENT)) allSilent = false;
		i += cp > 0xffff ? 2 : 1;
	}
	if (allSpacing) return cps.length;
	if (allSilent) return 0;
	const width = baseWidth(cps);
	if (width !== 2 && mayBeEmoji(cluster, cps[0] as number) && isRgiEmoji(cluster)) return 2;
	return width;
}

const singleWidths = new Uint8Array(0x10000);
const clusterCache = new Map<string, number>();
const CLUSTER_CACHE_SIZE = 1024;

/** True when `grapheme` holds a CJK character (wrapping treats it as a word of its own). */
export function hasCjk(grapheme: string): boolean {
	const first = grapheme.codePointAt(0);
	if (first === undefined) return false;
	if (grapheme.length === (first > 0xffff ? 2 : 1)) return first >= 0x80 && (classOf(first) & CJK) !== 0;
	return CJK_RE.test(grapheme);
}

/**
 * Where segmenting must start: the start of the code point before the first one that may join a neighbour (see
 * `isLone`), or the run's length when none may. Everything before it is one cluster per code point.
 */
function loneUntil(run: string): number {
	let previous = 0;
	for (let i = 0; i < run.length; ) {
		const c = run.charCodeAt(i);
		if (c >= 0x20 && c < 0x7f) {
			previous = i++;
			continue;
		}
		const cp = run.codePointAt(i) as number;
		if (!(classOf(cp) & LONE)) return previous;
		previous = i;
		i += cp > 0xffff ? 2 : 1;
	}
	return run.length;
}

/**
 * Call `each` with every grapheme cluster of `run` (text without control sequences) and its width, until `each`
 * returns true; returns whether it did. The part before any code point that may join skips the segmenter.
 */
export function forEachGrapheme(run: string, each: (grapheme: string, width: number) => boolean | undefined): boolean {
	const lone = loneUntil(run);
	for (let i = 0; i < lone; ) {
		const c = run.charCodeAt(i);
		const next = run.charCodeAt(i + 1);
		const size = c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
		const grapheme = size === 1 ? run.charAt(i) : run.slice(i, i + 2);
		if (each(grapheme, graphemeWidth(grapheme))) return true;
		i += size;
	}
	if (lone >= run.length) return false;
	for (const { segment } of graphemeSegmenter.segment(lone === 0 ? run : run.slice(lone))) {
		if (each(segment, graphemeWidth(segment))) return true;
	}
	return false;
}

/** Columns of a run of text without control sequences. */
export function runWidth(run: string): number {
	let width = 0;
	forEachGrapheme(run, (_grapheme, w) => {
		width += w;
		return false;
	});
	return width;
}

/** Columns one grapheme cluster occupies in a terminal. */
export function graphemeWidth(cluster: string): number {
	const first = cluster.charCodeAt(0);
	if (cluster.length === 1) {
		if (first >= 0x20 && first < 0x7f) return 1;
		if (first === 0x09) return TAB_WIDTH;
		const known = singleWidths[first] as number;
		if (known !== 0) return known - 1;
		const width = clusterWidth(cluster);
		singleWidths[first] = width + 1;
		return width;
	}
	if (cluster.length === 0) return 0;
	let width = clusterCache.get(cluster);
	if (width === undefined) {
		width = clusterWidth(cluster);
		if (clusterCache.size >= CLUSTER_CACHE_SIZE) clusterCache.clear();
		clusterCache.set(cluster, width);
	}
	return width;
}
