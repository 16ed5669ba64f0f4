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
	private parts: string[] = [];
	private units = 0;

	constructor(private readonly write: (data: string) => void) {}

	get isEmpty(): boolean {
		return this.units === 0;
	}

	append(text: string): void {
		if (text.length === 0) return;
		this.parts.push(text);
		this.units += text.length;
	}

	/** Write everything appended (nothing when empty) inside one synchronized update. */
	flush(): void {
		if (this.units === 0) return;
		const parts = this.parts;
		this.parts = [];
		const units = this.units;
		this.units = 0;
		if (units + SYNC_BEGIN.length + SYNC_END.length <= SAFE_UNITS) {
			this.write(SYNC_BEGIN + parts.join("") + SYNC_END);
			return;
		}
		let chunk = SYNC_BEGIN;
		let chunkBytes = SYNC_BEGIN.length;
		const emit = (): void => {
			if (chunk.length > 0) this.write(chunk);
			chunk = "";
			chunkBytes = 0;
		};
		const add = (piece: string): void => {
			const bytes = byteLength(piece);
			if (chunkBytes + bytes > MAX_WRITE_BYTES) emit();
			chunk += piece;
			chunkBytes += bytes;
		};
		for (const part of [...parts, SYNC_END]) {
			let offset = 0;
			while (offset < part.length) {
				let end = Math.min(part.length, offset + SAFE_UNITS);
				if (end < part.length && isHighSurrogate(part.charCodeAt(end - 1))) end -= 1;
				add(part.slice(offset, end));
				offset = end;
			}
		}
		emit();
	}
}
