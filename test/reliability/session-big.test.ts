/**
 * A large session (64 MiB by default, 1 GiB with PI_RELIABILITY_LONG=1) with 256 KiB tool outputs and 8 MiB
 * images. The session layer loads it by streaming (lines walked through a bounded buffer, message lines only
 * indexed): its extra peak RSS stays below twice the largest entry. The binary opening it in RPC mode and
 * answering `get_state` (its branch's messages are the agent's context, their large contents left on disk) stays
 * below twice the largest entry too. The binary's figure counts the memory the process owns: peak RSS less the
 * growth of file-backed pages, which are the executable's own code paged in by the longer run (shared, clean, and
 * not the session's); both parts are printed. The interactive mode resuming it draws the transcript (collapsed
 * tool results read nothing of their output): next to the same turns with tiny outputs, within the same bound
 * (drawing a turn costs the same whatever its output's size).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { ensureBinary, writeMockModels } from "../helpers/binary.ts";
import { startOurs } from "../helpers/pty-app.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { loaderPeak, rpcOpenPeak, statusField, writeBigSession } from "./big-session.ts";

const LONG = process.env.PI_RELIABILITY_LONG === "1";
const MiB = 1024 * 1024;
const SIZE = LONG ? 1024 * MiB : 64 * MiB;
const LARGEST = 8 * MiB;

test(
	`a ${SIZE / MiB} MiB session opens by streaming: extra memory below 2x its largest entry`,
	async () => {
		if (process.platform !== "linux") {
			console.log("skipped: peak RSS is read from /proc (Linux only)");
			return;
		}
		const dir = makeTempDir("pi-rel-big-");
		const small = writeBigSession(join(dir, "small.jsonl"), 64 * 1024, 64 * 1024);
		const big = writeBigSession(join(dir, "big.jsonl"), SIZE, LARGEST);
		const loaderBase = loaderPeak(join(dir, "small.jsonl"));
		const loader = loaderPeak(join(dir, "big.jsonl"));
		const home = makeTempDir("pi-rel-home-");
		writeMockModels(home, "http://127.0.0.1:9");
		const binBase = await rpcOpenPeak([ensureBinary()], join(dir, "small.jsonl"), home);
		const bin = await rpcOpenPeak([ensureBinary()], join(dir, "big.jsonl"), home);
		const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
		const codePages = bin.file - binBase.file;
		const owned = bin.peak - binBase.peak - codePages;
		console.log(
			`${mib(big.size)} session, largest entry ${mib(big.largest)} (small: ${small.size} B): session layer +${mib(loader - loaderBase)}; ` +
				`binary get_state in ${bin.ms.toFixed(0)} ms, peak ${mib(bin.peak)} (+${mib(bin.peak - binBase.peak)}: ` +
				`+${mib(owned)} owned, +${mib(codePages)} executable pages)`,
		);
		expect(loader - loaderBase).toBeLessThan(2 * big.largest);
		expect(owned).toBeLessThan(2 * big.largest);
	},
	LONG ? 600_000 : 60_000,
);

/** The interactive mode resuming `file` (`--session`) until its transcript is drawn: peak RSS and file-backed RSS. */
async function tuiOpenPeak(file: string): Promise<{ peak: number; file: number; screen: string[] }> {
	const app = await startOurs({ args: ["--session", file] });
	try {
		const screen = await app.waitFor(/↑\d+ ↓\d+/, 60_000);
		// Start-up goes on after the first frame (resources, highlighter): both runs are read once it settled.
		await Bun.sleep(1500);
		return { peak: statusField(app.pid, "VmHWM"), file: statusField(app.pid, "RssFile"), screen };
	} finally {
		await app.close();
	}
}

test(
	`the interactive mode resumes a ${SIZE / MiB} MiB session with extra memory below 2x its largest entry`,
	async () => {
		if (process.platform !== "linux") {
			console.log("skipped: peak RSS is read from /proc (Linux only)");
			return;
		}
		const dir = makeTempDir("pi-rel-big-tui-");
		const big = writeBigSession(join(dir, "big.jsonl"), SIZE, LARGEST);
		// The same turns with 100-byte outputs: what drawing that many turns costs, whatever their size.
		const same = writeBigSession(join(dir, "same.jsonl"), 0, 1024, { turns: big.turns, text: 100 });
		const base = await tuiOpenPeak(join(dir, "same.jsonl"));
		const open = await tuiOpenPeak(join(dir, "big.jsonl"));
		expect(open.screen.join("\n")).toContain(`turn ${big.turns - 1}`);
		expect(open.screen.join("\n")).toContain(`↑${big.turns} ↓${big.turns}`);
		const codePages = open.file - base.file;
		const owned = open.peak - base.peak - codePages;
		const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
		console.log(
			`interactive: ${mib(big.size)} session (${big.turns} turns) drawn, peak ${mib(open.peak)}; the same turns with ` +
				`${same.size} B of outputs: ${mib(base.peak)}; the outputs' share: +${mib(owned)} owned, +${mib(codePages)} executable pages`,
		);
		expect(owned).toBeLessThan(2 * big.largest);
	},
	LONG ? 600_000 : 60_000,
);
