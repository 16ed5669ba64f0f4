/**
 * Running usage totals of a session for the footer. Entries are added once, as they arrive, so drawing a frame costs
 * the same on the first turn and the thousandth. Which entries count (as pi counts them): assistant messages, tool
 * results that carry usage, `usage` entries, and branch summaries and compactions that carry usage.
 */

export interface UsageNumbers {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	cost?: { total?: number } | number;
}

/** The fields of a session entry the tally reads (a structural subset of session entries). */
export interface UsageEntry {
	type: string;
	usage?: UsageNumbers;
	message?: { role?: string; usage?: UsageNumbers };
}

export interface UsageTotals {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	cost: number;
	/** Share of the latest assistant prompt read from cache, in %; undefined when unknown. */
	latestCacheHitRate: number | undefined;
}

function costOf(usage: UsageNumbers): number {
	const cost = usage.cost;
	if (typeof cost === "number") return cost;
	return cost?.total ?? 0;
}

/** A session read by position: its tree nodes (ids only) and its entries between two positions. */
export interface PositionedEntries {
	getTreeNodes(): readonly { id: string }[];
	getEntriesBetween(start: number, end: number): readonly UsageEntry[];
}

export class UsageTally {
	private totals: UsageTotals = emptyTotals();
	private counted = 0;
	private lastCounted: unknown;
	/** For `syncPositions`: the tree positions counted so far and the id at the last one. */
	private position = 0;
	private positionId: string | undefined;

	/** The totals so far. */
	get(): Readonly<UsageTotals> {
		return this.totals;
	}

	/** Counts one new entry. */
	add(entry: UsageEntry): void {
		const usage = usageOf(entry);
		if (usage) {
			const t = this.totals;
			t.input += usage.input || 0;
			t.output += usage.output || 0;
			t.cacheRead += usage.cacheRead || 0;
			t.cacheWrite += usage.cacheWrite || 0;
			t.cost += costOf(usage);
			if (entry.type === "message" && entry.message?.role === "assistant") {
				const prompt = (usage.input || 0) + (usage.cacheRead || 0) + (usage.cacheWrite || 0);
				t.latestCacheHitRate = prompt > 0 ? ((usage.cacheRead || 0) / prompt) * 100 : undefined;
			}
		}
		this.counted++;
		this.lastCounted = entry;
	}

	/** Forgets everything (a new or switched session). */
	reset(): void {
		this.totals = emptyTotals();
		this.counted = 0;
		this.lastCounted = undefined;
		this.position = 0;
		this.positionId = undefined;
	}

	/**
	 * Brings the tally up to date with a session read by position, reading only the entries at positions not
	 * counted yet (the others are never parsed again). When the session is not the one counted (fewer entries, or
	 * another id at the last counted position), the tally starts over.
	 */
	syncPositions(session: PositionedEntries, end = session.getTreeNodes().length): void {
		const nodes = session.getTreeNodes();
		if (nodes.length < this.position || (this.position > 0 && nodes[this.position - 1]?.id !== this.positionId)) {
			this.reset();
		}
		if (end <= this.position) return;
		for (const entry of session.getEntriesBetween(this.position, end)) this.add(entry);
		this.position = end;
		this.positionId = nodes[end - 1]?.id;
	}

	/**
	 * Brings the tally up to date with a session's entry list, counting only entries it has not seen. The list is
	 * taken to be append-only; when it is not (shorter, or the last counted entry moved), the tally starts over.
	 */
	sync(entries: readonly UsageEntry[]): void {
		if (entries.length < this.counted || (this.counted > 0 && entries[this.counted - 1] !== this.lastCounted)) {
			this.reset();
		}
		for (let i = this.counted; i < entries.length; i++) this.add(entries[i] as UsageEntry);
	}
}

function emptyTotals(): UsageTotals {
	return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, latestCacheHitRate: undefined };
}

function usageOf(entry: UsageEntry): UsageNumbers | undefined {
	if (entry.type === "usage") return entry.usage;
	if (entry.type === "message") {
		const role = entry.message?.role;
		return role === "assistant" || role === "toolResult" ? entry.message?.usage : undefined;
	}
	if (entry.type === "branch_summary" || entry.type === "compaction") return entry.usage;
	return undefined;
}
