/** What a built binary is, read from its header: format, CPU, and for Mach-O whether it carries a code signature. */

export interface BinaryFacts {
	format: "elf" | "mach-o" | "pe" | "unknown";
	arch: "x64" | "arm64" | "unknown";
	/** Mach-O only: an LC_CODE_SIGNATURE load command is present. */
	signed?: boolean;
}

const EM_X86_64 = 62;
const EM_AARCH64 = 183;
const CPU_TYPE_X86_64 = 0x01000007;
const CPU_TYPE_ARM64 = 0x0100000c;
const LC_CODE_SIGNATURE = 0x1d;

export function inspectBinary(bytes: Uint8Array): BinaryFacts {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46) {
		const machine = view.getUint16(18, true);
		return { format: "elf", arch: machine === EM_X86_64 ? "x64" : machine === EM_AARCH64 ? "arm64" : "unknown" };
	}
	if (view.getUint32(0, true) === 0xfeedfacf) {
		const cpu = view.getUint32(4, true);
		const commands = view.getUint32(16, true);
		let offset = 32;
		let signed = false;
		for (let i = 0; i < commands && offset + 8 <= bytes.length; i++) {
			if (view.getUint32(offset, true) === LC_CODE_SIGNATURE) signed = true;
			offset += view.getUint32(offset + 4, true);
		}
		return {
			format: "mach-o",
			arch: cpu === CPU_TYPE_X86_64 ? "x64" : cpu === CPU_TYPE_ARM64 ? "arm64" : "unknown",
			signed,
		};
	}
	if (bytes[0] === 0x4d && bytes[1] === 0x5a) {
		const pe = view.getUint32(0x3c, true);
		const machine = view.getUint16(pe + 4, true);
		return { format: "pe", arch: machine === 0x8664 ? "x64" : machine === 0xaa64 ? "arm64" : "unknown" };
	}
	return { format: "unknown", arch: "unknown" };
}
