/** The zip reader behind `pi update` on Windows: deflated and stored entries, folders, and damaged archives. */
import { describe, expect, test } from "bun:test";
import { zip } from "../../../scripts/release/archive.ts";
import { readZip, ZipError } from "../../../src/util/zip.ts";

const text = (s: string) => new TextEncoder().encode(s);

/** A one-entry zip whose entry is stored (not compressed), with a folder entry before it and an archive comment. */
function storedZip(name: string, data: Uint8Array): Uint8Array {
	const parts: number[] = [];
	/** Little-endian fields given as [width in bytes, value] pairs, then raw bytes. */
	const put = (fields: Array<[2 | 4, number]>, ...raw: Uint8Array[]) => {
		for (const [width, value] of fields) for (let i = 0; i < width; i++) parts.push((value >>> (8 * i)) & 0xff);
		for (const bytes of raw) parts.push(...bytes);
	};
	const entries = [
		{ name: text("bin/"), data: new Uint8Array(0), crc: 0 },
		{ name: text(name), data, crc: Bun.hash.crc32(data) >>> 0 },
	];
	const offsets: number[] = [];
	for (const e of entries) {
		offsets.push(parts.length);
		const sizes: Array<[2 | 4, number]> = [
			[4, e.crc],
			[4, e.data.length],
			[4, e.data.length],
			[2, e.name.length],
		];
		put([[4, 0x04034b50], [2, 10], [2, 0], [2, 0], [2, 0], [2, 0], ...sizes, [2, 0]], e.name, e.data);
	}
	const central = parts.length;
	entries.forEach((e, i) => {
		const sizes: Array<[2 | 4, number]> = [
			[4, e.crc],
			[4, e.data.length],
			[4, e.data.length],
			[2, e.name.length],
		];
		const rest: Array<[2 | 4, number]> = [
			[2, 0],
			[2, 0],
			[2, 0],
			[2, 0],
			[4, 0],
			[4, offsets[i] as number],
		];
		put([[4, 0x02014b50], [2, 20], [2, 10], [2, 0], [2, 0], [2, 0], [2, 0], ...sizes, ...rest], e.name);
	});
	const comment = text("made by a test");
	const size = parts.length - central;
	put(
		[
			[4, 0x06054b50],
			[2, 0],
			[2, 0],
			[2, 2],
			[2, 2],
			[4, size],
			[4, central],
			[2, comment.length],
		],
		comment,
	);
	return new Uint8Array(parts);
}

describe("readZip", () => {
	test("reads what the release archiver writes (deflated) and a stored entry behind a folder and a comment", () => {
		const exe = new Uint8Array(200_000).map((_, i) => (i * 7) % 251);
		const files = readZip(zip([{ name: "pi.exe", data: exe, mode: 0o755 }], 1_700_000_000));
		expect([...files.keys()]).toEqual(["pi.exe"]);
		expect(files.get("pi.exe")).toEqual(exe);
		const stored = readZip(storedZip("bin/pi.exe", text("MZ stand-in")));
		expect([...stored.keys()]).toEqual(["bin/pi.exe"]);
		expect(new TextDecoder().decode(stored.get("bin/pi.exe"))).toBe("MZ stand-in");
	});

	test("a cut, damaged or foreign archive is a ZipError naming what is wrong", () => {
		const good = zip([{ name: "pi.exe", data: text("x".repeat(5000)), mode: 0o755 }], 1_700_000_000);
		const fails = (bytes: Uint8Array) => {
			try {
				readZip(bytes);
			} catch (error) {
				expect(error).toBeInstanceOf(ZipError);
				return (error as Error).message;
			}
			return "read without error";
		};
		expect(fails(good.subarray(0, good.length - 5))).toBe("not a complete zip archive (no end of central directory)");
		expect(fails(text("<!doctype html><html></html>"))).toBe(
			"not a complete zip archive (no end of central directory)",
		);
		const flipped = new Uint8Array(good);
		flipped[40] = (flipped[40] ?? 0) ^ 0xff; // inside the compressed data
		expect(fails(flipped)).toMatch(/^pi\.exe: (damaged compressed data|size or CRC-32 does not match)/);
		const storedBytes = storedZip("pi.exe", text("MZ stand-in"));
		const badCrc = new Uint8Array(storedBytes);
		badCrc[30 + 4 + 30 + 6] = 0x4e; // the stored body's first byte, after the folder's and its own local header
		expect(fails(badCrc)).toBe("pi.exe: size or CRC-32 does not match (damaged archive)");
	});
});
