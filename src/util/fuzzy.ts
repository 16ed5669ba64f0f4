/** Fuzzy matching: every query character must appear in the text, in order. Lower scores are better matches. */

export interface FuzzyMatch {
	matches: boolean;
	score: number;
}

const BOUNDARY = /[\s\-_./\\:]/;

/**
 * Match `query` against `text`, case-insensitively. The score adds the gaps between matched characters and the
 * offset of the first match, and rewards consecutive matches and matches at word starts.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch {
	const q = query.toLowerCase();
	const t = text.toLowerCase();
	if (q.length === 0) return { matches: true, score: 0 };
	if (q.length > t.length) return { matches: false, score: Number.POSITIVE_INFINITY };
	let score = 0;
	let from = 0;
	let previous = -1;
	for (const ch of q) {
		const at = t.indexOf(ch, from);
		if (at === -1) return { matches: false, score: Number.POSITIVE_INFINITY };
		if (previous === -1) score += at;
		else if (at === previous + 1) score -= 1;
		else score += at - previous - 1;
		if (at === 0 || BOUNDARY.test(t[at - 1] ?? "")) score -= 0.5;
		previous = at;
		from = at + 1;
	}
	// A contiguous occurrence beats a scattered one; an exact match beats everything.
	if (t.includes(q)) score -= q.length;
	if (t === q) score -= 100;
	return { matches: true, score };
}

/**
 * Keep the items whose text matches `query`, best first (ties keep their original order). The query is split at
 * whitespace and slashes; every token must match. An empty query returns the items unchanged.
 */
export function fuzzyFilter<T>(items: T[], query: string, getText: (item: T) => string): T[] {
	const tokens = query.split(/[\s/]+/).filter((token) => token.length > 0);
	if (tokens.length === 0) return items;
	const scored: { item: T; score: number; index: number }[] = [];
	items.forEach((item, index) => {
		const text = getText(item);
		let score = 0;
		for (const token of tokens) {
			const match = fuzzyMatch(token, text);
			if (!match.matches) return;
			score += match.score;
		}
		scored.push({ item, score, index });
	});
	scored.sort((a, b) => a.score - b.score || a.index - b.index);
	return scored.map((entry) => entry.item);
}
