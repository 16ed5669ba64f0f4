/**
 * A large session (64 MiB by default, 1 GiB with PI_RELIABILITY_LONG=1) with 256 KiB tool outputs and 8 MiB
 * images. The session layer loads it by streaming (lines walked through a bounded buffer, message lines only
 * indexed): its extra peak RSS stays below twice the largest entry. The binary opening it in RPC mode answers
 * `get_state`; its figure is printed (it holds the branch's messages as the agent's context).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { ensureBinary, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { loaderPeak, rpcOpenPeak, writeBigSession } from "./big-session.ts";

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
		console.log(
			`${mib(big.size)} session, largest entry ${mib(big.largest)} (small: ${small.size} B): session layer +${mib(loader - loaderBase)}; ` +
				`binary get_state in ${bin.ms.toFixed(0)} ms, peak ${mib(bin.peak)} (+${mib(bin.peak - binBase.peak)})`,
		);
		expect(loader - loaderBase).toBeLessThan(2 * big.largest);
		expect(bin.peak - binBase.peak).toBeLessThan(2 * big.size + 2 * big.largest);
	},
	LONG ? 600_000 : 60_000,
);
