/**
 * Settings and credentials (issue 23 item 2): lost writes of N writer processes, stale-lock takeover after a
 * SIGKILL, a lock taken away while held, SIGKILL during a write, and an invalid file. pi 0.87.1 runs the same
 * writers through its own SettingsManager and AuthStorage under Node 22 (pi has no CLI that sets arbitrary
 * settings keys; its `pi install <dir>` writes settings.json and is timed like ours).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync } from "../../../test/helpers/binary.ts";
import { makeTempDir, removeTempDirs } from "../../../test/helpers/tmp.ts";
import {
	concurrentWriters,
	killDuringWrite,
	lockLostWhileHeld,
	staleLockTakeover,
	type WriterKind,
} from "../../../test/support/settings-cases.ts";
import type { RunnablePi } from "../../conformance-cache.ts";
import type { Figure, ReliabilityArea, ReliabilityContext } from "./types.ts";

/** A one-line executable that runs pi 0.87.1 under Node 22, usable wherever our binary's path is. */
export function piExecutable(pi: RunnablePi): string {
	const file = join(makeTempDir("pi-rel-bin-"), "pi-0.87.1");
	writeFileSync(file, `#!/bin/sh\nexec "${pi.node}" "${pi.cli}" "$@"\n`, { mode: 0o755 });
	return file;
}

const lostCell = (o: { lost: number; expected: number; failed: number }) =>
	`${o.lost} of ${o.expected}${o.failed > 0 ? ` (${o.failed} writers reported errors)` : ""}`;

async function writers(ctx: ReliabilityContext, figures: Figure[]): Promise<void> {
	const counts = ctx.long ? [2, 4, 8, 16] : [2, 4];
	const updates = ctx.long ? 100 : 25;
	const pairs: Array<[string, WriterKind, WriterKind | undefined]> = [
		["settings.json via SettingsStore (the binary's code; pi has none)", "ours-store", undefined],
		["settings.json via the SettingsManager API", "ours-manager", "pi-settings"],
		["auth.json via AuthStorage", "ours-auth", "pi-auth"],
	];
	for (const [label, ours, theirs] of pairs) {
		for (const n of counts) {
			ctx.log(`${label}: ${n} × ${updates}`);
			const mine = await concurrentWriters(ours, n, updates);
			const pis = ctx.pi && theirs ? await concurrentWriters(theirs, n, updates, { pi: ctx.pi }) : undefined;
			figures.push({
				figure: `lost writes, ${label}, ${n} processes × ${updates} keys`,
				ours: lostCell(mine),
				...(pis ? { pi: lostCell(pis) } : {}),
				note: `${Math.round(mine.ms)} ms${pis ? ` (pi ${Math.round(pis.ms)} ms)` : ""}`,
			});
		}
	}
	const piBin = ctx.pi ? piExecutable(ctx.pi) : undefined;
	for (const n of counts.slice(0, 2)) {
		ctx.log(`pi install: ${n} × 10`);
		const mine = await concurrentWriters("binary", n, 10, { bin: ctx.bin });
		const pis = piBin ? await concurrentWriters("binary", n, 10, { bin: piBin }) : undefined;
		figures.push({
			figure: `lost writes, \`pi install <dir>\` (one process per install), ${n} at once × 10`,
			ours: lostCell(mine),
			...(pis ? { pi: lostCell(pis) } : {}),
			note: `${Math.round(mine.ms)} ms${pis ? ` (pi ${Math.round(pis.ms)} ms)` : ""}`,
		});
	}
}

/** pi's settings writer after our holder was killed: its lock waits 200 ms, then the write fails. */
async function piStaleTakeover(pi: RunnablePi): Promise<string> {
	const agentDir = makeTempDir("pi-rel-agent-");
	const file = join(agentDir, "settings.json");
	writeFileSync(file, "{}");
	const writer = join(import.meta.dir, "..", "..", "..", "test", "support", "settings-writer.ts");
	const holder = Bun.spawn([process.execPath, writer, "hold", file], { stdout: "pipe", stderr: "ignore" });
	const reader = holder.stdout.getReader();
	let said = "";
	while (!said.includes("locked")) {
		const { value, done } = await reader.read();
		if (done) throw new Error("the lock holder ended before taking the lock");
		said += new TextDecoder().decode(value);
	}
	holder.kill("SIGKILL");
	await holder.exited;
	const piWriter = join(import.meta.dir, "..", "..", "..", "test", "support", "pi-settings-writer.mjs");
	const started = performance.now();
	const child = Bun.spawn([pi.node, piWriter, pi.modules, "write", agentDir, agentDir, "k", "1"], {
		stdout: "ignore",
		stderr: "pipe",
	});
	const stderr = await new Response(child.stderr).text();
	await child.exited;
	const ms = Math.round(performance.now() - started);
	const landed = "k0" in JSON.parse(readFileSync(file, "utf8"));
	return landed ? `${ms} ms` : `not taken over: write lost after ${ms} ms (${stderr.trim().split("\n")[0]})`;
}

