/**
 * Forking a session: which entries and current values a new session starts with. A tree fork copies every entry
 * and the application's own values; a branch fork copies the branch's path up to (or before) one entry, moves the
 * branch tip there and keeps that lane's configuration with an idle state. Operation progress, pending data and
 * results never carry over; an unknown reserved `pi.*` namespace is refused.
 */
import type {
	CommittedListAppendWrite,
	CommittedValueSetWrite,
	Entry,
	ForkCurrentStatePlan,
	ForkDestinationSnapshot,
	ForkOptions,
	ForkSourceSnapshot,
	StoredValue,
} from "./types.ts";
import { branchTip, laneConfig, laneState, value } from "./values.ts";

type BranchFork = Extract<ForkOptions, { scope: "branch" }>;

/** Walks the branch from its tip to the root, selecting what the fork keeps, and says where its tip goes. */
export function selectBranchFork(
	options: BranchFork,
	source: {
		tip: string | null | undefined;
		getParent: (entryId: string) => string | null | undefined;
		selectEntry: (entryId: string) => void;
	},
): Extract<ForkCurrentStatePlan, { scope: "branch" }> {
	if (source.tip === undefined) throw new Error(`Unknown source branch: ${options.branch}`);
	const requested = options.entryId ?? source.tip;
	let found = requested === null;
	let destinationTip: string | null = null;
	for (let id: string | null = source.tip; id !== null; ) {
		const parent = source.getParent(id);
		if (parent === undefined) throw new Error(`Corrupt source branch: missing parent ${id}`);
		if (id === requested) {
			found = true;
			destinationTip = options.position === "before" ? parent : id;
			if (options.position !== "before") source.selectEntry(id);
		} else if (found) {
			source.selectEntry(id);
		}
		id = parent;
	}
	if (!found) throw new Error(`Fork entry ${requested} is not on source branch ${JSON.stringify(options.branch)}`);
	return { scope: "branch", branch: options.branch, destinationTip };
}

/** What one current value or list element becomes in the fork (undefined: left out). */
export function projectForkCurrentStateWrite(
	write: CommittedValueSetWrite | CommittedListAppendWrite,
	plan: ForkCurrentStatePlan,
	isEntryCopied: (entryId: string) => boolean,
): CommittedValueSetWrite | CommittedListAppendWrite | undefined {
	const ownBranch = plan.scope === "tree" || write.key === plan.branch;
	switch (write.namespace) {
		case "pi.session.name":
			return write;
		case "pi.entry.label":
			return isEntryCopied(write.key) ? write : undefined;
		case "pi.branch.tip":
			if (plan.scope === "tree") return write;
			return write.key === plan.branch ? { ...write, value: plan.destinationTip } : undefined;
		case "pi.lane.config":
			return ownBranch ? write : undefined;
		case "pi.lane.state":
			return ownBranch
				? { ...write, value: { currentOperationId: null, lastOperationId: null, inbox: [] } }
				: undefined;
		case "pi.result":
			return undefined;
	}
	if (write.namespace.startsWith("pi.op.") || write.namespace.startsWith("pi.pending.")) return undefined;
	if (write.namespace === "pi" || write.namespace.startsWith("pi."))
		throw new Error(`Unknown reserved fork namespace: ${write.namespace}`);
	return plan.scope === "tree" ? write : undefined;
}

const inNamespace = (values: StoredValue<unknown>[], namespace: string) =>
	values.filter((stored) => stored.address.namespace === namespace);
const findValue = (values: StoredValue<unknown>[], namespace: string, key: string) =>
	values.find((stored) => stored.address.namespace === namespace && stored.address.key === key);

function checkSource(
	source: ForkSourceSnapshot,
	entries: Map<string, Entry>,
	tips: StoredValue<unknown>[],
	options: ForkOptions,
): void {
	const tipKeys = new Set(tips.map((tip) => tip.address.key));
	const configNs = laneConfig("").namespace;
	const stateNs = laneState("").namespace;
	for (const stored of source.scalarValues) {
		const ns = stored.address.namespace;
		if ((ns === configNs || ns === stateNs) && !tipKeys.has(stored.address.key))
			throw new Error(`Source session branch ${JSON.stringify(stored.address.key)} is missing branch.tip`);
	}
	for (const tip of tips) {
		const name = JSON.stringify(tip.address.key);
		const config = findValue(source.scalarValues, configNs, tip.address.key);
		const state = findValue(source.scalarValues, stateNs, tip.address.key);
		if ((config === undefined) !== (state === undefined))
			throw new Error(`Source session branch ${name} has incomplete lane state`);
		if (options.scope === "branch" && tip.address.key === options.branch && config === undefined)
			throw new Error(`Source branch ${JSON.stringify(options.branch)} is not a configured AgentLane`);
		const complete = source.entriesComplete !== false || options.scope === "tree";
		if (complete && tip.value !== null && !entries.has(tip.value as string))
			throw new Error(`Source session branch ${name} has an unknown tip`);
	}
}

/** The complete starting state of a forked session. */
export function createForkSnapshot(source: ForkSourceSnapshot, options: ForkOptions): ForkDestinationSnapshot {
	const sourceEntries = new Map(source.entries.map((entry) => [entry.id, entry]));
	const tips = inNamespace(source.scalarValues, branchTip("").namespace);
	checkSource(source, sourceEntries, tips, options);
	const kept = new Set<string>();
	let plan: ForkCurrentStatePlan;
	if (options.scope === "tree") {
		for (const id of sourceEntries.keys()) kept.add(id);
		plan = { scope: "tree" };
	} else {
		plan = selectBranchFork(options, {
			tip: tips.find((tip) => tip.address.key === options.branch)?.value as string | null | undefined,
			getParent: (id) => sourceEntries.get(id)?.parentId,
			selectEntry: (id) => kept.add(id),
		});
	}
	const entries = new Map<string, Entry>();
	for (const id of kept) entries.set(id, sourceEntries.get(id) as Entry);
	let nextSeq = Math.max(0, ...[...entries.values()].map((entry) => entry.seq)) + 1;
	const scalarValues: StoredValue<unknown>[] = [];
	for (const stored of source.scalarValues) {
		const projected = projectForkCurrentStateWrite(
			{
				kind: "value",
				op: "set",
				seq: stored.seq,
				namespace: stored.address.namespace,
				key: stored.address.key,
				value: stored.value,
			},
			plan,
			(id) => kept.has(id),
		);
		if (projected)
			scalarValues.push({ address: value(projected.namespace, projected.key), value: projected.value, seq: nextSeq++ });
	}
	return { entries, scalarValues, nextSeq };
}
