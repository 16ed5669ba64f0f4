/**
 * Forking a format-4 JSONL session into a new file: one pass indexes the source (entry parents, which value and
 * list rows are current, branch tips, configured lanes) up to a sequence boundary, the second copies the selected
 * entries and current rows with their original sequence numbers, one write per line. Usage rows, deleted values
 * and operation state are not copied; the new header carries the source's next sequence number.
 */
import type { Context } from "../../context.ts";
import type { FileSystem } from "../../env-types.ts";
import { projectForkCurrentStateWrite, selectBranchFork } from "../fork.ts";
import type { CommittedWrite, ForkCurrentStatePlan, ForkOptions } from "../types.ts";
import {
	fileValue,
	JSONL_STORAGE_VERSION,
	type JsonlSessionMetadata,
	type JsonlStorageHeader,
	parseJsonlSessionHeader,
	parseJsonlTransaction,
	publishJsonl,
	splitCompleteLines,
} from "./codec.ts";

const slot = (namespace: string, key: string) => `${namespace}\u0000${key}`;

/** Complete transactions of a source file, stopping before `stopBeforeSeq` (never inside a transaction). */
async function readSource(
	fs: FileSystem,
	source: JsonlSessionMetadata,
	stopBeforeSeq: number | undefined,
	context: Context,
): Promise<{ header: JsonlStorageHeader; transactions: CommittedWrite[][] }> {
	const path = source.path;
	const { lines } = splitCompleteLines(
		fileValue(await fs.readTextFile(path, context), `Failed to open JSONL fork source ${path}`),
	);
	const first = lines[0];
	if (first === undefined || first === "") throw new Error(`Invalid JSONL storage ${path}: missing header`);
	const parsed = parseJsonlSessionHeader(first);
	if (!parsed.ok) throw new Error(`Invalid JSONL storage ${path}: invalid header`, { cause: parsed.error });
	if (parsed.value.format !== "v4") throw new Error(`Invalid JSONL storage ${path}: expected format 4 header`);
	const header = parsed.value.header;
	if (header.id !== source.id || header.cwd !== source.cwd)
		throw new Error(`Session identity does not match header: ${source.id}`);
	if (header.storageVersion !== JSONL_STORAGE_VERSION)
		throw new Error(`Session ${source.id} uses unsupported storage version ${header.storageVersion}`);
	const transactions: CommittedWrite[][] = [];
	for (const line of lines.slice(1)) {
		const writes = parseJsonlTransaction(line);
		const head = writes[0];
		const tail = writes.at(-1);
		if (stopBeforeSeq !== undefined && head && tail) {
			if (head.seq >= stopBeforeSeq) break;
			if (tail.seq >= stopBeforeSeq)
				throw new Error(`JSONL transaction crosses fork sequence boundary ${stopBeforeSeq}`);
		}
		transactions.push(writes);
	}
	return { header, transactions };
}

class SourceIndex {
	readonly currentSeq = new Map<string, number>();
	readonly firstListSeq = new Map<string, number>();
	readonly parents = new Map<string, string | null>();
	readonly tips = new Map<string, string | null>();
	readonly configs = new Set<string>();
	readonly states = new Set<string>();
	readonly selected = new Set<string>();

	apply(write: CommittedWrite): void {
		if (write.kind === "entry") this.parents.set(write.id, write.parentId);
		else if (write.kind === "value") {
			const key = slot(write.namespace, write.key);
			const present = write.op === "set";
			if (present) this.currentSeq.set(key, write.seq);
			else this.currentSeq.delete(key);
			if (write.namespace === "pi.branch.tip") {
				if (write.op === "set") this.tips.set(write.key, write.value as string | null);
				else this.tips.delete(write.key);
			}
			const lanes =
				write.namespace === "pi.lane.config"
					? this.configs
					: write.namespace === "pi.lane.state"
						? this.states
						: undefined;
			if (lanes && present) lanes.add(write.key);
			else lanes?.delete(write.key);
		} else if (write.kind === "list") {
			const key = slot(write.namespace, write.key);
			if (write.op === "delete") this.firstListSeq.delete(key);
			else if (!this.firstListSeq.has(key)) this.firstListSeq.set(key, write.seq);
		}
	}
}

function project(
	write: CommittedWrite,
	index: SourceIndex,
	plan: ForkCurrentStatePlan,
	copied: (id: string) => boolean,
): CommittedWrite | undefined {
	switch (write.kind) {
		case "entry":
			return copied(write.id) ? write : undefined;
		case "usage":
			return undefined;
		case "value":
			if (write.op !== "set" || index.currentSeq.get(slot(write.namespace, write.key)) !== write.seq) return undefined;
			return projectForkCurrentStateWrite(write, plan, copied);
		case "list": {
			if (write.op !== "append") return undefined;
			const first = index.firstListSeq.get(slot(write.namespace, write.key));
			if (first === undefined || write.seq < first) return undefined;
			return projectForkCurrentStateWrite(write, plan, copied);
		}
	}
}

export interface JsonlForkRun {
	fileSystem: FileSystem;
	source: JsonlSessionMetadata;
	/** For a source open in this process: its next sequence number, taken in commit order. */
	openNextSeq?: number;
	destinationPath: string;
	destinationHeader: JsonlStorageHeader;
	fork: ForkOptions;
}

export async function runJsonlFork(run: JsonlForkRun, context: Context): Promise<void> {
	const { header, transactions } = await readSource(run.fileSystem, run.source, run.openNextSeq, context);
	const index = new SourceIndex();
	let highest = 0;
	for (const writes of transactions) {
		for (const write of writes) index.apply(write);
		const last = writes.at(-1);
		if (last) highest = last.seq;
	}
	const nextSeq = run.openNextSeq ?? Math.max(header.nextSeq ?? 1, highest + 1);
	let plan: ForkCurrentStatePlan = { scope: "tree" };
	if (run.fork.scope === "branch") {
		plan = selectBranchFork(run.fork, {
			tip: index.tips.get(run.fork.branch),
			getParent: (id) => index.parents.get(id),
			selectEntry: (id) => index.selected.add(id),
		});
		if (!index.configs.has(run.fork.branch) || !index.states.has(run.fork.branch))
			throw new Error(`Source branch ${JSON.stringify(run.fork.branch)} is not a configured AgentLane`);
	}
	const copied = (id: string) => plan.scope === "tree" || index.selected.has(id);
	await publishJsonl(
		run.fileSystem,
		run.destinationPath,
		{ ...run.destinationHeader, nextSeq },
		context,
		async (append) => {
			for (const writes of transactions) {
				for (const write of writes) {
					const projected = project(write, index, plan, copied);
					if (projected) await append([projected]);
				}
			}
		},
	);
}
