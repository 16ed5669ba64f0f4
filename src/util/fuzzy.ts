/**
 * Fuzzy matching with pi-tui 0.87.1's scores (extensions compare them, and `--list-models` orders by them): every
 * query character must appear in the text, in order, case-insensitively. Lower scores are better.
 */

export interface FuzzyMatch {
	matches: boolean;
	score: number;
}

const NO_MATCH: FuzzyMatch = { matches: false, score: 0 };
const WORD_START = /[\s\-_./:]/;

/**
 * Greedy left-to-right match of `query` in `text` (both lower-cased). Each matched character costs a tenth of its
 * index; a gap costs 2 per skipped character; a run of consecutive matches earns 5, 10, 15… per extra character; a
 * match at a word start earns 10; the whole text equal to the query earns 100.
 */
function scoreMatch(query: string, text: string): FuzzyMatch {
	if (query.length === 0) return { matches: true, score: 0 };
	if (query.length > text.length) return NO_MATCH;
	let score = 0;
	let previous = -1;
	let run = 0;
	for (let q = 0; q < query.length; q++) {
		const at = text.indexOf(query[q] as string, previous + 1);
		if (at === -1) return NO_MATCH;
		// A first match at index 0 counts as continuing a run, as in pi-tui.
		if (at === previous + 1) {
			run++;
			score -= run * 5;
		} else {
			run = 0;
			if (previous >= 0) score += (at - previous - 1) * 2;
		}
		if (at === 0 || WORD_START.test(text[at - 1] as string)) score -= 10;
		score += at * 0.1;
		previous = at;
	}
	if (query === text) score -= 100;
	return { matches: true, score };
}

/**
 * Match `query` against `text`. A query of letters then digits (or digits then letters) that does not match is
 * also tried the other way round ("gpt5" finds "5-gpt"), at a cost of 5.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch {
	return fuzzyMatchLower(query.toLowerCase(), text.toLowerCase());
}

/**
 * `fuzzyMatch` for a query and text already in lower case (a list that keeps its texts lowered once, instead of
 * lowering a long text again on every keystroke).
 */
export function fuzzyMatchLower(q: string, t: string): FuzzyMatch {
	const direct = scoreMatch(q, t);
	if (direct.matches) return direct;
	const lettersFirst = /^([a-z]+)([0-9]+)$/.exec(q);
	const digitsFirst = lettersFirst ? null : /^([0-9]+)([a-z]+)$/.exec(q);
	const parts = lettersFirst ?? digitsFirst;
	if (!parts) return direct;
	const swapped = scoreMatch(`${parts[2]}${parts[1]}`, t);
	return swapped.matches ? { matches: true, score: swapped.score + 5 } : direct;
}

/**
 * Keep the items whose text matches `query`, best first (ties keep their original order). The query is split at
 * whitespace and slashes; every token must match and the scores add up. A blank query returns the items unchanged.
 */
export function fuzzyFilter<T>(items: T[], query: string, getText: (item: T) => string): T[] {
	const tokens = query
		.trim()
		.split(/[\s/]+/)
		.filter((token) => token.length > 0);
	if (tokens.length === 0) return items;
	const scored: { item: T; score: number }[] = [];
	for (const item of items) {
		const text = getText(item);
		let score = 0;
		let all = true;
		for (const token of tokens) {
			const match = fuzzyMatch(token, text);
			if (!match.matches) {
				all = false;
				break;
			}
			score += match.score;
		}
		if (all) scored.push({ item, score });
	}
	scored.sort((a, b) => a.score - b.score);
	return scored.map((entry) => entry.item);
}
