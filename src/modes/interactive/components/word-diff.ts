/**
 * Word-level diff of two lines, giving the same changes as the `diffWords` of the `diff` package (jsdiff 8) that
 * pi 0.87.1 uses to highlight edits, so highlighted spans match pi's character for character:
 * - tokens are runs of word characters (ASCII letters, digits, `_` and Latin letters with diacritics) or single
 *   other characters; a whitespace run sticks to the token before and to the token after it;
 * - tokens are equal when equal apart from surrounding whitespace;
 * - the edit script is found with Myers' forward search, taking the insertion branch only when it reaches
 *   further into the old text than the deletion branch (so on a tie deletions come first), and stops
 *   following diagonals that have run off the end of either text;
 * - afterwards, whitespace that a change shares with its neighbours is left to the unchanged text.
 */

export interface WordChange {
	value: string;
	count: number;
	added: boolean;
	removed: boolean;
}

const WORD =
	"a-zA-Z0-9_\\u{AD}\\u{C0}-\\u{D6}\\u{D8}-\\u{F6}\\u{F8}-\\u{2C6}\\u{2C8}-\\u{2D7}\\u{2DE}-\\u{2FF}\\u{1E00}-\\u{1EFF}";
const PARTS = new RegExp(`[${WORD}]+|\\s+|[^${WORD}]`, "gu");
const SPACE = /\s/;

function tokenize(text: string): string[] {
	const parts = text.match(PARTS) ?? [];
	const tokens: string[] = [];
	parts.forEach((part, i) => {
		if (SPACE.test(part)) return;
		const before = i > 0 && SPACE.test(parts[i - 1] as string) ? (parts[i - 1] as string) : "";
		const after = i + 1 < parts.length && SPACE.test(parts[i + 1] as string) ? (parts[i + 1] as string) : "";
		tokens.push(before + part + after);
	});
	// Only whitespace: one token.
	if (tokens.length === 0 && parts.length > 0) tokens.push(parts[0] as string);
	return tokens;
}

/** Tokens back to text: the whitespace a token shares with the one before is written once. */
function join(tokens: string[]): string {
	return tokens.map((token, i) => (i === 0 ? token : token.replace(/^\s+/, ""))).join("");
}

interface Step {
	count: number;
	added: boolean;
	removed: boolean;
	previous: Step | undefined;
}
interface Frontier {
	/** Index of the last old token consumed. */
	oldPos: number;
	last: Step | undefined;
}

/** One more token added or removed; a run of the same kind grows instead of starting a new step. */
function extend(from: Frontier, added: boolean, removed: boolean): Frontier {
	const last = from.last;
	const oldPos = from.oldPos + (removed ? 1 : 0);
	if (last && last.added === added && last.removed === removed) {
		return { oldPos, last: { count: last.count + 1, added, removed, previous: last.previous } };
	}
	return { oldPos, last: { count: 1, added, removed, previous: last } };
}

/** Follows the diagonal while tokens match; returns the new-text position reached. */
function slide(frontier: Frontier, diagonal: number, a: string[], b: string[]): number {
	let oldPos = frontier.oldPos;
	let newPos = oldPos - diagonal;
	let common = 0;
	while (
		newPos + 1 < b.length &&
		oldPos + 1 < a.length &&
		(a[oldPos + 1] as string).trim() === (b[newPos + 1] as string).trim()
	) {
		oldPos++;
		newPos++;
		common++;
	}
	if (common > 0) frontier.last = { count: common, added: false, removed: false, previous: frontier.last };
	frontier.oldPos = oldPos;
	return newPos;
}

function changesOf(last: Step | undefined, a: string[], b: string[]): WordChange[] {
	const steps: Step[] = [];
	for (let step = last; step; step = step.previous) steps.push(step);
	steps.reverse();
	let oldAt = 0;
	let newAt = 0;
	return steps.map(({ count, added, removed }) => {
		let value: string;
		if (removed) {
			value = join(a.slice(oldAt, oldAt + count));
			oldAt += count;
		} else {
			value = join(b.slice(newAt, newAt + count));
			newAt += count;
			if (!added) oldAt += count;
		}
		return { value, count, added, removed };
	});
}

