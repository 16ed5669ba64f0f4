/** Small pure helpers for building entries: serialization order, undefined-free objects, copied labels. */
import { newEntryId } from "./ids.ts";
import { migrateEntries } from "./migrate.ts";
import { checkEntry } from "./schema.ts";
import type { FileEntry, LabelEntry, SessionEntry, SessionHeader } from "./types.ts";

/** Drops keys whose value is undefined, so entries serialize and compare the way they were given. */
export function clean<T extends object>(value: T): T {
	for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
	return value;
}

/** The header as one JSON line, `type` and `version` first (pi's order), other fields as they are. */
export function headerLine(header: SessionHeader): string {
	const { type, version, ...rest } = header;
	return JSON.stringify({ type, version, ...rest });
}

/**
 * Label entries to append after `path` (a branch being copied to a new file) so that its entries keep the labels
 * they have now (`labels`: the session's current labels), chained from the path's last entry.
 */
export function labelsForBranch(
	path: SessionEntry[],
	labels: ReadonlyMap<string, { label: string }>,
	now = new Date().toISOString(),
): LabelEntry[] {
	const onPath = new Set(path.map((e) => e.id));
	const copied = new Map<string, string>();
	for (const e of path) {
		if (e.type !== "label") continue;
		if (e.label) copied.set(e.targetId, e.label);
		else copied.delete(e.targetId);
	}
	const wanted = new Map<string, string>();
	for (const [id, { label }] of labels) if (onPath.has(id)) wanted.set(id, label);
	const out: LabelEntry[] = [];
	let parentId = path.at(-1)?.id ?? null;
	for (const targetId of new Set([...wanted.keys(), ...copied.keys()])) {
		const label = wanted.get(targetId);
		if (label === copied.get(targetId)) continue;
		const id = newEntryId((c) => onPath.has(c) || out.some((l) => l.id === c));
		out.push(clean({ type: "label", id, parentId, timestamp: now, targetId, label }));
		parentId = id;
	}
	return out;
}

/**
 * Header and valid entries from lines given in memory (`SessionManager.inMemory(cwd, options, entries)`): old
 * versions are migrated, invalid entries skipped with a note in `diagnostics`.
 */
export function fromFileEntries(
	fileEntries: FileEntry[],
	diagnostics: string[],
): { header: SessionHeader | undefined; entries: SessionEntry[] } {
	const [first, ...rest] = fileEntries;
	const raw = (first?.type === "session" ? rest : fileEntries).map((e) => ({ ...e }) as Record<string, unknown>);
	let header: SessionHeader | undefined;
	if (first?.type === "session") {
		header = { ...(first as SessionHeader) };
		migrateEntries(header, raw, (taken) => newEntryId((id) => taken.has(id)));
	}
	const entries: SessionEntry[] = [];
	for (const value of raw) {
		const problem = checkEntry(value);
		if (problem) diagnostics.push(`(memory): skipped entry (${problem})`);
		else entries.push(value as unknown as SessionEntry);
	}
	return { header, entries };
}

/** pi's test helper shape: every parseable line of a session file's text (malformed lines skipped). */
export function parseSessionEntries(content: string): FileEntry[] {
	const out: FileEntry[] = [];
	for (const line of content.split("\n")) {
		if (line.trim() === "") continue;
		try {
			out.push(JSON.parse(line) as FileEntry);
		} catch {
			// pi skips malformed lines here too; `SessionManager.open` reports them.
		}
	}
	return out;
}

/**
 * Migrates parsed lines to the current version in place, as `open` does (pi's signature). The header may be
 * anywhere (normally first); lines without one are taken as version 1, as pi takes them.
 */
export function migrateSessionEntries(entries: FileEntry[]): void {
	const headerIndex = entries.findIndex((e) => e.type === "session");
	const header = (headerIndex >= 0 ? entries[headerIndex] : { type: "session" }) as unknown as Record<string, unknown>;
	const positions = entries.flatMap((_, i) => (i === headerIndex ? [] : [i]));
	const rest = positions.map((i) => entries[i]) as unknown as Record<string, unknown>[];
	migrateEntries(header, rest, (taken) => newEntryId((id) => taken.has(id)));
	positions.forEach((position, k) => {
		entries[position] = rest[k] as unknown as FileEntry;
	});
}
