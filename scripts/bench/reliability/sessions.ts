/**
 * Sessions area of the reliability bench: kill -9 during a tool run (kills, acknowledged entries lost, unparseable
 * lines after kills and after resume), a torn last record (every offset at the session layer; a spread of offsets
 * through each CLI), a full disk (what the user is told, what is left in the file), and peak RSS opening a large
 * session, and another program changing the file between turns. The kill, torn-through-the-CLI, disk-full, foreign
 * change and RSS cases run on pi 0.87.1 too.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeMockModels } from "../../../test/helpers/binary.ts";
import { makeTempDir } from "../../../test/helpers/tmp.ts";
import { loaderPeak, rpcOpenPeak, writeBigSession } from "../../../test/reliability/big-session.ts";
import { diskFullCase, mountTmpfs, unmount } from "../../../test/reliability/disk-full.ts";
import { type ForeignChange, foreignChangeCase } from "../../../test/reliability/foreign-change.ts";
import { killLoop } from "../../../test/reliability/session-kill.ts";
import { sessionWithLastRecord, tornAt } from "../../../test/reliability/torn.ts";
import { startMockLlm } from "../../../test/support/mock-llm/index.ts";
import type { Figure, ReliabilityArea, ReliabilityContext } from "./types.ts";

const MiB = 1024 * 1024;

/** Cuts the last record at each of `cuts` and runs `-p` on it: offsets after which every line parses. */
async function tornThroughCli(argv: string[], cuts: number[]): Promise<{ recovered: number; of: number }> {
	const s = sessionWithLastRecord(300);
	const server = startMockLlm();
	const home = makeTempDir("pi-rel-home-");
	writeMockModels(home, server.url);
	let recovered = 0;
	try {
		for (const cut of cuts) {
			const file = join(makeTempDir("pi-rel-torn-"), "s.jsonl");
			writeFileSync(file, s.bytes.subarray(0, s.lastStart + cut));
			server.push({ kind: "reply", text: "answer" });
			const run = Bun.spawn([...argv, "--session", file, "--model", "mock/mock-1", "-p", "go on"], {
				cwd: home,
				env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") },
				stdout: "pipe",
				stderr: "pipe",
			});
			const [stdout, code] = await Promise.all([new Response(run.stdout).text(), run.exited]);
			const text = readFileSync(file, "utf8");
			let ok = code === 0 && stdout.includes("answer") && text.endsWith("\n");
			const ids = new Set<string>();
			for (const line of text.split("\n").slice(0, -1)) {
				try {
					ids.add(JSON.parse(line).id);
				} catch {
					ok = false;
				}
			}
			if (ok && s.ids.slice(0, 3).every((id) => ids.has(id))) recovered++;
		}
	} finally {
		server.stop();
	}
	return { recovered, of: cuts.length };
}

/**
 * Another program appends to, rewrites in place, saves over or deletes the session between two RPC turns: whether
 * the user is told, whether the second turn is written into the other program's file anyway, and whether the file
 * at the path is left without a session header.
 */
async function foreignChanges(bin: string, piArgv: string[] | undefined): Promise<Figure[]> {
	const changes: ForeignChange[] = ["append", "rewrite", "rename", "delete"];
	const server = startMockLlm();
	const tally = async (argv: string[]) => {
		let told = 0;
		let written = 0;
		let headerless = 0;
		for (const change of changes) {
			const r = await foreignChangeCase(server, change, argv);
			if (r.notices.length > 0 || r.stderrLines.length > 0) told++;
			if (r.savedAtPath) written++;
			if (r.hasHeader === false) headerless++;
		}
		return { told, written, headerless };
	};
	try {
		const ours = await tally([bin]);
		const pi = piArgv ? await tally(piArgv).catch(() => undefined) : undefined;
		const of = (n: number) => `${n}/${changes.length}`;
		const note = changes.join(", ");
		return [
			{ figure: "another program changed the session: user told", ours: of(ours.told), pi: pi && of(pi.told), note },
			{
				figure: "another program changed the session: next turn written into its file",
				ours: of(ours.written),
				pi: pi && of(pi.written),
			},
			{
				figure: "another program changed the session: file left without a header",
				ours: ours.headerless,
				pi: pi?.headerless,
			},
		];
	} finally {
		server.stop();
	}
}

