/**
 * The soak run (issue 23 item 8): one binary in RPC mode, one turn after another, each a tool call (bash `echo` or
 * `read`) and an answer, with RPC compactions in between. What a user would notice after a day of work: descriptors
 * and threads stay where they were, the process answers as fast as at the start, it exits at once when its input
 * ends, and the session file opens in a new process with the context the first one had. Memory: RSS grows no more
 * than the session tree itself does (measured by the reopened process) times the GC heap's headroom, plus 1 KiB a
 * turn; judged on the long run only (300 turns are still warm-up). Default: 300 turns, 3 compactions;
 * PI_RELIABILITY_LONG=1: 10,000 turns, 20 compactions, RSS printed every 1,000 turns.
 */
import { expect, test } from "bun:test";
import { ensureBinary } from "../helpers/binary.ts";
import { judgeSoak, runSoak } from "./soak.ts";

const LONG = process.env.PI_RELIABILITY_LONG === "1";
const TURNS = LONG ? 10_000 : 300;
const COMPACTIONS = LONG ? 20 : 3;

test(
	`${TURNS} turns with tool calls and ${COMPACTIONS} compactions in one process`,
	async () => {
		const result = await runSoak({
			command: [ensureBinary()],
			turns: TURNS,
			compactions: COMPACTIONS,
			sampleEvery: LONG ? 100 : 25,
			warmupTurns: LONG ? 2_000 : 100,
			log: (line) => {
				if (!LONG || /^turn \d+000:/.test(line)) console.error(line);
			},
		});
		const verdict = judgeSoak(result, LONG);
		console.error(
			`soak: ${result.turns} turns, ${result.compactions} compactions, ${result.msPerTurn.toFixed(1)} ms/turn; ` +
				`RSS slope ${result.slopeKiBPerTurn.toFixed(2)} KiB/turn (allowed ${verdict.allowanceKiBPerTurn.toFixed(2)}: ` +
				`session ${result.sessionKiBPerTurn.toFixed(2)} KiB/turn in memory, ${result.sessionBytesPerTurn.toFixed(0)} B/turn on disk); ` +
				`fds ${verdict.fdsStart} → ${verdict.fdsEnd}, threads ${verdict.threadsStart} → ${verdict.threadsEnd}; ` +
				`CPU per turn ${result.firstTenth.cpu.toFixed(1)} → ${result.lastTenth.cpu.toFixed(1)} ms; ` +
				`exit after EOF ${result.exitMs?.toFixed(0)} ms; reopen equal: ${result.reopenEqual}`,
		);
		expect(verdict.failures).toEqual([]);
		expect(result.compactions).toBe(COMPACTIONS);
		expect(result.messagesAfterCompaction).toBeGreaterThan(0);
	},
	LONG ? 3_600_000 : 120_000,
);
