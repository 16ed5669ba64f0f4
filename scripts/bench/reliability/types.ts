/**
 * The contract between `scripts/bench/reliability.ts` and its areas: each area (sessions, settings, tools, …) runs
 * its fault cases on our compiled binary and, where the same case runs on pi 0.87.1, on pi too, and returns one
 * figure per line of the report.
 */
import type { RunnablePi } from "../../conformance-cache.ts";

export interface ReliabilityContext {
	/** Our compiled binary (`dist/pi`). */
	readonly bin: string;
	/** pi 0.87.1 under Node 22 from the conformance cache, or null when it could not be fetched. */
	readonly pi: RunnablePi | null;
	/** The long versions (1,000 kills, 10,000 turns …) instead of the short ones CI runs. */
	readonly long: boolean;
	/** A progress line on stderr (the report itself goes to stdout). */
	log(line: string): void;
}

export interface Figure {
	/** What was counted or timed, e.g. "kill -9 during a tool run: acknowledged entries lost". */
	readonly figure: string;
	readonly ours: string | number;
	/** The same case on pi 0.87.1; undefined when it does not run on pi (the note says why). */
	readonly pi?: string | number;
	/** Units or a short remark, e.g. "ms", "of 1,000 kills", "pi has no such lock". */
	readonly note?: string;
}

export interface ReliabilityArea {
	readonly name: string;
	run(ctx: ReliabilityContext): Promise<Figure[]>;
}
