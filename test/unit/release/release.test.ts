/**
 * The release script's pieces: deterministic archives, binary inspection, Mach-O ad-hoc signatures, targets, and the
 * size report against pi's release.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { readTgz, tarGz, zip } from "../../../scripts/release/archive.ts";
import { inspectBinary } from "../../../scripts/release/inspect.ts";
import { resignAdHoc, staleSignaturePages } from "../../../scripts/release/macho-sign.ts";
import { compareSize, sizeTable } from "../../../scripts/release/size-report.ts";
import { archiveName, selectTargets, TARGETS } from "../../../scripts/release/targets.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const payload = new Uint8Array(70_000).map((_, i) => (i * 7) % 251);
const MTIME = 1_790_000_000;

describe("archives", () => {
	test("tar.gz: the same input gives the same bytes; our reader and the system tar read it back", () => {
		const entries = [{ name: "pi", data: payload, mode: 0o755 }];
		const a = tarGz(entries, MTIME);
		expect(tarGz(entries, MTIME)).toEqual(a);
		expect(readTgz(a).get("pi")).toEqual(payload);
		if (!Bun.which("tar")) {
			console.log("release archives: tar is not installed; only our reader checked the archive");
			return;
		}
		const dir = makeTempDir("pi-tar-");
		writeFileSync(join(dir, "a.tar.gz"), a);
		mkdirSync(join(dir, "out"));
		const run = Bun.spawnSync(["tar", "-xzf", "a.tar.gz", "-C", "out"], { cwd: dir });
		expect(run.exitCode).toBe(0);
		expect(new Uint8Array(readFileSync(join(dir, "out", "pi")))).toEqual(payload);
		const listing = Bun.spawnSync(["tar", "-tvzf", "a.tar.gz"], { cwd: dir }).stdout.toString();
		expect(listing).toStartWith("-rwxr-xr-x");
	});

	test("zip: one deflated entry with its CRC, size and Unix mode, byte-identical on a rebuild", () => {
		const a = zip([{ name: "pi.exe", data: payload, mode: 0o755 }], MTIME);
		expect(zip([{ name: "pi.exe", data: payload, mode: 0o755 }], MTIME)).toEqual(a);
		const view = new DataView(a.buffer, a.byteOffset, a.byteLength);
		expect(view.getUint32(0, true)).toBe(0x04034b50);
		const packedSize = view.getUint32(18, true);
		const nameLength = view.getUint16(26, true);
		expect(new TextDecoder().decode(a.subarray(30, 30 + nameLength))).toBe("pi.exe");
		const data = inflateRawSync(a.subarray(30 + nameLength, 30 + nameLength + packedSize));
		expect(new Uint8Array(data)).toEqual(payload);
		expect(view.getUint32(14, true)).toBe(Bun.hash.crc32(payload) >>> 0);
		const end = a.length - 22;
		expect(view.getUint32(end, true)).toBe(0x06054b50);
		const central = view.getUint32(end + 16, true);
		expect(view.getUint32(central + 38, true) >>> 16).toBe(0o100755);
	});
});

/** A minimal 64-bit Mach-O: header, one LC_CODE_SIGNATURE command, code pages, then a signature over them. */
function machO(pages: number): Uint8Array {
	const pageSize = 4096;
	const codeLimit = pages * pageSize;
	const hashOffset = 88;
	const cdLength = hashOffset + pages * 32;
	const sigLength = 20 + cdLength;
	const bytes = new Uint8Array(codeLimit + sigLength);
	const v = new DataView(bytes.buffer);
	v.setUint32(0, 0xfeedfacf, true);
	v.setUint32(4, 0x0100000c, true); // arm64
	v.setUint32(16, 1, true);
	v.setUint32(32, 0x1d, true);
	v.setUint32(36, 16, true);
	v.setUint32(40, codeLimit, true);
	v.setUint32(44, sigLength, true);
	for (let i = 48; i < codeLimit; i++) bytes[i] = (i * 13) % 256;
	const sig = codeLimit;
	v.setUint32(sig, 0xfade0cc0);
	v.setUint32(sig + 4, sigLength);
	v.setUint32(sig + 8, 1);
	v.setUint32(sig + 12, 0);
	v.setUint32(sig + 16, 20);
	const cd = sig + 20;
	v.setUint32(cd, 0xfade0c02);
	v.setUint32(cd + 4, cdLength);
	v.setUint32(cd + 16, hashOffset);
	v.setUint32(cd + 28, pages);
	v.setUint32(cd + 32, codeLimit);
	v.setUint8(cd + 36, 32);
	v.setUint8(cd + 37, 2);
	v.setUint8(cd + 39, 12);
	for (let p = 0; p < pages; p++) {
		const hash = createHash("sha256")
			.update(bytes.subarray(p * pageSize, (p + 1) * pageSize))
			.digest();
		bytes.set(hash, cd + hashOffset + p * 32);
	}
	return bytes;
}

