/**
 * Collects one frame's output and writes it wrapped in synchronized output (`CSI ? 2026 h … l`), in chunks of at most
 * 1 MiB (UTF-8) so a full redraw of a huge transcript never becomes one giant string or write. A chunk never ends
 * between the two halves of a surrogate pair.
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
	private buffer = "";

	constructor(private readonly write: (data: string) => void) {}

	get isEmpty(): boolean {
		return this.buffer.length === 0;
	}

	append(text: string): void {
		this.buffer += text;
	}

	/** Write everything appended (nothing when empty) inside one synchronized update. */
	flush(): void {
		if (this.buffer.length === 0) return;
		const data = SYNC_BEGIN + this.buffer + SYNC_END;
		this.buffer = "";
		if (data.length <= SAFE_UNITS) {
			this.write(data);
			return;
		}
		const bytes = byteLength(data);
		if (bytes <= MAX_WRITE_BYTES) {
			this.write(data);
			return;
		}
		// All ASCII: one unit is one byte. Otherwise cut where even 3-byte units fit.
		const units = bytes === data.length ? MAX_WRITE_BYTES : SAFE_UNITS;
		let offset = 0;
		while (offset < data.length) {
			let end = Math.min(data.length, offset + units);
			if (end < data.length && isHighSurrogate(data.charCodeAt(end - 1))) end -= 1;
			this.write(data.slice(offset, end));
			offset = end;
		}
	}
}
