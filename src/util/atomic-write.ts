/**
 * Whole-file replacement that never leaves a half-written file: temp file in the same folder + fsync + rename.
 */
import { basename, dirname, join } from "node:path";
import {
	closeSync,
	fchmodSync,
	fsyncSync,
	mkdirSync,
	openSync,
	renameSync,
	rmSync,
	statSync,
	writeSync,
} from "./fs.ts";

function existingMode(path: string): number | undefined {
	try {
		return statSync(path).mode & 0o777;
	} catch {
		// No file yet: the default mode applies.
		return undefined;
	}
}

/**
 * Writes `text` to `path` by temp file + fsync + rename (same folder, so the rename is atomic). An existing file
 * keeps its mode; a new one gets `newFileMode`. With `forceMode` the file gets `newFileMode` either way (auth.json
 * is owner-only whatever it was).
 */
export function writeFileAtomic(path: string, text: string, newFileMode = 0o644, forceMode = false): void {
	const dir = dirname(path);
	mkdirSync(dir, { recursive: true });
	const mode = forceMode ? newFileMode : (existingMode(path) ?? newFileMode);
	const temp = join(dir, `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
	let fd: number | undefined;
	try {
		fd = openSync(temp, "w", mode);
		fchmodSync(fd, mode);
		writeSync(fd, text);
		fsyncSync(fd);
		closeSync(fd);
		fd = undefined;
		renameSync(temp, path);
	} catch (error) {
		if (fd !== undefined) closeSync(fd);
		rmSync(temp, { force: true });
		throw error;
	}
}