async function run(ctx: ReliabilityContext): Promise<Figure[]> {
	const figures: Figure[] = [];
	const kills = ctx.long ? 1000 : 24;
	const piArgv = ctx.pi ? [ctx.pi.node, ctx.pi.cli] : undefined;

	ctx.log(`kill -9 loop, ${kills} kills …`);
	const ours = await killLoop({ argv: [ctx.bin], kills, log: ctx.log });
	const pi = piArgv ? await killLoop({ argv: piArgv, kills, log: ctx.log }).catch((e: Error) => e) : undefined;
	const piOf = (pick: (r: Awaited<ReturnType<typeof killLoop>>) => number | string) =>
		pi === undefined ? undefined : pi instanceof Error ? `failed: ${pi.message.slice(0, 60)}` : pick(pi);
	figures.push(
		{
			figure: "kill -9 during a tool run: kills",
			ours: ours.kills,
			pi: piOf((r) => r.kills),
			note: "300 B / 64 KiB / 1 MiB entries",
		},
		{ figure: "kill -9: kills that left a torn last line", ours: ours.tornByKill, pi: piOf((r) => r.tornByKill) },
		{
			figure: "kill -9: acknowledged entries lost",
			ours: ours.lost,
			pi: piOf((r) => r.lost),
			note: `of ${ours.acknowledged} (pi: ${pi && !(pi instanceof Error) ? pi.acknowledged : "—"}) message_end events read`,
		},
		{
			figure: "kill -9: unparseable complete lines after the kills",
			ours: ours.unparseableAfterKill,
			pi: piOf((r) => r.unparseableAfterKill),
		},
		{
			figure: "kill -9: unparseable lines after resume + one turn",
			ours: ours.unparseableAfterResume,
			pi: piOf((r) => r.unparseableAfterResume),
		},
	);

	ctx.log("torn last record …");
	const s = sessionWithLastRecord(300);
	const length = s.bytes.length - s.lastStart;
	const dir = makeTempDir("pi-rel-torn-");
	let recovered = 0;
	for (let cut = 0; cut <= length; cut++) if (tornAt(dir, s, cut) === undefined) recovered++;
	figures.push({
		figure: "torn last record: offsets recovered (session layer)",
		ours: `${recovered}/${length + 1}`,
		note: "every byte offset",
	});
	const cuts = [1, 2, 10, 37, 64, 100, 150, 200, 300, 400, 500, 600, length - 3, length - 2];
	const cli = await tornThroughCli([ctx.bin], cuts);
	const piCli = piArgv ? await tornThroughCli(piArgv, cuts) : undefined;
	figures.push({
		figure: "torn last record through -p: offsets after which every line parses",
		ours: `${cli.recovered}/${cli.of}`,
		pi: piCli ? `${piCli.recovered}/${piCli.of}` : undefined,
	});

	ctx.log("full disk …");
	const mounted = mountTmpfs();
	if ("skip" in mounted) {
		figures.push({ figure: "full disk (tmpfs)", ours: "skipped", note: mounted.skip });
	} else {
		try {
			const r = await diskFullCase([ctx.bin], mounted.mount);
			let p: Awaited<ReturnType<typeof diskFullCase>> | undefined;
			if (piArgv) {
				unmount(mounted.mount);
				const again = mountTmpfs();
				if (!("skip" in again)) {
					mounted.mount = again.mount;
					p = await diskFullCase(piArgv, again.mount).catch(() => undefined);
				}
			}
			figures.push(
				{
					figure: "full disk: RPC save-failure events / stderr lines",
					ours: `${r.notices.length} / ${r.rpcStderr.length}`,
					pi: p && `${p.notices.length} / ${p.rpcStderr.length}`,
				},
				{
					figure: "full disk: print-mode stderr lines naming it",
					ours: r.printStderr.length,
					pi: p?.printStderr.length,
				},
				{ figure: "full disk: unparseable lines left", ours: r.unparseable, pi: p?.unparseable },
			);
		} finally {
			unmount(mounted.mount);
		}
	}

	ctx.log("another program changes the session …");
	figures.push(...(await foreignChanges(ctx.bin, piArgv)));

	ctx.log("large session …");
	const size = ctx.long ? 1024 * MiB : 64 * MiB;
	const big = makeTempDir("pi-rel-big-");
	writeBigSession(join(big, "small.jsonl"), 64 * 1024, 64 * 1024);
	const info = writeBigSession(join(big, "big.jsonl"), size, 8 * MiB);
	const loader = loaderPeak(join(big, "big.jsonl")) - loaderPeak(join(big, "small.jsonl"));
	const home = makeTempDir("pi-rel-home-");
	writeMockModels(home, "http://127.0.0.1:9");
	/** Extra peak RSS over the small session, and the same less the growth of file-backed (executable) pages. */
	const peak = async (argv: string[]) => {
		const small = await rpcOpenPeak(argv, join(big, "small.jsonl"), home);
		const large = await rpcOpenPeak(argv, join(big, "big.jsonl"), home);
		const total = large.peak - small.peak;
		return { total, owned: total - (large.file - small.file) };
	};
	const bin = await peak([ctx.bin]);
	const piPeak = piArgv ? await peak(piArgv).catch(() => undefined) : undefined;
	const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
	figures.push(
		{
			figure: "large session: session layer extra RSS to open",
			ours: mib(loader),
			note: `largest entry ${mib(info.largest)}, file ${mib(info.size)}`,
		},
		{
			figure: "large session: binary extra peak RSS, RPC get_state",
			ours: mib(bin.total),
			pi: piPeak === undefined ? undefined : mib(piPeak.total),
			note: "over a 64 KiB session; large contents stay on disk",
		},
		{
			figure: "large session: the same, less file-backed pages",
			ours: mib(bin.owned),
			pi: piPeak === undefined ? undefined : mib(piPeak.owned),
			note: `bound: 2x the largest entry, ${mib(2 * info.largest)}`,
		},
	);
	return figures;
}

export const sessions: ReliabilityArea = { name: "sessions", run };
