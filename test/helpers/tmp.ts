/**
 * Temp folders for tests, removed after the last test file by the global hook in test/setup.ts (preloaded by
 * bunfig.toml). An `afterAll` here would be registered only by the first test file that imports this module, and
 * bun test ends without an "exit" event: every later file's folders were left behind, thousands over many runs,
 * and a crowded temp folder slows Bun's module resolution for anything in it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const created: string[] = [];

/** Removes every folder `makeTempDir` made so far. */
export function removeTempDirs(): void {
	for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function makeTempDir(prefix = "pi-test-"): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	created.push(dir);
	return dir;
}

/** Writes files given as `{ "relative/path": "content" }` under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string>): void {
	for (const [rel, content] of Object.entries(files)) {
		const path = join(root, rel);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, content);
	}
}

/** The JSON lines an extension fixture appended to `log.jsonl` in `cwd` (none yet: an empty list). */
export function loggedLines(cwd: string): Record<string, any>[] {
	const path = join(cwd, "log.jsonl");
	if (!existsSync(path)) return [];
	return readFileSync(path, "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line));
}
