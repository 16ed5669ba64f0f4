/**
 * The `/resume` picker's list, apart from drawing: the rows in force, the named-only filter, the sort (threaded:
 * forks under their parent session; recent; relevance) and the search, as pi 0.87.1 reads it: `re:<pattern>` is a
 * case-insensitive regex, `"a phrase"` must appear as written (whitespace folded), other words match fuzzily, every
 * word must match. Filtering is incremental: a query that extends the previous one (more characters, more words)
 * is run over the previous matches only.
 */
import { fuzzyMatchLower } from "../../../util/index.ts";
import type { SessionRow } from "./session-scan.ts";

export type SortMode = "threaded" | "recent" | "relevance";
export type NameFilter = "all" | "named";

export interface ListedSession {
	row: SessionRow;
	depth: number;
	isLast: boolean;
	/** Per ancestor below the root: whether its branch continues below this row (draws `│`). */
	ancestorContinues: boolean[];
}

type Token = { kind: "fuzzy" | "phrase"; value: string };
export type ParsedQuery = { mode: "tokens"; tokens: Token[] } | { mode: "regex"; regex: RegExp | null; error?: string };

export function parseSearchQuery(query: string): ParsedQuery {
	const trimmed = query.trim();
	if (trimmed.startsWith("re:")) {
		const pattern = trimmed.slice(3).trim();
		if (!pattern) return { mode: "regex", regex: null, error: "Empty regex" };
		try {
			return { mode: "regex", regex: new RegExp(pattern, "i") };
		} catch (error) {
			return { mode: "regex", regex: null, error: String(error) };
		}
	}
	const tokens: Token[] = [];
	let current = "";
	let quoted = false;
	const flush = (kind: Token["kind"]) => {
		const value = current.trim();
		current = "";
		if (value) tokens.push({ kind, value });
	};
	for (const ch of trimmed) {
		if (ch === '"') {
			flush(quoted ? "phrase" : "fuzzy");
			quoted = !quoted;
		} else if (!quoted && /\s/.test(ch)) flush("fuzzy");
		else current += ch;
	}
	// An unclosed quote: plain words, split at whitespace.
	if (quoted)
		return {
			mode: "tokens",
			tokens: trimmed
				.split(/\s+/)
				.filter(Boolean)
				.map((value) => ({ kind: "fuzzy", value })),
		};
	flush("fuzzy");
	return { mode: "tokens", tokens };
}

const fold = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

/** Whether `row` matches, and its score (lower is better). */
export function matchRow(row: SessionRow, parsed: ParsedQuery): { matches: boolean; score: number } {
	const text = row.searchText;
	if (parsed.mode === "regex") {
		if (!parsed.regex) return { matches: false, score: 0 };
		const at = text.search(parsed.regex);
		return at < 0 ? { matches: false, score: 0 } : { matches: true, score: at * 0.1 };
	}
	let score = 0;
	for (const token of parsed.tokens) {
		if (token.kind === "phrase") {
			const phrase = fold(token.value);
			if (!phrase) continue;
			const at = fold(text).indexOf(phrase);
			if (at < 0) return { matches: false, score: 0 };
			score += at * 0.1;
			continue;
		}
		const m = fuzzyMatchLower(token.value.toLowerCase(), text);
		if (!m.matches) return { matches: false, score: 0 };
		score += m.score;
	}
	return { matches: true, score };
}

const flat = (row: SessionRow): ListedSession => ({ row, depth: 0, isLast: true, ancestorContinues: [] });

interface TreeNode {
	row: SessionRow;
	children: TreeNode[];
	latest: number;
}

/** Sessions as a forest by `parentSessionPath`, subtrees ordered by their latest activity, flattened. */
export function threaded(rows: readonly SessionRow[]): ListedSession[] {
	const byPath = new Map<string, TreeNode>();
	for (const row of rows) byPath.set(row.path, { row, children: [], latest: row.modified });
	const roots: TreeNode[] = [];
	for (const node of byPath.values()) {
		const parent = node.row.parentSessionPath ? byPath.get(node.row.parentSessionPath) : undefined;
		if (parent && parent !== node) parent.children.push(node);
		else roots.push(node);
	}
	const latest = (node: TreeNode, seen: Set<TreeNode>): number => {
		seen.add(node);
		for (const child of node.children) if (!seen.has(child)) node.latest = Math.max(node.latest, latest(child, seen));
		return node.latest;
	};
	const seen = new Set<TreeNode>();
	for (const root of roots) latest(root, seen);
	const out: ListedSession[] = [];
	const walk = (nodes: TreeNode[], depth: number, continues: boolean[]) => {
		nodes.sort((a, b) => b.latest - a.latest);
		nodes.forEach((node, i) => {
			const isLast = i === nodes.length - 1;
			out.push({ row: node.row, depth, isLast, ancestorContinues: continues });
			walk(node.children, depth + 1, [...continues, depth > 0 ? !isLast : false]);
		});
	};
	walk(roots, 0, []);
	return out;
}

export class SessionListModel {
	private rows: SessionRow[] = [];
	private query = "";
	private sort: SortMode = "threaded";
	private nameFilter: NameFilter = "all";
	private listed: ListedSession[] = [];
	/** The rows newest first, each row's place in that order, and their flat list items (made once per row). */
	private byRecency: SessionRow[] = [];
	private recency = new Map<SessionRow, number>();
	private flatByRecency: ListedSession[] = [];
	/** The last plain-word search: its words and, per matching row, the scores of all words but the last and of it. */
	private lastSearch: { words: string[]; hits: Hit[] } | undefined;

	get items(): readonly ListedSession[] {
		return this.listed;
	}

