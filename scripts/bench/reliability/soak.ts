/**
 * The soak run (issue 23 item 8) as bench figures: one RPC process, turns with a tool call each and RPC
 * compactions, against the mock. Ours: 10,000 turns and 20 compactions with --long (300 and 3 without); pi 0.87.1
 * the same shape, shorter (1,000 turns and 4 compactions with --long, 300 and 3 without). Besides the whole-run
 * figures, our RSS slope over pi's window (the same turns after the same warm-up) stands next to pi's.
 */
import { judgeSoak, runSoak, type SoakResult, windowSlope } from "../../../test/reliability/soak.ts";
import type { Figure, ReliabilityArea, ReliabilityContext } from "./types.ts";

interface Shape {
	turns: number;
	compactions: number;
	sampleEvery: number;
	warmupTurns: number;
	/** RSS rows every this many turns. */
	reportEvery: number;
}

const OURS_LONG: Shape = { turns: 10_000, compactions: 20, sampleEvery: 100, warmupTurns: 2_000, reportEvery: 1_000 };
const PI_LONG: Shape = { turns: 1_000, compactions: 4, sampleEvery: 50, warmupTurns: 200, reportEvery: 100 };
const SHORT: Shape = { turns: 300, compactions: 3, sampleEvery: 25, warmupTurns: 100, reportEvery: 100 };

const kib = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : "—");
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "—");
const mib = (kiB: number | undefined) => (kiB === undefined ? undefined : (kiB / 1024).toFixed(1));

async function run(ctx: ReliabilityContext, who: string, command: string[], shape: Shape): Promise<SoakResult> {
	ctx.log(`${who}: ${shape.turns} turns, ${shape.compactions} compactions`);
	return runSoak({
		command,
		...shape,
		log: (line) => {
			const turn = Number(/^turn (\d+):/.exec(line)?.[1]);
			if (turn % shape.reportEvery === 0) ctx.log(`${who} ${line}`);
		},
	});
}

function rssAt(r: SoakResult | undefined, turn: number): string | undefined {
	return mib(r?.samples.find((s) => s.turn === turn)?.rssKiB);
}

export const soakArea: ReliabilityArea = {
	name: "soak",
	async run(ctx) {
		const oursShape = ctx.long ? OURS_LONG : SHORT;
		const piShape = ctx.long ? PI_LONG : SHORT;
		const ours = await run(ctx, "ours", [ctx.bin], oursShape);
		const pi = ctx.pi ? await run(ctx, "pi", [ctx.pi.node, ctx.pi.cli], piShape) : undefined;
		const oursVerdict = judgeSoak(ours, ctx.long);
		// pi's run is too short for its memory to be judged: V8 is still sizing its heap over the first 1,000 turns.
		const piVerdict = pi ? judgeSoak(pi, false) : undefined;
		const figures: Figure[] = [
			{ figure: "turns (each a tool call and an answer)", ours: ours.turns, pi: pi?.turns },
			{ figure: "compactions (RPC compact)", ours: ours.compactions, pi: pi?.compactions },
		];
		const rows = new Set<number>();
		for (const r of [ours, pi]) {
			for (const s of r?.samples ?? []) {
				if (s.turn === 0 || s.turn % (r === ours ? oursShape : piShape).reportEvery === 0) rows.add(s.turn);
			}
		}
		for (const turn of [...rows].sort((a, b) => a - b)) {
			figures.push({ figure: `RSS at turn ${turn}`, ours: rssAt(ours, turn) ?? "—", pi: rssAt(pi, turn), note: "MiB" });
		}
		figures.push(
			{
				figure: `RSS slope after warm-up (ours from turn ${oursShape.warmupTurns}, pi from ${piShape.warmupTurns})`,
				ours: kib(ours.slopeKiBPerTurn),
				pi: pi ? kib(pi.slopeKiBPerTurn) : undefined,
				note: "KiB/turn, least squares over all samples",
			},
			{
				figure: `RSS slope over pi's window (turns ${piShape.warmupTurns}–${piShape.turns})`,
				ours: kib(windowSlope(ours.samples, piShape.warmupTurns, piShape.turns)),
				pi: pi ? kib(pi.slopeKiBPerTurn) : undefined,
				note: "KiB/turn",
			},
			{
				figure: "session tree in memory (reopened full − reopened after turn 1)",
				ours: kib(ours.sessionKiBPerTurn),
				pi: pi ? kib(pi.sessionKiBPerTurn) : undefined,
				note: `KiB/turn; on disk ${ours.sessionBytesPerTurn.toFixed(0)} B/turn`,
			},
			{
				figure: "RSS slope allowed (4 × session tree + 1 KiB)",
				ours: kib(oursVerdict.allowanceKiBPerTurn),
				pi: piVerdict ? kib(piVerdict.allowanceKiBPerTurn) : undefined,
				note: ctx.long ? "KiB/turn" : "KiB/turn; judged on --long only (short runs are warm-up)",
			},
			{
				figure: "open fds (first sample → end)",
				ours: `${oursVerdict.fdsStart} → ${oursVerdict.fdsEnd}`,
				pi: piVerdict ? `${piVerdict.fdsStart} → ${piVerdict.fdsEnd}` : undefined,
			},
			{
				figure: "threads (first sample → end)",
				ours: `${oursVerdict.threadsStart} → ${oursVerdict.threadsEnd}`,
				pi: piVerdict ? `${piVerdict.threadsStart} → ${piVerdict.threadsEnd}` : undefined,
			},
			{
				figure: "wall ms per turn (whole run / first tenth / last tenth)",
				ours: `${ours.msPerTurn.toFixed(1)} / ${ms(ours.firstTenth.wall)} / ${ms(ours.lastTenth.wall)}`,
				pi: pi ? `${pi.msPerTurn.toFixed(1)} / ${ms(pi.firstTenth.wall)} / ${ms(pi.lastTenth.wall)}` : undefined,
				note: "ms; depends on the machine's load",
			},
			{
				figure: "CPU ms per turn (first tenth / last tenth)",
				ours: `${ms(ours.firstTenth.cpu)} / ${ms(ours.lastTenth.cpu)}`,
				pi: pi ? `${ms(pi.firstTenth.cpu)} / ${ms(pi.lastTenth.cpu)}` : undefined,
				note: "ms of user + system time of the pi process",
			},
			{
				figure: "exit after stdin EOF",
				ours: ours.exitMs?.toFixed(0) ?? "killed",
				pi: pi ? (pi.exitMs?.toFixed(0) ?? "killed") : undefined,
				note: "ms",
			},
			{
				figure: "session reopens (--session) with the same get_messages",
				ours: ours.reopenEqual ? "yes" : "no",
				pi: pi ? (pi.reopenEqual ? "yes" : "no") : undefined,
				note: `${ours.messagesAfterCompaction} messages after the last compaction`,
			},
			{
				figure: "verdict",
				ours: oursVerdict.failures.length === 0 ? "pass" : oursVerdict.failures.join("; "),
				pi: piVerdict ? (piVerdict.failures.length === 0 ? "pass" : piVerdict.failures.join("; ")) : undefined,
				note: "pi's memory not judged (its run is V8's warm-up)",
			},
		);
		return figures;
	},
};
