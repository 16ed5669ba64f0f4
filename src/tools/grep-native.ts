/**
 * grep without ripgrep: walks the tree with our .gitignore handling, skips binary files (a NUL byte in the first
 * 8 KB), and reads each file in chunks, matching line by line with a JS RegExp while keeping only the few lines
 * needed for before-context. Stops as soon as the consumer has enough.
 */

import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { fsConstants, fsPromises, matchGlob } from "../util/index.ts";
import { throwIfAborted } from "./external.ts";
import { type WalkOptions, walkTree } from "./ignore.ts";

export interface GrepHit {
	/** Absolute path of the file. */
	file: string;
	/** 1-based line number. */
	line: number;
	text: string;
	isMatch: boolean;
}

/** Receives hits in file/line order; returns false to stop the search. */
export type HitSink = (hit: GrepHit) => boolean;

export interface GrepSearch {
	searchPath: string;
	isDirectory: boolean;
	pattern: string;
	ignoreCase: boolean;
	literal: boolean;
	glob?: string;
	context: number;
	signal?: AbortSignal;
	onHit: HitSink;
	/** True once no further file is wanted (the match limit was reached). */
	finished: () => boolean;
}

const CHUNK = 64 * 1024;
const BINARY_SNIFF = 8 * 1024;

function escapeRegex(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The pattern as a JS RegExp; a leading `(?i)`/`(?s)`/`(?m)` (ripgrep syntax) becomes a flag. */
export function buildRegex(pattern: string, ignoreCase: boolean, literal: boolean): RegExp {
	let source = literal ? escapeRegex(pattern) : pattern;
	const flags = new Set<string>(ignoreCase ? ["i"] : []);
	const inline = literal ? null : /^\(\?([ims]+)\)/.exec(source);
	if (inline) {
		for (const flag of inline[1] as string) flags.add(flag);
		source = source.slice(inline[0].length);
	}
	const base = [...flags].join("");
	try {
		return new RegExp(source, `${base}u`);
	} catch {
		// Not valid in Unicode mode (e.g. an identity escape like `\-`): try the legacy syntax below.
	}
	try {
		return new RegExp(source, base);
	} catch (err) {
		throw new Error(`Invalid regex pattern: ${err instanceof Error ? err.message : String(err)}`);
	}
}

/**
 * ripgrep-style `--glob` as a walk override: a glob without `/` is matched against the entry's name, otherwise
 * against its path. A plain glob decides for files (it wins over .gitignore, as in rg); a `!glob` excludes matching
 * files and directories and leaves everything else to the ignore rules.
 */
export function globOverride(glob: string | undefined): WalkOptions["override"] {
	if (!glob) return undefined;
	const negate = glob.startsWith("!");
	let pattern = negate ? glob.slice(1) : glob;
	const anchored = pattern.includes("/");
	if (pattern.startsWith("/")) pattern = pattern.slice(1);
	return (rel, name, isDir) => {
		const matched = matchGlob(pattern, anchored ? rel : name);
		if (negate) return matched ? false : undefined;
		return isDir ? undefined : matched;
	};
}

export async function grepNative(search: GrepSearch): Promise<void> {
	const regex = buildRegex(search.pattern, search.ignoreCase, search.literal);
	if (!search.isDirectory) {
		await searchFile(search.searchPath, regex, search);
		return;
	}
	const override = globOverride(search.glob);
	for await (const entry of walkTree(search.searchPath, { signal: search.signal, override })) {
		if (entry.kind !== "file") continue;
		const keepGoing = await searchFile(entry.path, regex, search);
		if (!keepGoing || search.finished()) return;
	}
}

/** Searches one file; false when the sink asked to stop. Unreadable and binary files are skipped. */
async function searchFile(path: string, regex: RegExp, search: GrepSearch): Promise<boolean> {
	throwIfAborted(search.signal);
	let handle: FileHandle;
	try {
		// O_NONBLOCK: a path swapped for a FIFO after the walk looked at it must not block the open.
		handle = await fsPromises().open(path, fsConstants().O_RDONLY | fsConstants().O_NONBLOCK);
	} catch {
		// Unreadable or vanished: nothing to search.
		return true;
	}
	const { context, onHit } = search;
	const before: { line: number; text: string }[] = [];
	let lineNo = 0;
	let afterLeft = 0;
	let lastEmitted = 0;
	const onLine = (raw: string): boolean => {
		const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
		lineNo++;
		if (regex.test(text)) {
			for (const prev of before) {
				if (prev.line > lastEmitted && !onHit({ file: path, line: prev.line, text: prev.text, isMatch: false }))
					return false;
			}
			lastEmitted = lineNo;
			afterLeft = context;
			if (!onHit({ file: path, line: lineNo, text, isMatch: true })) return false;
		} else if (afterLeft > 0) {
			afterLeft--;
			lastEmitted = lineNo;
			if (!onHit({ file: path, line: lineNo, text, isMatch: false })) return false;
		}
		if (context > 0) {
			before.push({ line: lineNo, text });
			if (before.length > context) before.shift();
		}
		return true;
	};

	try {
		const buffer = Buffer.allocUnsafe(CHUNK);
		const decoder = new StringDecoder("utf8");
		let carry: string[] = [];
		let first = true;
		for (;;) {
			const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
			if (bytesRead === 0) break;
			const chunk = buffer.subarray(0, bytesRead);
			if (first) {
				first = false;
				if (chunk.subarray(0, BINARY_SNIFF).includes(0)) return true;
			}
			const piece = decoder.write(chunk);
			let start = 0;
			let newline = piece.indexOf("\n");
			while (newline !== -1) {
				const segment = piece.slice(start, newline);
				const line = carry.length > 0 ? carry.join("") + segment : segment;
				carry = [];
				if (!onLine(line)) return false;
				start = newline + 1;
				newline = piece.indexOf("\n", start);
			}
			if (start < piece.length) carry.push(piece.slice(start));
			throwIfAborted(search.signal);
		}
		const rest = carry.join("") + decoder.end();
		if (rest && !onLine(rest)) return false;
		return true;
	} catch (err) {
		if (search.signal?.aborted) throw err;
		// A read error mid-file (e.g. EISDIR, EIO): keep what was found and go on.
		return true;
	} finally {
		await handle.close();
	}
}
