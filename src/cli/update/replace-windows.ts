/**
 * Replacing pi.exe the Windows way. A running .exe cannot be overwritten or deleted, but it can be renamed: the
 * old pi.exe becomes `pi.exe.previous` (kept for `pi update --rollback`) and the new one is renamed into its place.
 * A `pi.exe.previous` that is itself still running (a pi started before the last update) cannot be deleted either,
 * so it is renamed aside to `pi.exe.<id>.old`; those, and downloads staged by an update that was cut short, are
 * deleted by the next `pi update` once nothing runs them any more. The file operations are a seam so the same
 * steps are tested on any system with a stand-in that refuses what Windows refuses.
 */
import { basename, dirname, join } from "node:path";
import { readdirSync, renameSync, rmSync, uuidv7 } from "../../util/index.ts";

export interface FileMoves {
	/** Renames, replacing a `to` that exists (and is not in use). */
	rename(from: string, to: string): void;
	/** Deletes a file (an error when it is in use). */
	remove(path: string): void;
}

export const realMoves: FileMoves = {
	rename: (from, to) => renameSync(from, to),
	remove: (path) => rmSync(path, { force: true }),
};

export const windowsPreviousPath = (binary: string): string => `${binary}.previous`;

/** The name a download is staged under next to the binary (an .exe, so Windows will run it for the check). */
export const stagedPath = (binary: string, windows: boolean): string =>
	join(dirname(binary), `.pi.update.${process.pid}${windows ? ".exe" : ""}`);

/** Deletes what earlier updates left next to `binary`: renamed-aside `.old` binaries and staged downloads. */
export function cleanStale(binary: string, moves: FileMoves): void {
	const exe = basename(binary);
	let names: string[];
	try {
		names = readdirSync(dirname(binary)) as string[];
	} catch {
		return;
	}
	for (const name of names) {
		const stale = (name.startsWith(`${exe}.`) && name.endsWith(".old")) || name.startsWith(".pi.update.");
		if (!stale || name === ".pi.update.lock") continue;
		try {
			moves.remove(join(dirname(binary), name));
		} catch {
			// Still running (or otherwise in use): the next update tries again.
		}
	}
}

/** Gets `path` out of the way: deleted, or renamed aside to be deleted later when it is in use. */
function retire(path: string, binary: string, moves: FileMoves): void {
	try {
		moves.remove(path);
	} catch {
		moves.rename(path, `${binary}.${uuidv7()}.old`);
	}
}

/** Puts `staged` in place of `binary`, which may be running; the old one stays as `<binary>.previous`. */
export function replaceWindows(binary: string, staged: string, moves: FileMoves): void {
	const previous = windowsPreviousPath(binary);
	retire(previous, binary, moves);
	moves.rename(binary, previous);
	try {
		moves.rename(staged, binary);
	} catch (error) {
		moves.rename(previous, binary);
		throw error;
	}
}

/** Swaps `binary` and `<binary>.previous` (either may be running). */
export function rollbackWindows(binary: string, moves: FileMoves): void {
	const previous = windowsPreviousPath(binary);
	const aside = `${binary}.${uuidv7()}.rollback`;
	moves.rename(binary, aside);
	try {
		moves.rename(previous, binary);
	} catch (error) {
		moves.rename(aside, binary);
		throw error;
	}
	moves.rename(aside, previous);
}
