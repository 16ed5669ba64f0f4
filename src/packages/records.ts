/**
 * `packages.lock.json` of a scope: what was installed, keyed by identity (`InstallRecord`: npm version and
 * integrity from the tree's lockfile, git commit, blocked scripts). Written atomically (temp file + rename) after the
 * files are in place; an unreadable file reads as empty (the installs themselves are still on disk) and is
 * replaced by the next write.
 */
import { readJsonObject, writeFileAtomic } from "../config/index.ts";
import type { InstallRecord } from "./types.ts";

interface RecordFile {
	version: 1;
	packages: Record<string, InstallRecord>;
}

export function readRecords(path: string): InstallRecord[] {
	const read = readJsonObject(path);
	if (!read.ok || !read.data) return [];
	const packages = read.data.packages;
	if (typeof packages !== "object" || packages === null || Array.isArray(packages)) return [];
	return Object.values(packages as Record<string, InstallRecord>).filter(
		(r) => typeof r === "object" && r !== null && typeof r.identity === "string",
	);
}

/** Replaces (or with `remove`, deletes) the records of the given identities, keeping the others. */
export function writeRecords(path: string, put: InstallRecord[], remove: string[] = []): void {
	const byIdentity = new Map(readRecords(path).map((r) => [r.identity, r]));
	for (const identity of remove) byIdentity.delete(identity);
	for (const record of put) byIdentity.set(record.identity, record);
	const file: RecordFile = {
		version: 1,
		packages: Object.fromEntries([...byIdentity].sort(([a], [b]) => a.localeCompare(b))),
	};
	writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
}
