import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pendingFileMutations, withFileMutationQueue } from "../../../src/tools/file-mutation-queue.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-queue-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** Runs a queued job that logs its start and end around a delay. */
function job(path: string, name: string, log: string[], ms: number) {
	return withFileMutationQueue(path, async () => {
		log.push(`${name}:start`);
		await sleep(ms);
		log.push(`${name}:end`);
		return name;
	});
}

describe("withFileMutationQueue", () => {
	test("operations on one file run one at a time, in call order", async () => {
		const file = join(dir, "a.txt");
		writeFileSync(file, "x");
		const log: string[] = [];
		const results = await Promise.all([job(file, "1", log, 20), job(file, "2", log, 5), job(file, "3", log, 1)]);
		expect(results).toEqual(["1", "2", "3"]);
		expect(log).toEqual(["1:start", "1:end", "2:start", "2:end", "3:start", "3:end"]);
		expect(pendingFileMutations()).toBe(0);
	});

	test("different files run concurrently", async () => {
		const log: string[] = [];
		await Promise.all([job(join(dir, "a"), "a", log, 20), job(join(dir, "b"), "b", log, 20)]);
		expect(log.slice(0, 2).sort()).toEqual(["a:start", "b:start"]);
	});

	test("a failing operation rejects its caller but does not block the next one", async () => {
		const file = join(dir, "f.txt");
		const first = withFileMutationQueue(file, async () => {
			await sleep(5);
			throw new Error("boom");
		});
		const second = withFileMutationQueue(file, async () => "ok");
		await expect(first).rejects.toThrow("boom");
		expect(await second).toBe("ok");
		expect(pendingFileMutations()).toBe(0);
	});

	test("a symlink and its target share one queue", async () => {
		const target = join(dir, "target.txt");
		const link = join(dir, "link.txt");
		writeFileSync(target, "x");
		symlinkSync(target, link);
		const log: string[] = [];
		await Promise.all([job(target, "t", log, 15), job(link, "l", log, 1)]);
		expect(log).toEqual(["t:start", "t:end", "l:start", "l:end"]);
	});

	test("a file that does not exist yet is keyed by its resolved path", async () => {
		const file = join(dir, "new.txt");
		const log: string[] = [];
		await Promise.all([job(file, "1", log, 10), job(`${dir}/./new.txt`, "2", log, 1)]);
		expect(log).toEqual(["1:start", "1:end", "2:start", "2:end"]);
	});
});
