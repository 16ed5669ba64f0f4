/**
 * Deterministic archives for release assets, written by hand so the same input gives the same bytes on every
 * machine: `.tar.gz` (ustar, owner 0, fixed mtime) and `.zip` (deflate, fixed DOS time), plus a reader for the
 * `.tgz` packages npm serves (`readTgz`, shared with `pi update`).
 */
import { deflateRawSync } from "node:zlib";

export { readTgz } from "../../src/util/tgz.ts";

export interface ArchiveEntry {
	name: string;
	data: Uint8Array;
	/** Unix permission bits (0o755 for executables). */
	mode: number;
}

const encoder = new TextEncoder();

function octal(value: number, width: number): string {
	return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function tarHeader(entry: ArchiveEntry, mtime: number): Uint8Array {
	const header = new Uint8Array(512);
	const put = (offset: number, text: string) => header.set(encoder.encode(text), offset);
	const name = encoder.encode(entry.name);
	if (name.length > 100) throw new Error(`archive: entry name longer than 100 bytes: ${entry.name}`);
	header.set(name, 0);
	put(100, octal(entry.mode, 8));
	put(108, octal(0, 8));
	put(116, octal(0, 8));
	put(124, octal(entry.data.length, 12));
	put(136, octal(mtime, 12));
	put(148, "        ");
	put(156, "0");
	put(257, "ustar\0");
	put(263, "00");
	let sum = 0;
	for (const byte of header) sum += byte;
	put(148, `${sum.toString(8).padStart(6, "0")}\0 `);
	return header;
}

/** A gzip-compressed ustar archive of `entries`, every entry dated `mtime` (seconds since 1970). */
export function tarGz(entries: readonly ArchiveEntry[], mtime: number): Uint8Array {
	const parts: Uint8Array[] = [];
	for (const entry of entries) {
		parts.push(tarHeader(entry, mtime), entry.data);
		const pad = (512 - (entry.data.length % 512)) % 512;
		if (pad > 0) parts.push(new Uint8Array(pad));
	}
	parts.push(new Uint8Array(1024));
	// Bun's gzip writes no name and a zero timestamp, so the bytes depend on the content only.
	return Bun.gzipSync(concat(parts) as Uint8Array<ArrayBuffer>, { level: 9 });
}

function dosDateTime(seconds: number): { time: number; date: number } {
	const d = new Date(Math.max(seconds, 315532800) * 1000); // DOS dates start in 1980
	return {
		time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
		date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
	};
}

/** A zip archive of `entries` (deflated), every entry dated `mtime`. */
export function zip(entries: readonly ArchiveEntry[], mtime: number): Uint8Array {
	const { time, date } = dosDateTime(mtime);
	const locals: Uint8Array[] = [];
	const centrals: Uint8Array[] = [];
	let offset = 0;
	for (const entry of entries) {
		const name = encoder.encode(entry.name);
		const packed = deflateRawSync(entry.data, { level: 9 });
		const crc = Bun.hash.crc32(entry.data) >>> 0;
		const local = new DataView(new ArrayBuffer(30));
		local.setUint32(0, 0x04034b50, true);
		local.setUint16(4, 20, true);
		local.setUint16(8, 8, true);
		local.setUint16(10, time, true);
		local.setUint16(12, date, true);
		local.setUint32(14, crc, true);
		local.setUint32(18, packed.length, true);
		local.setUint32(22, entry.data.length, true);
		local.setUint16(26, name.length, true);
		locals.push(new Uint8Array(local.buffer), name, packed);
		const central = new DataView(new ArrayBuffer(46));
		central.setUint32(0, 0x02014b50, true);
		central.setUint16(4, (3 << 8) | 20, true); // made by Unix, so the permission bits are kept
		central.setUint16(6, 20, true);
		central.setUint16(10, 8, true);
		central.setUint16(12, time, true);
		central.setUint16(14, date, true);
		central.setUint32(16, crc, true);
		central.setUint32(20, packed.length, true);
		central.setUint32(24, entry.data.length, true);
		central.setUint16(28, name.length, true);
		central.setUint32(38, ((0o100000 | entry.mode) << 16) >>> 0, true);
		central.setUint32(42, offset, true);
		centrals.push(new Uint8Array(central.buffer), name);
		offset += 30 + name.length + packed.length;
	}
	const centralBytes = concat(centrals);
	const end = new DataView(new ArrayBuffer(22));
	end.setUint32(0, 0x06054b50, true);
	end.setUint16(8, entries.length, true);
	end.setUint16(10, entries.length, true);
	end.setUint32(12, centralBytes.length, true);
	end.setUint32(16, offset, true);
	return concat([...locals, centralBytes, new Uint8Array(end.buffer)]);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}