function editScript(a: string[], b: string[]): WordChange[] {
	const frontiers = new Map<number, Frontier | undefined>();
	const start: Frontier = { oldPos: -1, last: undefined };
	frontiers.set(0, start);
	let newPos = slide(start, 0, a, b);
	if (start.oldPos + 1 >= a.length && newPos + 1 >= b.length) return changesOf(start.last, a, b);
	let lowest = Number.NEGATIVE_INFINITY;
	let highest = Number.POSITIVE_INFINITY;
	for (let d = 1; d <= a.length + b.length; d++) {
		for (let k = Math.max(lowest, -d); k <= Math.min(highest, d); k += 2) {
			const fromRemove = frontiers.get(k - 1);
			const fromAdd = frontiers.get(k + 1);
			if (fromRemove) frontiers.set(k - 1, undefined);
			const addNewPos = fromAdd ? fromAdd.oldPos - k : -1;
			const canAdd = fromAdd !== undefined && addNewPos >= 0 && addNewPos < b.length;
			const canRemove = fromRemove !== undefined && fromRemove.oldPos + 1 < a.length;
			if (!canAdd && !canRemove) {
				frontiers.set(k, undefined);
				continue;
			}
			const next =
				!canRemove || (canAdd && (fromRemove as Frontier).oldPos < (fromAdd as Frontier).oldPos)
					? extend(fromAdd as Frontier, true, false)
					: extend(fromRemove as Frontier, false, true);
			newPos = slide(next, k, a, b);
			if (next.oldPos + 1 >= a.length && newPos + 1 >= b.length) return changesOf(next.last, a, b);
			frontiers.set(k, next);
			if (next.oldPos + 1 >= a.length) highest = Math.min(highest, k - 1);
			if (newPos + 1 >= b.length) lowest = Math.max(lowest, k + 1);
		}
	}
	return [];
}

// ---- whitespace clean-up around changes ----------------------------------------------------------------------

const leadingSpace = (s: string) => /^\s*/.exec(s)?.[0] ?? "";
function trailingSpace(s: string): string {
	let i = s.length;
	while (i > 0 && SPACE.test(s[i - 1] as string)) i--;
	return s.slice(i);
}
function commonPrefix(x: string, y: string): string {
	let i = 0;
	while (i < x.length && i < y.length && x[i] === y[i]) i++;
	return x.slice(0, i);
}
function commonSuffix(x: string, y: string): string {
	let i = 0;
	while (i < x.length && i < y.length && x[x.length - 1 - i] === y[y.length - 1 - i]) i++;
	return i === 0 ? "" : x.slice(-i);
}
const withoutPrefix = (s: string, prefix: string) => s.slice(prefix.length);
const withoutSuffix = (s: string, suffix: string) => (suffix ? s.slice(0, -suffix.length) : s);
const swapPrefix = (s: string, prefix: string, next: string) => next + s.slice(prefix.length);
const swapSuffix = (s: string, suffix: string, next: string) => withoutSuffix(s, suffix) + next;
/** The longest start of `y` that `x` ends with. */
function overlap(x: string, y: string): string {
	for (let n = Math.min(x.length, y.length); n > 0; n--) {
		if (x.endsWith(y.slice(0, n))) return y.slice(0, n);
	}
	return "";
}

function tidy(
	before: WordChange | undefined,
	del: WordChange | undefined,
	ins: WordChange | undefined,
	after: WordChange | undefined,
): void {
	if (del && ins) {
		const [delHead, delTail] = [leadingSpace(del.value), trailingSpace(del.value)];
		const [insHead, insTail] = [leadingSpace(ins.value), trailingSpace(ins.value)];
		if (before) {
			const shared = commonPrefix(delHead, insHead);
			before.value = swapSuffix(before.value, insHead, shared);
			del.value = withoutPrefix(del.value, shared);
			ins.value = withoutPrefix(ins.value, shared);
		}
		if (after) {
			const shared = commonSuffix(delTail, insTail);
			after.value = swapPrefix(after.value, insTail, shared);
			del.value = withoutSuffix(del.value, shared);
			ins.value = withoutSuffix(ins.value, shared);
		}
	} else if (ins) {
		if (before) ins.value = ins.value.slice(leadingSpace(ins.value).length);
		if (after) after.value = after.value.slice(leadingSpace(after.value).length);
	} else if (del && before && after) {
		const full = leadingSpace(after.value);
		const [delHead, delTail] = [leadingSpace(del.value), trailingSpace(del.value)];
		const start = commonPrefix(full, delHead);
		del.value = withoutPrefix(del.value, start);
		const end = commonSuffix(withoutPrefix(full, start), delTail);
		del.value = withoutSuffix(del.value, end);
		after.value = swapPrefix(after.value, full, end);
		before.value = swapSuffix(before.value, full, full.slice(0, full.length - end.length));
	} else if (del && after) {
		del.value = withoutSuffix(del.value, overlap(trailingSpace(del.value), leadingSpace(after.value)));
	} else if (del && before) {
		del.value = withoutPrefix(del.value, overlap(trailingSpace(before.value), leadingSpace(del.value)));
	}
}

/** Changes turning `oldText` into `newText`, word by word (unchanged, removed and added runs in order). */
export function diffWords(oldText: string, newText: string): WordChange[] {
	const changes = editScript(tokenize(oldText), tokenize(newText));
	let kept: WordChange | undefined;
	let ins: WordChange | undefined;
	let del: WordChange | undefined;
	for (const change of changes) {
		if (change.added) ins = change;
		else if (change.removed) del = change;
		else {
			if (ins || del) tidy(kept, del, ins, change);
			kept = change;
			ins = undefined;
			del = undefined;
		}
	}
	if (ins || del) tidy(kept, del, ins, undefined);
	return changes;
}