async function locks(ctx: ReliabilityContext, figures: Figure[]): Promise<void> {
	for (const kind of ["settings", "auth"] as const) {
		ctx.log(`stale lock takeover: ${kind}`);
		const runs = ctx.long ? 10 : 3;
		const times: number[] = [];
		for (let i = 0; i < runs; i++) times.push((await staleLockTakeover(kind)).ms);
		figures.push({
			figure: `stale lock of a SIGKILLed writer taken over (${kind === "auth" ? "auth.json" : "settings.json"})`,
			ours: `${Math.round(Math.max(...times))} ms`,
			...(kind === "settings" && ctx.pi ? { pi: await piStaleTakeover(ctx.pi) } : {}),
			note:
				kind === "auth"
					? `worst of ${runs}, including the write; pi's auth lock goes stale after 30 s (not run)`
					: `worst of ${runs}, including the write`,
		});
	}
	ctx.log("lock taken away while held");
	const removed = await lockLostWhileHeld("removed", 1500);
	const mtime = await lockLostWhileHeld("mtime", 6000);
	const outcome = (o: Awaited<ReturnType<typeof lockLostWhileHeld>>) =>
		o.code !== 0
			? `exit ${o.code}: ${o.stderr.trim().split("\n")[0]}`
			: o.file.acme?.access === "fresh-1" && o.stdout.includes("refreshes 1")
				? "redone from a fresh read, landed, no crash"
				: `landed wrong: ${JSON.stringify(o.file)}`;
	figures.push({
		figure: "auth.json lock dir removed during an OAuth refresh",
		ours: outcome(removed),
		note: removed.file.other ? "the key written meanwhile kept" : "the key written meanwhile LOST",
	});
	figures.push({
		figure: "auth.json lock mtime changed during a refresh (onCompromised)",
		ours: outcome(mtime),
		note: "proper-lockfile's default handler throws from a timer; not run on pi",
	});
}

async function kills(ctx: ReliabilityContext, figures: Figure[]): Promise<void> {
	const count = ctx.long ? 200 : 20;
	for (const kind of ["settings", "auth"] as const) {
		ctx.log(`SIGKILL during writes: ${kind} × ${count}`);
		const mine = await killDuringWrite(kind, count, 1_000_000);
		const pis = ctx.pi && kind === "settings" ? await killDuringWrite(kind, count, 1_000_000, ctx.pi) : undefined;
		figures.push({
			figure: `SIGKILL during a 1 MB ${kind === "auth" ? "auth.json" : "settings.json"} write: files left torn`,
			ours: `${mine.torn} of ${mine.kills}`,
			...(pis ? { pi: `${pis.torn} of ${pis.kills}` } : {}),
			note:
				kind === "auth"
					? `temp files left: ${mine.temps}; pi's auth lock waits 30 s after each kill (not run)`
					: `temp files left: ${mine.temps}${pis ? ` (pi ${pis.temps})` : ""}`,
		});
	}
}

/** `pi -p` and `pi install` with a settings.json holding a syntax error: what is said, and the bytes after. */
async function invalid(ctx: ReliabilityContext, figures: Figure[]): Promise<void> {
	const broken = '{\n  "theme": "dark",\n    ,\n  "quietStartup": true\n}\n';
	const run = async (bin: string) => {
		const home = makeTempDir("pi-rel-home-");
		const agent = join(home, ".pi", "agent");
		mkdirSync(agent, { recursive: true });
		writeFileSync(join(agent, "settings.json"), broken);
		const pkg = makeTempDir("pi-rel-pkg-");
		writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "p", version: "1.0.0" }));
		const print = await runPiAsync(["-p", "hi"], { home, binary: bin });
		const install = await runPiAsync(["install", pkg], { home, binary: bin });
		const named = [print.stderr, install.stderr].every((e) => /line 3,? column 5/.test(e));
		const same = readFileSync(join(agent, "settings.json"), "utf8") === broken;
		return `${named ? "line and column named" : "position missing"}, ${same ? "bytes unchanged" : "FILE CHANGED"}`;
	};
	ctx.log("invalid settings.json");
	figures.push({
		figure: "settings.json with a syntax error, after `pi -p` and `pi install`",
		ours: await run(ctx.bin),
		...(ctx.pi ? { pi: await run(piExecutable(ctx.pi)) } : {}),
	});
}

export const settingsArea: ReliabilityArea = {
	name: "settings",
	async run(ctx) {
		const figures: Figure[] = [];
		try {
			await writers(ctx, figures);
			await locks(ctx, figures);
			await kills(ctx, figures);
			await invalid(ctx, figures);
		} finally {
			removeTempDirs();
		}
		return figures;
	},
};
