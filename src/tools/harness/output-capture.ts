/**
 * One bounded view of a command's combined output: the retained head or tail within the line and byte limits,
 * with totals counted over everything. Updates go out at most every 100 ms (the first at once, the last on
 * `flush`) as the smallest change from the previous view: append, slide, metadata-only or replace.
 */
import {
	type Context,
	type ShellOutputCaptureOptions,
	type ShellOutputMetadata,
	type ShellOutputUpdate,
	type ShellOutputView,
	sanitizeShellOutput,
} from "../../agent/index.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateHead, truncateTail, utf8ByteLength } from "../truncate.ts";

const MIN_INTERVAL_MS = 100;

export class ShellOutputCapture {
	private readonly maxBytes: number;
	private readonly maxLines: number;
	private readonly retain: "head" | "tail";
	private readonly decoder = new TextDecoder();
	private buffer = "";
	private totalBytes = 0;
	private newlines = 0;
	private endsWithNewline = true;
	private currentLineBytes = 0;
	private spillPath: string | undefined;
	private published: ShellOutputView | undefined;
	private lastPublishAt = 0;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private dirty = false;

	constructor(
		options: ShellOutputCaptureOptions | undefined,
		private readonly context: Context,
		private readonly onUpdate: ((update: ShellOutputUpdate, context: Context) => void) | undefined,
	) {
		this.maxBytes = options?.limits.maxBytes ?? DEFAULT_MAX_BYTES;
		this.maxLines = options?.limits.maxLines ?? DEFAULT_MAX_LINES;
		this.retain = options?.limits.retain ?? "tail";
		if (!Number.isFinite(this.maxBytes) || this.maxBytes <= 0)
			throw new TypeError("Output maxBytes must be a positive finite number");
		if (!Number.isInteger(this.maxLines) || this.maxLines <= 0)
			throw new TypeError("Output maxLines must be a positive integer");
	}

	get truncated(): boolean {
		return this.totalBytes > this.maxBytes || this.totalLines() > this.maxLines;
	}

	push(chunk: Uint8Array | string): void {
		this.append(
			typeof chunk === "string" ? this.decoder.decode() + chunk : this.decoder.decode(chunk, { stream: true }),
		);
	}

	finish(): void {
		this.append(this.decoder.decode());
	}

	setSpillPath(path: string): void {
		if (this.spillPath === path) return;
		this.spillPath = path;
		this.dirty = true;
	}

	snapshot(): ShellOutputView {
		const limits = { maxBytes: this.maxBytes, maxLines: this.maxLines };
		const kept = this.retain === "head" ? truncateHead(this.buffer, limits) : truncateTail(this.buffer, limits);
		const { content, ...rest } = kept;
		const totalLines = this.totalLines();
		const truncated = this.truncated;
		return {
			text: sanitizeShellOutput(content),
			truncation: {
				...rest,
				truncated,
				truncatedBy: truncated ? (totalLines > this.maxLines ? "lines" : "bytes") : null,
				totalBytes: this.totalBytes,
				totalLines,
			},
			...(this.spillPath === undefined ? {} : { spillPath: this.spillPath }),
			...(kept.lastLinePartial ? { lastLineBytes: this.currentLineBytes } : {}),
		};
	}

	/** Publish now if anything changed since the last update. */
	flush(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		if (!this.dirty || !this.onUpdate) return;
		this.dirty = false;
		const view = this.snapshot();
		const update = diff(this.published, view);
		this.published = view;
		this.lastPublishAt = Date.now();
		try {
			this.onUpdate(update, this.context);
		} catch {
			// a failing observer does not stop the command
		}
	}

	dispose(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
	}

	private append(text: string): void {
		if (text === "") return;
		const bytes = utf8ByteLength(text);
		this.totalBytes += bytes;
		for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.newlines++;
		this.endsWithNewline = text.endsWith("\n");
		const lastNewline = text.lastIndexOf("\n");
		this.currentLineBytes =
			lastNewline === -1 ? this.currentLineBytes + bytes : utf8ByteLength(text.slice(lastNewline + 1));
		this.buffer += text;
		// Keep memory bounded: twice the byte limit is always enough to rebuild the view.
		const keep = this.maxBytes * 2;
		if (this.buffer.length > keep * 2)
			this.buffer = this.retain === "tail" ? this.buffer.slice(-keep) : this.buffer.slice(0, keep);
		this.dirty = true;
		this.schedule();
	}

	private schedule(): void {
		if (!this.onUpdate || this.timer) return;
		const wait = this.lastPublishAt + MIN_INTERVAL_MS - Date.now();
		if (wait <= 0) this.flush();
		else this.timer = setTimeout(() => this.flush(), wait);
	}

	private totalLines(): number {
		return this.newlines + (this.endsWithNewline || this.totalBytes === 0 ? 0 : 1);
	}
}

function diff(previous: ShellOutputView | undefined, current: ShellOutputView): ShellOutputUpdate {
	if (!previous) return { kind: "replace", output: current };
	const metadata: ShellOutputMetadata = {
		truncation: current.truncation,
		...(current.spillPath === undefined ? {} : { spillPath: current.spillPath }),
		...(current.lastLineBytes === undefined ? {} : { lastLineBytes: current.lastLineBytes }),
	};
	if (current.text === previous.text) return { kind: "metadata", metadata };
	if (current.text.startsWith(previous.text))
		return { kind: "append", text: current.text.slice(previous.text.length), metadata };
	// Find a suffix of the old view that starts the new one (probing a few candidates): drop the rest, append.
	const prev = previous.text;
	const next = current.text;
	const probe = next.slice(0, Math.min(64, next.length));
	let tries = 0;
	for (let at = prev.indexOf(probe, Math.max(0, prev.length - next.length)); at !== -1 && tries < 8; tries++) {
		const overlap = prev.length - at;
		if (next.startsWith(prev.slice(at))) return { kind: "slide", drop: at, text: next.slice(overlap), metadata };
		at = prev.indexOf(probe, at + 1);
	}
	return { kind: "replace", output: current };
}
