/**
 * Reading zip archives (the Windows release): the regular files, by path, found through the central directory.
 * Entries may be stored or deflated; every entry's size and CRC-32 are checked, so a cut or damaged archive is an
 * error rather than a short file. Zip64, encryption and multi-disk archives are not supported (a release never
 * uses them).
 */

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

export class ZipError extends Error {}

/** The regular files of a zip archive, by path (folders skipped). Throws a ZipError naming what is wrong. */
export function readZip(bytes: Uint8Array): Map<string, Uint8Array> {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const u16 = (at: number) => view.getUint16(at, true);
	const u32 = (at: number) => view.getUint32(at, true);
	// The end record is the last 22 bytes, or earlier when the archive carries a comment (at most 65,535 bytes).
	let end = -1;
	for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
		if (u32(at) === EOCD && at + 22 + u16(at + 20) === bytes.length) {
			end = at;
			break;
		}
	}
	if (end < 0) throw new ZipError("not a complete zip archive (no end of central directory)");
	const count = u16(end + 10);
	const centralSize = u32(end + 12);
	let at = u32(end + 16);
	if (u16(end + 4) !== 0 || count !== u16(end + 8)) throw new ZipError("multi-disk zip archives are not supported");
	if (at + centralSize > end) throw new ZipError("the central directory lies outside the archive");
	const files = new Map<string, Uint8Array>();
	const decoder = new TextDecoder();
	for (let i = 0; i < count; i++) {
		if (at + 46 > end || u32(at) !== CENTRAL) throw new ZipError(`entry ${i + 1}: damaged central directory`);
		const flags = u16(at + 8);
		const method = u16(at + 10);
		const crc = u32(at + 16);
		const packedSize = u32(at + 20);
		const size = u32(at + 24);
		const nameLength = u16(at + 28);
		const next = at + 46 + nameLength + u16(at + 30) + u16(at + 32);
		const local = u32(at + 42);
		const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
		at = next;
		if (name.endsWith("/")) continue;
		if (flags & 1) throw new ZipError(`${name}: encrypted entries are not supported`);
		if (local + 30 > bytes.length || u32(local) !== LOCAL) throw new ZipError(`${name}: damaged local header`);
		const start = local + 30 + u16(local + 26) + u16(local + 28);
		if (start + packedSize > bytes.length) throw new ZipError(`${name}: the archive is cut short`);
		const packed = bytes.subarray(start, start + packedSize);
		let data: Uint8Array;
		if (method === STORED) data = packed;
		else if (method === DEFLATED) {
			try {
				data = Bun.inflateSync(packed as Uint8Array<ArrayBuffer>);
			} catch {
				throw new ZipError(`${name}: damaged compressed data`);
			}
		} else throw new ZipError(`${name}: unsupported compression method ${method}`);
		if (data.length !== size || Bun.hash.crc32(data) >>> 0 !== crc) {
			throw new ZipError(`${name}: size or CRC-32 does not match (damaged archive)`);
		}
		files.set(name, data);
	}
	return files;
}
