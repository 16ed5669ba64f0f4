/**
 * Output limits shared by the tools: 2000 lines or 50 KB, whichever comes first. `truncateHead` keeps the start
 * (read, grep, find, ls) and never cuts a line; `truncateTail` keeps the end (bash) and may keep only the tail of
 * an over-long last line. Byte counts are UTF-8; cuts never split a character.
 */
import type { TruncationOptions, TruncationResult } from "./types.ts";

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
export const GREP_MAX_LINE_LENGTH = 500;

const encoder = new TextEncoder();
const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

/** UTF-8 size of `content` in bytes. */
export function utf8ByteLength(content: string): number {
	return byteLength(content);
}

export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes}B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function splitLines(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
	return lines;
}

function result(
	content: string,
	totalLines: number,
	totalBytes: number,
	outputLines: number,
	maxLines: number,
	maxBytes: number,
): TruncationResult {
	return {
		content,
		truncated: false,
		truncatedBy: null,
		totalLines,
		totalBytes,
		outputLines,
		outputBytes: byteLength(content),
		lastLinePartial: false,
		firstLineExceedsLimit: false,
		maxLines,
		maxBytes,
	};
}

export function truncateHead(text: string, options: TruncationOptions = {}): TruncationResult {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const totalBytes = byteLength(text);
	const lines = splitLines(text);
	if (lines.length <= maxLines && totalBytes <= maxBytes)
		return result(text, lines.length, totalBytes, lines.length, maxLines, maxBytes);
	const kept: string[] = [];
	let bytes = 0;
	let by: "lines" | "bytes" = "lines";
	for (const line of lines) {
		if (kept.length >= maxLines) break;
		const cost = byteLength(line) + (kept.length > 0 ? 1 : 0);
		if (bytes + cost > maxBytes) {
			by = "bytes";
			break;
		}
		kept.push(line);
		bytes += cost;
	}
	const out = result(kept.join("\n"), lines.length, totalBytes, kept.length, maxLines, maxBytes);
	out.truncated = true;
	out.truncatedBy = by;
	out.firstLineExceedsLimit = kept.length === 0 && lines.length > 0;
	return out;
}

export function truncateTail(text: string, options: TruncationOptions = {}): TruncationResult {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const totalBytes = byteLength(text);
	const lines = splitLines(text);
	if (lines.length <= maxLines && totalBytes <= maxBytes)
		return result(text, lines.length, totalBytes, lines.length, maxLines, maxBytes);
	const kept: string[] = [];
	let bytes = 0;
	let by: "lines" | "bytes" = "lines";
	let partial = false;
	for (let i = lines.length - 1; i >= 0; i--) {
		if (kept.length >= maxLines) break;
		const line = lines[i] as string;
		const cost = byteLength(line) + (kept.length > 0 ? 1 : 0);
		if (bytes + cost > maxBytes) {
			by = "bytes";
			if (kept.length === 0) {
				kept.unshift(tailBytes(line, maxBytes));
				partial = true;
			}
			break;
		}
		kept.unshift(line);
		bytes += cost;
	}
	const out = result(kept.join("\n"), lines.length, totalBytes, kept.length, maxLines, maxBytes);
	out.truncated = true;
	out.truncatedBy = by;
	out.lastLinePartial = partial;
	return out;
}

/** The longest tail of `line` that fits in `maxBytes` UTF-8 bytes, starting at a character boundary. */
function tailBytes(line: string, maxBytes: number): string {
	const bytes = encoder.encode(line);
	let start = Math.max(0, bytes.length - maxBytes);
	while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
	return new TextDecoder().decode(bytes.subarray(start));
}

/** Cuts a single line to `max` characters with a marker (grep). */
export function truncateLine(line: string, max = GREP_MAX_LINE_LENGTH): { text: string; wasTruncated: boolean } {
	if (line.length <= max) return { text: line, wasTruncated: false };
	return { text: `${line.slice(0, max)}... [truncated]`, wasTruncated: true };
}
