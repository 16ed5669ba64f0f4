/**
 * A tiny ZIP reader for tests: walks the central directory and inflates each entry (stored or deflated), checking
 * every CRC-32, so a test can read what an archive holds without an unzip tool.
 */
export function readZip(bytes: Uint8Array): Map<string, string> {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let end = bytes.length - 22;
	while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
	if (end < 0) throw new Error("no end of central directory record");
	const count = view.getUint16(end + 10, true);
	let at = view.getUint32(end + 16, true);
	const files = new Map<string, string>();
	for (let i = 0; i < count; i++) {
		if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`bad central header at ${at}`);
		const method = view.getUint16(at + 10, true);
		const crc = view.getUint32(at + 16, true);
		const compressed = view.getUint32(at + 20, true);
		const size = view.getUint32(at + 24, true);
		const nameLength = view.getUint16(at + 28, true);
		const extra = view.getUint16(at + 30, true);
		const comment = view.getUint16(at + 32, true);
		const local = view.getUint32(at + 42, true);
		const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
		if (view.getUint32(local, true) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
		const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
		const body = bytes.subarray(start, start + compressed);
		const data = method === 8 ? Bun.inflateSync(body as Uint8Array<ArrayBuffer>) : method === 0 ? body : undefined;
		if (!data) throw new Error(`${name}: unknown method ${method}`);
		if (data.length !== size) throw new Error(`${name}: ${data.length} bytes, header says ${size}`);
		if (Bun.hash.crc32(data) >>> 0 !== crc) throw new Error(`${name}: CRC mismatch`);
		files.set(name, new TextDecoder().decode(data));
		at += 46 + nameLength + extra + comment;
	}
	return files;
}
