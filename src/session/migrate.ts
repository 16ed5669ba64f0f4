/**
 * Format migrations, applied in memory to the parsed lines of an old file (the caller rewrites the file):
 * - v1 → v2: entries get an `id` (8 hex) and `parentId` (the previous entry, in file order); a compaction's
 *   `firstKeptEntryIndex` (index into the file's entries, header = 0) becomes `firstKeptEntryId`.
 * - v2 → v3: the `hookMessage` message role is renamed `custom`.
 */
import { CURRENT_SESSION_VERSION } from "./types.ts";

type Raw = Record<string, unknown>;

/**
 * Migrates `entries` (every line after the header, in file order) in place and sets `header.version`. Returns
 * one-line notes for anything that could not be carried over exactly. `newId` draws a fresh unique entry id.
 */
export function migrateEntries(header: Raw, entries: Raw[], newId: (taken: Set<string>) => string): string[] {
	const notes: string[] = [];
	const version = typeof header.version === "number" ? header.version : 1;
	if (version < 2) notes.push(...migrateV1ToV2(entries, newId));
	if (version < 3) migrateV2ToV3(entries);
	if (version < CURRENT_SESSION_VERSION) header.version = CURRENT_SESSION_VERSION;
	return notes;
}

function migrateV1ToV2(entries: Raw[], newId: (taken: Set<string>) => string): string[] {
	const notes: string[] = [];
	const taken = new Set<string>();
	for (const e of entries) if (typeof e.id === "string") taken.add(e.id);
	let previous: string | null = null;
	for (let i = 0; i < entries.length; i++) {
		const old = entries[i]!;
		let id = typeof old.id === "string" && old.id !== "" ? old.id : undefined;
		if (!id) {
			id = newId(taken);
			taken.add(id);
		}
		// Rebuild so the envelope comes first, as pi writes it; every other field keeps its order.
		const { type, id: _id, parentId: _parentId, timestamp, ...rest } = old;
		const next: Raw = { type, id, parentId: previous, timestamp, ...rest };
		entries[i] = next;
		previous = id;
	}
	for (const e of entries) {
		if (e.type !== "compaction" || !("firstKeptEntryIndex" in e)) continue;
		const index = e.firstKeptEntryIndex;
		delete e.firstKeptEntryIndex;
		// The index counts the header as entry 0.
		const target = typeof index === "number" && Number.isInteger(index) ? entries[index - 1] : undefined;
		if (target && typeof e.firstKeptEntryId !== "string") {
			e.firstKeptEntryId = target.id;
		} else if (typeof e.firstKeptEntryId !== "string") {
			e.firstKeptEntryId = e.id;
			notes.push(`compaction ${String(e.id)}: firstKeptEntryIndex ${String(index)} points at no entry; nothing kept`);
		}
	}
	return notes;
}

function migrateV2ToV3(entries: Raw[]): void {
	for (const e of entries) {
		if (e.type !== "message") continue;
		const message = e.message as Raw | undefined;
		if (message && message.role === "hookMessage") message.role = "custom";
	}
}
