/** Temp folders for tests, removed after the test file finishes. */
import { afterAll } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const created: string[] = [];
afterAll(() => {
	for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

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
