/**
 * Issue 23 item 2: settings.json and auth.json under concurrent writers, killed writers and lost locks. Every writer
 * is its own OS process: our SettingsStore (what the binary uses), pi's SettingsManager API (extensions and SDK
 * scripts; the synchronous lock path), AuthStorage, and the binary itself (`pi install <dir>` writes settings.json).
 * Short counts by default; PI_RELIABILITY_LONG=1 runs 2, 4, 8 and 16 processes × 100 updates and 200 kills.
 */
import { describe, expect, test } from "bun:test";
import { ensureBinary } from "../helpers/binary.ts";
import {
	concurrentWriters,
	killDuringWrite,
	lockLostWhileHeld,
	staleLockTakeover,
	type WriterKind,
} from "../support/settings-cases.ts";

const LONG = process.env.PI_RELIABILITY_LONG === "1";
const PROCESSES = LONG ? [2, 4, 8, 16] : [2, 4];
const UPDATES = LONG ? 100 : 25;
const KILLS = LONG ? 200 : 10;

describe("N processes × updates to different keys: nothing lost", () => {
	const kinds: WriterKind[] = ["ours-store", "ours-manager", "ours-auth", "binary"];
	for (const kind of kinds) {
		for (const processes of PROCESSES) {
			// The binary starts a process per update: keep its short run short.
			const updates = kind === "binary" && !LONG ? 10 : UPDATES;
			test(`${kind}: ${processes} processes × ${updates} updates`, async () => {
				const outcome = await concurrentWriters(kind, processes, updates, { bin: ensureBinary() });
				expect(outcome.errors).toBe("");
				expect(outcome.failed).toBe(0);
				expect(outcome.lost).toBe(0);
				// No lock directory, owner record or temp file is left behind.
				expect(outcome.leftovers).toEqual([]);
			}, 300_000);
		}
	}
});

describe("a lock left by a writer killed with SIGKILL", () => {
	for (const kind of ["settings", "auth"] as const) {
		test(`${kind}: taken over in under 1 s and the write lands`, async () => {
			const { ms, landed } = await staleLockTakeover(kind);
			expect(landed).toBe(true);
			expect(ms).toBeLessThan(1000);
		}, 30_000);
	}
});

describe("a lock taken away while held (auth.json during an OAuth refresh)", () => {
	test("lock directory removed and another key written meanwhile: the refresh is written again, both land", async () => {
		const outcome = await lockLostWhileHeld("removed", 1500);
		expect(outcome.stderr).toBe("");
		expect(outcome.code).toBe(0);
		// The refresh token was spent once; the redone write reused the tokens it got.
		expect(outcome.stdout).toContain("refreshes 1");
		expect(outcome.file.acme?.access).toBe("fresh-1");
		expect(outcome.file.other?.key).toBe("meanwhile");
	}, 30_000);

	test("lock mtime changed under the holder (clock jump, takeover): reported compromised, redone, no crash", async () => {
		// proper-lockfile checks the lock every stale/2 = 5 s; its default handler would throw from that timer.
		const outcome = await lockLostWhileHeld("mtime", 6000);
		expect(outcome.stderr).toBe("");
		expect(outcome.code).toBe(0);
		expect(outcome.stdout).toContain("refreshes 1");
		expect(outcome.file.acme?.access).toBe("fresh-1");
	}, 30_000);
});

describe("SIGKILL during a write of a 1 MB value leaves the old or the new file", () => {
	for (const kind of ["settings", "auth"] as const) {
		test(`${kind}: ${KILLS} kills, every file parses, the next write tidies the temp file`, async () => {
			const outcome = await killDuringWrite(kind, KILLS, 1_000_000);
			expect(outcome.torn).toBe(0);
			expect(outcome.temps).toBe(0);
		}, 600_000);
	}
});
