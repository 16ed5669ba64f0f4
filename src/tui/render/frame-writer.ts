/**
 * Collects one frame's output and writes it wrapped in synchronized output (`CSI ? 2026 h … l`), in chunks of at most
 * 1 MiB (UTF-8) so a full redraw of a huge transcript never becomes one giant string or write. A chunk never ends
 * between the two halves of a surrogate pair.
 *
 * Parts are kept as given and only joined per chunk; big parts come with their UTF-8 size (cached by the caller), so a
 * full redraw neither copies the whole frame into one string nor measures it again.
 */

export const MAX_WRITE_BYTES = 1024 * 1024;
/** A UTF-16 code unit is at most 3 UTF-8 bytes, so this many units always fit in one chunk. */
const SAFE_UNITS = Math.floor(MAX_WRITE_BYTES / 3);

const SYNC_BEGIN = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

function byteLength(text: string): number {
	return Buffer.byteLength(text, "utf8");
}

export class FrameWriter {
	private parts: string[] = [];
	/** UTF-8 size of each part, -1 when not known yet. */
	private sizes: number[] = [];
	private units = 0;

	constructor(private readonly write: (data: string) => void) {}

	get isEmpty(): boolean {
		return this.units === 0;
	}

	append(text: string): void {
		if (text.length === 0) return;
		this.parts.push(text);
		this.sizes.push(-1);
		this.units += text.length;
	}

	/** Append text whose UTF-8 size is already known. */
	appendSized(text: string, bytes: number): void {
		if (text.length === 0) return;
		this.parts.push(text);
		this.sizes.push(bytes);
		this.units += text.length;
	}

	/** Write everything appended (nothing when empty) inside one synchronized update. */
	flush(): void {
		if (this.units === 0) return;
		const { parts, sizes } = this;
		const units = this.units;
		this.parts = [];
		this.sizes = [];
		this.units = 0;
		if (units + SYNC_BEGIN.length + SYNC_END.length <= SAFE_UNITS) {
			this.write(SYNC_BEGIN + parts.join("") + SYNC_END);
			return;
		}
		// Chunks are built by concatenation (no copy until the terminal encodes them) up to the byte limit.
		let chunk = SYNC_BEGIN;
		let chunkBytes = SYNC_BEGIN.length;
		for (let i = 0; i < parts.length; i++) {
			const part = parts[i] as string;
			let bytes = sizes[i] as number;
			if (bytes < 0) bytes = byteLength(part);
			if (chunkBytes + bytes <= MAX_WRITE_BYTES) {
				chunk += part;
				chunkBytes += bytes;
				continue;
			}
			if (chunkBytes > 0) this.write(chunk);
			chunk = "";
			chunkBytes = 0;
			if (bytes <= MAX_WRITE_BYTES) {
				chunk = part;
				chunkBytes = bytes;
			} else this.writeSplit(part, bytes);
		}
		if (chunkBytes + SYNC_END.length <= MAX_WRITE_BYTES) this.write(chunk + SYNC_END);
		else {
			this.write(chunk);
			this.write(SYNC_END);
		}
	}

	/** One part bigger than a chunk, cut into chunks (all ASCII: one unit per byte; else where 3-byte units fit). */
	private writeSplit(text: string, bytes: number): void {
		const units = bytes === text.length ? MAX_WRITE_BYTES : SAFE_UNITS;
		let offset = 0;
		while (offset < text.length) {
			let end = Math.min(text.length, offset + units);
			if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
			this.write(text.slice(offset, end));
			offset = end;
		}
	}
}
