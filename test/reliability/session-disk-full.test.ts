/**
 * A session on a real, full disk (a 1 MiB tmpfs, mounted when this process may; skipped with the reason otherwise):
 * the RPC client gets one `session_save_failed` saying "disk full", print mode one stderr line, the runs go on,
 * and the file holds only whole lines. See `disk-full.ts` for the steps.
 */
import { expect, test } from "bun:test";
import { ensureBinary } from "../helpers/binary.ts";
import { diskFullCase, mountTmpfs, unmount } from "./disk-full.ts";

test("a full disk: one session_save_failed saying disk full, one print-mode line, only whole lines in the file", async () => {
	const mounted = mountTmpfs();
	if ("skip" in mounted) {
		console.log(`skipped: ${mounted.skip}`);
		return;
	}
	try {
		const r = await diskFullCase([ensureBinary()], mounted.mount);
		const line = `Session not saved from here on: could not write ${r.file}: disk full (ENOSPC)`;
		expect(r.notices).toHaveLength(1);
		expect(r.notices[0]).toMatchObject({ reason: "write_error", sessionFile: r.file, message: line });
		expect(r.rpcStderr).toEqual([line]);
		expect(r.answered).toBe(true);
		expect(r.printExit).toBe(0);
		expect(r.printAnswered).toBe(true);
		expect(r.printStderr).toEqual([line]);
		expect(r.unparseable).toBe(0);
		expect(r.prefixKept).toBe(true);
	} finally {
		unmount(mounted.mount);
	}
}, 60_000);
