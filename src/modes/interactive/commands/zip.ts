/**
 * A minimal ZIP archive writer (PKWARE APPNOTE 6.3): each file DEFLATE-compressed (raw deflate through Bun,
 * kept stored when that would not be smaller), CRC-32 from Bun, UTF-8 names, one central directory, no ZIP64
 * (archives stay far below 4 GiB). Enough for the local bug report; `unzip`, Finder and Explorer read it.
 */

export interface ZipEntry {
	/** Path inside the archive, `/`-separated. */
	name: string;
	data: string | Uint8Array;
	/** Modification time; default now. */
	date?: Date;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
/** General purpose flag bit 11: the name is UTF-8. */
const UTF8_NAMES = 0x0800;
const VERSION = 20;

/** MS-DOS time and date fields (two-second resolution, years from 1980). */
function dosDateTime(date: Date): { time: number; day: number } {
	const year = Math.max(1980, Math.min(2107, date.getFullYear()));
	return {
		time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
		day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
	};
}

interface Prepared {
	name: Uint8Array;
	method: 0 | 8;
	crc: number;
	size: number;
	body: Uint8Array;
	time: number;
	day: number;
	offset: number;
}

function prepare(entry: ZipEntry): Prepared {
	const raw = typeof entry.data === "string" ? new TextEncoder().encode(entry.data) : entry.data;
	const deflated = Bun.deflateSync(raw as Uint8Array<ArrayBuffer>);
	const compress = deflated.length < raw.length;
	const { time, day } = dosDateTime(entry.date ?? new Date());
	return {
		name: new TextEncoder().encode(entry.name),
		method: compress ? 8 : 0,
		crc: Bun.hash.crc32(raw) >>> 0,
		size: raw.length,
		body: compress ? deflated : raw,
		time,
		day,
		offset: 0,
	};
}

/** The bytes of a ZIP archive holding `entries` in order. */
export function zipArchive(entries: readonly ZipEntry[]): Uint8Array {
	const files = entries.map(prepare);
	const localSize = files.reduce((sum, f) => sum + 30 + f.name.length + f.body.length, 0);
	const centralSize = files.reduce((sum, f) => sum + 46 + f.name.length, 0);
	const out = new Uint8Array(localSize + centralSize + 22);
	const view = new DataView(out.buffer);
	let at = 0;
	const u16 = (value: number) => {
		view.setUint16(at, value, true);
		at += 2;
	};
	const u32 = (value: number) => {
		view.setUint32(at, value >>> 0, true);
		at += 4;
	};
	const bytes = (value: Uint8Array) => {
		out.set(value, at);
		at += value.length;
	};
	/** The fields local and central headers share, from "version needed" to the name length. */
	const common = (f: Prepared) => {
		u16(VERSION);
		u16(UTF8_NAMES);
		u16(f.method);
		u16(f.time);
		u16(f.day);
		u32(f.crc);
		u32(f.body.length);
		u32(f.size);
		u16(f.name.length);
	};
	for (const f of files) {
		f.offset = at;
		u32(LOCAL_HEADER);
		common(f);
		u16(0); // extra field length
		bytes(f.name);
		bytes(f.body);
	}
	const centralStart = at;
	for (const f of files) {
		u32(CENTRAL_HEADER);
		u16(VERSION); // made by: MS-DOS attributes, version 2.0
		common(f);
		u16(0); // extra field length
		u16(0); // comment length
		u16(0); // disk number
		u16(0); // internal attributes
		u32(0); // external attributes
		u32(f.offset);
		bytes(f.name);
	}
	u32(END_OF_CENTRAL);
	u16(0); // this disk
	u16(0); // disk with the central directory
	u16(files.length);
	u16(files.length);
	u32(centralSize);
	u32(centralStart);
	u16(0); // comment length
	return out;
}