describe("Mach-O ad-hoc signatures", () => {
	test("a valid signature has no stale pages; a changed page is found and re-signing repairs it", () => {
		const binary = machO(4);
		expect(inspectBinary(binary)).toEqual({ format: "mach-o", arch: "arm64", signed: true });
		expect(staleSignaturePages(binary)).toEqual([]);
		const flip = (at: number) => binary.set([(binary[at] ?? 0) ^ 0xff], at);
		flip(2 * 4096 + 100);
		flip(100);
		expect(staleSignaturePages(binary)).toEqual([0, 2]);
		expect(resignAdHoc(binary)).toBe(2);
		expect(staleSignaturePages(binary)).toEqual([]);
	});

	test("a binary without a signature is reported as such", () => {
		const binary = machO(1);
		new DataView(binary.buffer).setUint32(32, 0x19, true);
		expect(inspectBinary(binary).signed).toBe(false);
		expect(() => staleSignaturePages(binary)).toThrow("the binary has no code signature");
	});
});

describe("binary headers and targets", () => {
	test("ELF and PE headers name their CPU", () => {
		const elf = new Uint8Array(64);
		elf.set([0x7f, 0x45, 0x4c, 0x46]);
		new DataView(elf.buffer).setUint16(18, 183, true);
		expect(inspectBinary(elf)).toEqual({ format: "elf", arch: "arm64" });
		const pe = new Uint8Array(256);
		pe.set([0x4d, 0x5a]);
		new DataView(pe.buffer).setUint32(0x3c, 128, true);
		new DataView(pe.buffer).setUint16(132, 0x8664, true);
		expect(inspectBinary(pe)).toEqual({ format: "pe", arch: "x64" });
	});

	test("eight targets; archive names; an unknown target is a one-line error naming it", () => {
		expect(TARGETS.map((t) => archiveName(t))).toEqual([
			"pi-linux-x64.tar.gz",
			"pi-linux-x64-baseline.tar.gz",
			"pi-linux-arm64.tar.gz",
			"pi-linux-x64-musl.tar.gz",
			"pi-linux-arm64-musl.tar.gz",
			"pi-darwin-x64.tar.gz",
			"pi-darwin-arm64.tar.gz",
			"pi-windows-x64.zip",
		]);
		expect(selectTargets("darwin-arm64,linux-x64").map((t) => t.bunTarget)).toEqual([
			"bun-darwin-arm64",
			"bun-linux-x64",
		]);
		expect(() => selectTargets("linux-riscv")).toThrow('--targets: unknown target "linux-riscv"');
	});
});

describe("size report", () => {
	const pi = { target: "linux-x64", piVersion: "0.87.1", binarySize: 100 << 20, archiveSize: 50 << 20, archive: "x" };
	test("an archive no larger than pi's passes; a larger one is named, whatever the binaries' sizes", () => {
		const within = compareSize({ target: "linux-x64", binarySize: 101 << 20, archiveSize: 50 << 20 }, pi);
		expect(within.ok).toBe(true);
		expect(within.binaryRatio).toBeCloseTo(1.01, 5);
		const over = compareSize({ target: "darwin-arm64", binarySize: 90 << 20, archiveSize: (50 << 20) + 1 }, pi);
		expect(over.ok).toBe(false);
		const lines = sizeTable([within, over]);
		expect(lines).toHaveLength(4);
		expect(lines[1]).toMatch(/^linux-x64 +101\.0 +50\.0 +100\.0 +50\.0 +1\.010 +1\.000 *$/);
		expect(lines[2]).toEndWith("LARGER THAN PI'S");
		expect(lines[3]).toBe("size: our archive is larger than pi's for darwin-arm64");
	});
});
