import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { lockFile, lockFileSync } from "../../../src/util/index.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const OPTIONS = { stale: 3000, waitMs: 300 };

/** A pid that is certainly not running: a child that has already exited. */
async function deadPid(): Promise<number> {
	const child = Bun.spawn(["true"]);
	await child.exited;
	return child.pid;
}

describe("file lock", () => {
	test("a lock held by a live process is never taken: the waiter gives up with ELOCKED", async () => {
		const file = join(makeTempDir(), "settings.json");
		const release = lockFileSync(file, OPTIONS);
		const record = JSON.parse(readFileSync(`${file}.lock-owner`, "utf8"));
		const { ino, ctimeMs } = statSync(`${file}.lock`);
		expect(record).toEqual({ pid: process.pid, host: hostname(), ino, ctimeMs });
		await expect(lockFile(file, OPTIONS)).rejects.toMatchObject({ code: "ELOCKED" });
		release();
		expect(existsSync(`${file}.lock`)).toBe(false);
		expect(existsSync(`${file}.lock-owner`)).toBe(false);
	});

	test("a record naming a dead process and this lock: taken over at once, the dead writer's temp file removed", async () => {
		const file = join(makeTempDir(), "auth.json");
		mkdirSync(`${file}.lock`);
		const pid = await deadPid();
		const { ino, ctimeMs } = statSync(`${file}.lock`);
		writeFileSync(`${file}.lock-owner`, JSON.stringify({ pid, host: hostname(), ino, ctimeMs }));
		const temp = join(file, "..", `.auth.json.${pid}.abc.tmp`);
		writeFileSync(temp, "half");
		const started = Date.now();
		const lock = await lockFile(file, OPTIONS);
		expect(Date.now() - started).toBeLessThan(200);
		expect(lock.held()).toBe(true);
		expect(existsSync(temp)).toBe(false);
		await lock.release();
	});

	test("a dead process's record for another lock directory (or another host) takes nothing", async () => {
		const file = join(makeTempDir(), "settings.json");
		mkdirSync(`${file}.lock`);
		const pid = await deadPid();
		const { ino, ctimeMs } = statSync(`${file}.lock`);
		for (const record of [
			// The same inode number made again later (ext4 reuses it at once), another inode, another host.
			{ pid, host: hostname(), ino, ctimeMs: ctimeMs - 50 },
			{ pid, host: hostname(), ino: ino + 1, ctimeMs },
			{ pid, host: `${hostname()}-elsewhere`, ino, ctimeMs },
		]) {
			writeFileSync(`${file}.lock-owner`, JSON.stringify(record));
			await expect(lockFile(file, OPTIONS)).rejects.toMatchObject({ code: "ELOCKED" });
			expect(statSync(`${file}.lock`).ino).toBe(ino);
		}
	});

	test("a holder whose lock was taken over releases nothing of the new holder's", async () => {
		const file = join(makeTempDir(), "settings.json");
		const first = await lockFile(file, OPTIONS);
		await Bun.sleep(20);
		// Another writer judged it stale: removed it and made its own (ext4 may give it the same inode number).
		const { rmdirSync } = await import("node:fs");
		rmdirSync(`${file}.lock`);
		const second = lockFileSync(file, OPTIONS);
		expect(first.held()).toBe(false);
		await first.release();
		expect(existsSync(`${file}.lock`)).toBe(true);
		second();
		expect(existsSync(`${file}.lock`)).toBe(false);
	});
});
