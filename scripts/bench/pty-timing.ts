/**
 * Pure helpers for timing a terminal app from the outside: finding frames in its output, summarising samples and
 * reading a process's CPU time from /proc.
 *
 * A frame is one synchronized-output block: everything between `ESC[?2026h` (begin) and `ESC[?2026l` (end). Both pi
 * and our TUI wrap every render in one, so the end marker is the moment the terminal may show the finished frame.
 */

export const SYNC_BEGIN = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";

export interface Frame {
	/** When the chunk holding the begin marker arrived (ms, performance.now()). */
	startedAt: number;
	/** When the chunk holding the end marker arrived. */
	endedAt: number;
	/** The text between the markers. */
	content: string;
}

/**
 * Finds frames in output that arrives in chunks of any size: a marker split across two chunks is still found. `feed`
 * returns the frames that ended in this chunk; `open` says whether a frame has begun and not ended yet.
 */
export class FrameScanner {
	private carry = "";
	private current: { startedAt: number; content: string } | undefined;

	get open(): boolean {
		return this.current !== undefined;
	}

	feed(chunk: string, at: number): Frame[] {
		const frames: Frame[] = [];
		let text = this.carry + chunk;
		this.carry = "";
		while (text.length > 0) {
			const marker = this.current ? SYNC_END : SYNC_BEGIN;
			const at_ = text.indexOf(marker);
			if (at_ === -1) {
				const keep = partialSuffix(text, marker);
				const body = text.slice(0, text.length - keep);
				if (this.current) this.current.content += body;
				this.carry = text.slice(text.length - keep);
				break;
			}
			if (this.current) {
				frames.push({
					startedAt: this.current.startedAt,
					endedAt: at,
					content: this.current.content + text.slice(0, at_),
				});
				this.current = undefined;
			} else {
				this.current = { startedAt: at, content: "" };
			}
			text = text.slice(at_ + marker.length);
		}
		return frames;
	}
}

/** How many characters at the end of `text` are a proper prefix of `marker` (a marker cut by the chunk boundary). */
function partialSuffix(text: string, marker: string): number {
	for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
		if (marker.startsWith(text.slice(text.length - n))) return n;
	}
	return 0;
}

export interface Stats {
	n: number;
	median: number;
	p99: number;
	min: number;
	max: number;
}

/** The nearest-rank percentile (`p` in 0..1) of ascending `sorted`: the smallest value with ≥ p of the samples ≤ it. */
export function percentile(sorted: readonly number[], p: number): number {
	if (sorted.length === 0) return Number.NaN;
	const rank = Math.max(1, Math.ceil(p * sorted.length));
	return sorted[Math.min(sorted.length, rank) - 1] as number;
}

/** The median (mean of the middle two for an even count), p99, min and max of `samples` (any order). */
export function summarize(samples: readonly number[]): Stats {
	const sorted = [...samples].sort((a, b) => a - b);
	const n = sorted.length;
	if (n === 0) return { n, median: Number.NaN, p99: Number.NaN, min: Number.NaN, max: Number.NaN };
	const mid = Math.floor(n / 2);
	const median = n % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
	return { n, median, p99: percentile(sorted, 0.99), min: sorted[0] as number, max: sorted[n - 1] as number };
}

/**
 * utime + stime in clock ticks from the text of `/proc/<pid>/stat`. The command name (field 2) is in parentheses
 * and may itself hold spaces and parentheses, so fields are counted from the last `)`.
 */
export function cpuTicksFromStat(stat: string): number {
	const close = stat.lastIndexOf(")");
	if (close === -1) throw new Error("not a /proc/<pid>/stat line: no command name");
	// After the name: field 3 (state) is index 0, so field 14 (utime) is index 11 and field 15 (stime) index 12.
	const fields = stat
		.slice(close + 1)
		.trim()
		.split(/\s+/);
	const utime = Number(fields[11]);
	const stime = Number(fields[12]);
	if (!Number.isFinite(utime) || !Number.isFinite(stime))
		throw new Error("not a /proc/<pid>/stat line: no utime/stime");
	return utime + stime;
}

/** Removes escape sequences (CSI, OSC, two-byte ESC) and carriage returns: what the output says as plain text. */
export function plainText(output: string): string {
	return (
		output
			// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences is the point
			.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "")
			// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
			.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "")
			// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
			.replace(/\x1b[@-_]/g, "")
			.replace(/\r/g, "")
	);
}

/** The first non-empty line of `output` as plain text (what a failing app printed), at most 200 characters. */
export function firstLine(output: string): string {
	const line = plainText(output)
		.split("\n")
		.map((l) => l.trim())
		.find((l) => l.length > 0);
	return (line ?? "no output").slice(0, 200);
}

/**
 * Whether the screen shows an editor with a footer: two rows made only of `─` (the editor's top and bottom border, as
 * at least 80 % of `columns` wide) with at most `maxEditorRows` rows between them, and a non-empty row below the second.
 */
export function editorWithFooter(rows: readonly string[], columns: number, maxEditorRows = 12): boolean {
	const isBorder = (row: string) => row.length >= columns * 0.8 && /^─+$/.test(row.trim());
	for (let top = 0; top < rows.length; top++) {
		if (!isBorder(rows[top] as string)) continue;
		for (let bottom = top + 2; bottom <= Math.min(rows.length - 1, top + 1 + maxEditorRows); bottom++) {
			if (!isBorder(rows[bottom] as string)) continue;
			if (rows.slice(bottom + 1).some((r) => r.trim().length > 0)) return true;
		}
	}
	return false;
}