	get sortMode(): SortMode {
		return this.sort;
	}

	get names(): NameFilter {
		return this.nameFilter;
	}

	setRows(rows: SessionRow[]): void {
		this.rows = rows;
		this.lastSearch = undefined;
		this.byRecency = [...rows].sort(byRecent);
		this.recency = new Map(this.byRecency.map((row, i) => [row, i]));
		this.flatByRecency = this.byRecency.map(flat);
		this.refresh();
	}

	allRows(): readonly SessionRow[] {
		return this.rows;
	}

	setQuery(query: string): void {
		// Spaces typed between words change nothing until the next word starts.
		const same = (a: string) => a.trim().replace(/\s+/g, " ");
		const unchanged = same(query) === same(this.query);
		this.query = query;
		if (!unchanged) this.refresh();
	}

	setSort(sort: SortMode): void {
		this.sort = sort;
		this.refresh();
	}

	setNameFilter(filter: NameFilter): void {
		this.nameFilter = filter;
		this.lastSearch = undefined;
		this.refresh();
	}

	private refresh(): void {
		const named = this.nameFilter === "all" ? this.rows : this.rows.filter((r) => Boolean(r.name?.trim()));
		const trimmed = this.query.trim();
		if (!trimmed) {
			this.lastSearch = undefined;
			if (this.sort === "threaded") this.listed = threaded(named);
			else
				this.listed =
					this.nameFilter === "all" ? this.flatByRecency : this.order(named.map((row) => ({ row, score: 0 })));
			return;
		}
		const parsed = parseSearchQuery(trimmed);
		if (parsed.mode === "regex" && parsed.error) {
			this.listed = [];
			return;
		}
		let scored: { row: SessionRow; score: number }[];
		if (parsed.mode === "tokens" && parsed.tokens.every((t) => t.kind === "fuzzy")) {
			const words = parsed.tokens.map((t) => t.value.toLowerCase());
			const hits = this.searchWords(named, words);
			this.lastSearch = { words, hits };
			scored = hits.map((h) => ({ row: h.row, score: h.fixed + h.last }));
		} else {
			this.lastSearch = undefined;
			scored = [];
			for (const row of named) {
				const m = matchRow(row, parsed);
				if (m.matches) scored.push({ row, score: m.score });
			}
		}
		this.listed = this.order(this.sort === "recent" ? scored.map(({ row }) => ({ row, score: 0 })) : scored);
	}

	/**
	 * Best score first, newer first among equal scores. Each is packed into one number (the score in tenths, which
	 * is what fuzzy scores are made of, above the row's recency rank) and sorted as a Float64Array: a native numeric
	 * sort, no comparator calls, no objects per row.
	 */
	private order(scored: readonly { row: SessionRow; score: number }[]): ListedSession[] {
		const keys = new Float64Array(scored.length);
		for (let i = 0; i < scored.length; i++) {
			const { row, score } = scored[i] as { row: SessionRow; score: number };
			keys[i] = Math.round(score * 10) * RANKS + (this.recency.get(row) ?? 0);
		}
		keys.sort();
		const out = new Array<ListedSession>(keys.length);
		for (let i = 0; i < keys.length; i++) {
			const key = keys[i] as number;
			out[i] = this.flatByRecency[key - Math.floor(key / RANKS) * RANKS] as ListedSession;
		}
		return out;
	}

	/**
	 * Rows matching every word. When `words` extends the previous search (the same words, the last one grown, maybe
	 * more after it), only the previous hits are tried and only the words that changed are scored again: fuzzy
	 * matching is a subsequence test, so a longer word matches fewer texts.
	 */
	private searchWords(rows: readonly SessionRow[], words: string[]): Hit[] {
		const score = (word: string, row: SessionRow) => fuzzyMatchLower(word, row.searchText);
		const prev = this.lastSearch;
		const out: Hit[] = [];
		if (prev && extendsWords(words, prev.words)) {
			const p = prev.words.length;
			const lastSame = words[p - 1] === prev.words[p - 1];
			for (const hit of prev.hits) {
				let fixed = hit.fixed;
				let last = hit.last;
				let ok = true;
				if (!lastSame) {
					const m = score(words[p - 1] as string, hit.row);
					ok = m.matches;
					last = m.score;
				}
				for (let i = p; ok && i < words.length; i++) {
					const m = score(words[i] as string, hit.row);
					ok = m.matches;
					fixed += last;
					last = m.score;
				}
				if (ok) out.push({ row: hit.row, fixed, last });
			}
			return out;
		}
		for (const row of rows) {
			let fixed = 0;
			let last = 0;
			let ok = true;
			for (let i = 0; ok && i < words.length; i++) {
				const m = score(words[i] as string, row);
				ok = m.matches;
				fixed += last;
				last = m.score;
			}
			if (ok) out.push({ row, fixed, last });
		}
		return out;
	}
}

interface Hit {
	row: SessionRow;
	/** The scores of every word but the last. */
	fixed: number;
	last: number;
}

/** Whether `next` keeps every word of `prev` but the last, whose word in `next` starts with it. */
function extendsWords(next: readonly string[], prev: readonly string[]): boolean {
	if (prev.length === 0 || next.length < prev.length) return false;
	for (let i = 0; i < prev.length - 1; i++) if (next[i] !== prev[i]) return false;
	return (next[prev.length - 1] as string).startsWith(prev[prev.length - 1] as string);
}

const byRecent = (a: SessionRow, b: SessionRow) => b.modified - a.modified;
/** Room for the recency rank below the score in a sort key (2^21 rows). */
const RANKS = 2 ** 21;
