/**
 * The `/resume` picker's list, apart from drawing: the rows in force, the named-only filter, the sort (threaded:
 * forks under their parent session; recent; relevance) and the search, as pi 0.87.1 reads it: `re:<pattern>` is a
 * case-insensitive regex, `"a phrase"` must appear as written (whitespace folded), other words match fuzzily, every
 * word must match. Filtering is incremental: a query that extends the previous one (more characters, more words)
 * is run over the previous matches only.
 */
import { fuzzyMatch } from "../../../tui/index.ts";
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
export type ParsedQuery =
	| { mode: "tokens"; tokens: Token[] }
	| { mode: "regex"; regex: RegExp | null; error?: string };

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
		const m = fuzzyMatch(token.value, text);
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
	/** The last token-mode query and the rows it matched (in row order), for incremental filtering. */
	private lastSearch: { query: string; matched: SessionRow[] } | undefined;

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
		this.refresh();
	}

	allRows(): readonly SessionRow[] {
		return this.rows;
	}

	setQuery(query: string): void {
		if (query === this.query) return;
		this.query = query;
		this.refresh();
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
			this.listed = this.sort === "threaded" ? threaded(named) : [...named].sort(byRecent).map(flat);
			return;
		}
		const parsed = parseSearchQuery(trimmed);
		if (parsed.mode === "regex" && parsed.error) {
			this.listed = [];
			return;
		}
		// Only a plain-word query that extends the previous one may start from its matches.
		const plain = parsed.mode === "tokens" && !trimmed.includes('"');
		const previous = this.lastSearch;
		const pool = plain && previous && extends_(trimmed, previous.query) ? previous.matched : named;
		const scored: { row: SessionRow; score: number }[] = [];
		for (const row of pool) {
			const m = matchRow(row, parsed);
			if (m.matches) scored.push({ row, score: m.score });
		}
		this.lastSearch = plain ? { query: trimmed, matched: scored.map((s) => s.row) } : undefined;
		if (this.sort === "recent") scored.sort((a, b) => b.row.modified - a.row.modified);
		else scored.sort((a, b) => a.score - b.score || b.row.modified - a.row.modified);
		this.listed = scored.map((s) => flat(s.row));
	}
}

const byRecent = (a: SessionRow, b: SessionRow) => b.modified - a.modified;

/**
 * Whether every row matching `next` also matches `prev`: each word of `prev` is a prefix of the word at the same
 * place in `next`, except that its last word may grow (fuzzy matching is a subsequence test, so a longer word
 * matches fewer texts).
 */
function extends_(next: string, prev: string): boolean {
	const a = prev.split(/\s+/);
	const b = next.split(/\s+/);
	if (b.length < a.length) return false;
	for (let i = 0; i < a.length; i++) {
		const word = a[i] as string;
		const other = b[i] as string;
		if (i < a.length - 1 ? word !== other : !other.startsWith(word)) return false;
	}
	return true;
}
