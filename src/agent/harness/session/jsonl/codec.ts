/**
 * The JSONL session file (format 4): a header line, then one line per committed transaction (a single write
 * object, or an array of writes). Files are replaced atomically through a `.tmp` sibling; a torn last line is
 * dropped and the file rewritten whole on open.
 */
import type { Context } from "../../context.ts";
import type { FileSystem } from "../../env-types.ts";
import { err, ok, type Result } from "../../result.ts";
import type { CommittedWrite, SessionMetadata } from "../types.ts";

export const JSONL_FORMAT_VERSION = 4;
export const JSONL_STORAGE_VERSION = 1;

export interface JsonlStorageHeader {
	v: typeof JSONL_FORMAT_VERSION;
	kind: "header";
	id: string;
	storageVersion: number;
	createdAt: number;
	cwd: string;
	parentSessionId?: string;
	legacyParentSessionPath?: string;
	nextSeq?: number;
}
export interface JsonlSessionMetadata extends SessionMetadata {
	cwd: string;
	path: string;
	modifiedAt: number;
}
export interface JsonlSessionCreateOptions {
	id?: string;
	parentSessionId?: string;
	cwd: string;
}
export interface JsonlSessionListOptions {
	cwd?: string;
}
export interface JsonlSessionRepoOptions {
	fileSystem: FileSystem;
	sessionsRoot: string;
	now?: () => number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const intAtLeast = (v: unknown, min: number) => Number.isSafeInteger(v) && (v as number) >= min;

/** The header of pi coding-agent's version 3 session files. */
export function isLegacyV3SessionHeader(value: unknown): boolean {
	return (
		isRecord(value) &&
		value.type === "session" &&
		value.version === 3 &&
		typeof value.id === "string" &&
		typeof value.cwd === "string" &&
		typeof value.timestamp === "string" &&
		Number.isFinite(Date.parse(value.timestamp)) &&
		(value.parentSession === undefined || typeof value.parentSession === "string")
	);
}

export function isJsonlStorageHeader(value: unknown): value is JsonlStorageHeader {
	return (
		isRecord(value) &&
		value.kind === "header" &&
		value.v === JSONL_FORMAT_VERSION &&
		typeof value.id === "string" &&
		typeof value.cwd === "string" &&
		intAtLeast(value.storageVersion, 1) &&
		intAtLeast(value.createdAt, 0) &&
		(value.nextSeq === undefined || intAtLeast(value.nextSeq, 1)) &&
		(value.parentSessionId === undefined || typeof value.parentSessionId === "string") &&
		(value.legacyParentSessionPath === undefined || typeof value.legacyParentSessionPath === "string")
	);
}

export type ParsedJsonlHeader = { format: "v4"; header: JsonlStorageHeader } | { format: "v3-legacy"; header: unknown };

export function parseJsonlSessionHeader(line: string): Result<ParsedJsonlHeader, Error> {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		return err(new Error("Invalid JSONL session header: not valid JSON", { cause: error }));
	}
	if (isJsonlStorageHeader(value)) return ok({ format: "v4", header: value });
	if (isLegacyV3SessionHeader(value)) return ok({ format: "v3-legacy", header: value });
	return err(new Error("Unsupported JSONL session header"));
}

/** The value of a file result, or an error saying what failed. */
export function fileValue<T>(result: Result<T, Error>, action: string): T {
	if (!result.ok) throw new Error(`${action}: ${result.error.message}`, { cause: result.error });
	return result.value;
}

function requireInt(value: unknown, field: string, min: number): void {
	if (!intAtLeast(value, min)) throw new Error(`Invalid JSONL ${field}`);
}

function parseWrite(value: unknown): CommittedWrite {
	if (!isRecord(value)) throw new Error("Invalid JSONL transaction write");
	requireInt(value.seq, "write seq", 1);
	switch (value.kind) {
		case "entry":
			requireInt(value.timestamp, "entry timestamp", 0);
			return value as unknown as CommittedWrite;
		case "usage":
			return value as unknown as CommittedWrite;
		case "value":
			if (value.op === "set" || value.op === "delete") return value as unknown as CommittedWrite;
			throw new Error(`Invalid JSONL value operation: ${String(value.op)}`);
		case "list":
			if (value.op === "append" || value.op === "delete") return value as unknown as CommittedWrite;
			throw new Error(`Invalid JSONL list operation: ${String(value.op)}`);
		default:
			throw new Error(`Invalid JSONL write kind: ${String(value.kind)}`);
	}
}

export function parseJsonlTransaction(line: string): CommittedWrite[] {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		throw new Error("Invalid JSONL transaction: not valid JSON", { cause: error });
	}
	return (Array.isArray(value) ? value : [value]).map(parseWrite);
}

export function serializeJsonlTransaction(writes: readonly CommittedWrite[]): string {
	return JSON.stringify(writes.length === 1 ? writes[0] : writes);
}

/** Complete lines of a file, and whether its last line was torn (no final newline). */
export function splitCompleteLines(content: string): { lines: string[]; torn: boolean } {
	if (content.endsWith("\n")) return { lines: content.slice(0, -1).split("\n"), torn: false };
	const cut = content.lastIndexOf("\n");
	return cut === -1 ? { lines: [], torn: true } : { lines: content.slice(0, cut).split("\n"), torn: true };
}

/** Write `path.tmp` through `fill`, then rename it over `path`; the temp file is removed on failure. */
export async function publishFileAtomically(
	fs: FileSystem,
	path: string,
	context: Context,
	fill: (append: (content: string) => Promise<void>) => Promise<void>,
): Promise<void> {
	const temp = `${path}.tmp`;
	try {
		fileValue(await fs.writeFile(temp, "", context), `Failed to stage JSONL storage ${path}`);
		await fill(async (content) => {
			fileValue(await fs.appendFile(temp, content, context), `Failed to append JSONL storage ${path}`);
		});
		fileValue(await fs.renameFile(temp, path, context), `Failed to publish JSONL storage ${path}`);
	} catch (error) {
		await fs.remove(temp, { force: true }, context);
		throw error;
	}
}

/** Publish a header and transactions as a new file. */
export function publishJsonl(
	fs: FileSystem,
	path: string,
	header: JsonlStorageHeader,
	context: Context,
	fill: (appendTransaction: (writes: readonly CommittedWrite[]) => Promise<void>) => Promise<void>,
): Promise<void> {
	return publishFileAtomically(fs, path, context, async (append) => {
		await append(`${JSON.stringify(header)}\n`);
		await fill((writes) => append(`${serializeJsonlTransaction(writes)}\n`));
	});
}
