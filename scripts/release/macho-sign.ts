/**
 * Ad-hoc code signatures of Mach-O binaries, checked and repaired without Apple's tools. A signature's
 * CodeDirectory holds a hash of every page of the file up to `codeLimit`; macOS on Apple silicon refuses to start a
 * binary whose hashes do not match. Bun writes the signature when it compiles for darwin, but some of its targets
 * leave hashes of the runtime's bytes before the app was appended: `resignAdHoc` recomputes every page hash in place.
 */
import { createHash } from "node:crypto";

const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CS_HASHTYPE_SHA1 = 1;
const CS_HASHTYPE_SHA256 = 2;

interface CodeDirectory {
	/** Where the CodeDirectory blob starts in the file. */
	offset: number;
	hashOffset: number;
	hashSize: number;
	hashType: number;
	nCodeSlots: number;
	codeLimit: number;
	pageSize: number;
}

function codeDirectories(bytes: Uint8Array): CodeDirectory[] {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (view.getUint32(0, true) !== 0xfeedfacf) throw new Error("not a 64-bit Mach-O binary");
	const commands = view.getUint32(16, true);
	let at = 32;
	let signature: number | undefined;
	for (let i = 0; i < commands; i++) {
		if (view.getUint32(at, true) === LC_CODE_SIGNATURE) signature = view.getUint32(at + 8, true);
		at += view.getUint32(at + 4, true);
	}
	if (signature === undefined) throw new Error("the binary has no code signature");
	// The signature's blobs are big-endian.
	if (view.getUint32(signature) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new Error("malformed code signature");
	const count = view.getUint32(signature + 8);
	const out: CodeDirectory[] = [];
	for (let i = 0; i < count; i++) {
		const blob = signature + view.getUint32(signature + 12 + i * 8 + 4);
		if (view.getUint32(blob) !== CSMAGIC_CODEDIRECTORY) continue;
		out.push({
			offset: blob,
			hashOffset: view.getUint32(blob + 16),
			nCodeSlots: view.getUint32(blob + 28),
			codeLimit: view.getUint32(blob + 32),
			hashSize: view.getUint8(blob + 36),
			hashType: view.getUint8(blob + 37),
			pageSize: 2 ** view.getUint8(blob + 39),
		});
	}
	if (out.length === 0) throw new Error("the code signature has no CodeDirectory");
	return out;
}

function pageHash(cd: CodeDirectory, page: Uint8Array): Uint8Array {
	const algorithm = cd.hashType === CS_HASHTYPE_SHA256 ? "sha256" : cd.hashType === CS_HASHTYPE_SHA1 ? "sha1" : "";
	if (!algorithm) throw new Error(`unsupported code signature hash type ${cd.hashType}`);
	return new Uint8Array(createHash(algorithm).update(page).digest()).subarray(0, cd.hashSize);
}

/** The pages whose hash does not match (empty: the signature is valid for the code it covers). */
export function staleSignaturePages(bytes: Uint8Array): number[] {
	const stale: number[] = [];
	for (const cd of codeDirectories(bytes)) {
		for (let slot = 0; slot < cd.nCodeSlots; slot++) {
			const start = slot * cd.pageSize;
			const page = bytes.subarray(start, Math.min(start + cd.pageSize, cd.codeLimit));
			const stored = bytes.subarray(
				cd.offset + cd.hashOffset + slot * cd.hashSize,
				cd.offset + cd.hashOffset + (slot + 1) * cd.hashSize,
			);
			const actual = pageHash(cd, page);
			if (!stored.every((byte, i) => byte === actual[i])) stale.push(slot);
		}
	}
	return stale;
}

/** Rewrites every page hash of every CodeDirectory in place; returns how many changed. */
export function resignAdHoc(bytes: Uint8Array): number {
	let changed = 0;
	for (const cd of codeDirectories(bytes)) {
		if (Math.ceil(cd.codeLimit / cd.pageSize) !== cd.nCodeSlots) {
			throw new Error("the code signature does not cover the whole binary (codeLimit and slots disagree)");
		}
		for (let slot = 0; slot < cd.nCodeSlots; slot++) {
			const start = slot * cd.pageSize;
			const actual = pageHash(cd, bytes.subarray(start, Math.min(start + cd.pageSize, cd.codeLimit)));
			const at = cd.offset + cd.hashOffset + slot * cd.hashSize;
			if (!bytes.subarray(at, at + cd.hashSize).every((byte, i) => byte === actual[i])) {
				bytes.set(actual, at);
				changed++;
			}
		}
	}
	return changed;
}
