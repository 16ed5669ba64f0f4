/**
 * kill -9 at random moments of a multi-turn tool run through the compiled binary (see `session-kill.ts` for what
 * "acknowledged" means and what is checked after each kill). 24 kills by default, 1,000 with
 * PI_RELIABILITY_LONG=1; PI_RELIABILITY_SEED repeats a run.
 */
import { expect, test } from "bun:test";
import { ensureBinary } from "../helpers/binary.ts";
import { killLoop } from "./session-kill.ts";

const LONG = process.env.PI_RELIABILITY_LONG === "1";
const KILLS = LONG ? 1000 : 24;

test(
	`kill -9 during a tool run, ${KILLS} times: no acknowledged entry lost, the file always opens, every line parses after resume`,
	async () => {
		const result = await killLoop({ argv: [ensureBinary()], kills: KILLS });
		console.log(
			`kill -9 loop: ${result.kills} kills (${result.tornByKill} left a torn line), ${result.acknowledged} acknowledged messages, ${result.lost} lost, ` +
				`${result.unparseableAfterKill} unparseable complete lines, ${result.unparseableAfterResume} after resume`,
		);
		expect(result.problems).toEqual([]);
		expect(result.lost).toBe(0);
		expect(result.unparseableAfterKill).toBe(0);
		expect(result.unparseableAfterResume).toBe(0);
		expect(result.orphans).toBe(0);
		expect(result.resumedOk).toBe(true);
		expect(result.acknowledged).toBeGreaterThan(0);
	},
	LONG ? 3_600_000 : 90_000,
);
