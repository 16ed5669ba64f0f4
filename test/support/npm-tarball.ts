/**
 * npm package tarballs built in memory: a ustar archive with every file under `package/` (as `npm pack` writes it),
 * gzip-compressed, and the `dist` fields a packument gives for it (sha512 SRI integrity, sha1 shasum).
 */
import { createHash } from "node:crypto";

const encoder = new TextEncoder();
/** npm pack's fixed mtime (1985-10-26T08:15:00Z), so equal contents give equal bytes. */
const MTIME = 499162500;

function octal(value: number, width: number): string {
	return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

/** The ustar name/prefix split of `path`, or undefined when it fits neither way (a pax header carries it). */
function ustarSplit(path: string): { name: string; prefix: string } | undefined {
	const length = (text: string) => encoder.encode(text).length;
	if (length(path) <= 100) return { name: path, prefix: "" };
	for (let cut = path.indexOf("/"); cut > 0; cut = path.indexOf("/", cut + 1)) {
		const prefix = path.slice(0, cut);
		const name = path.slice(cut + 1);
		if (length(prefix) <= 155 && length(name) <= 100) return { name, prefix };
	}
	return undefined;
}

function header(path: string, size: number, mode: number, type: "0" | "x"): Uint8Array {
	const block = new Uint8Array(512);
	const put = (text: string, at: number, width: number) => block.set(encoder.encode(text).subarray(0, width), at);
	const { name, prefix } = ustarSplit(path) ?? { name: path.slice(-100), prefix: "" };
	put(name, 0, 100);
	put(octal(mode, 8), 100, 8);
	put(octal(0, 8), 108, 8);
	put(octal(0, 8), 116, 8);
	put(octal(size, 12), 124, 12);
	put(octal(MTIME, 12), 136, 12);
	put("        ", 148, 8);
	put(type, 156, 1);
	put("ustar\u000000", 257, 8);
	put(prefix, 345, 155);
	let sum = 0;
	for (const byte of block) sum += byte;
	put(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8);
	return block;
}

function padded(body: Uint8Array): Uint8Array {
	const out = new Uint8Array(Math.ceil(body.length / 512) * 512);
	out.set(body);
	return out;
}

/** A pax header carrying a path too long for the ustar name/prefix fields. */
function paxPath(path: string): Uint8Array[] {
	let record = ` path=${path}\n`;
	let length = encoder.encode(record).length;
	length += String(length + String(length).length).length;
	record = `${length}${record}`;
	const body = encoder.encode(record);
	return [header("PaxHeader", body.length, 0o644, "x"), padded(body)];
}

/** A tar archive of `files` (relative path → content), each under `package/`, in path order. */
export function tarFiles(files: Record<string, string | Uint8Array>, root = "package"): Uint8Array {
	const parts: Uint8Array[] = [];
	for (const rel of Object.keys(files).sort()) {
		const content = files[rel] as string | Uint8Array;
		const body = typeof content === "string" ? encoder.encode(content) : content;
		const path = `${root}/${rel.replace(/^\/+/, "")}`;
		const mode = /(^|\/)bin\//.test(rel) ? 0o755 : 0o644;
		if (!ustarSplit(path)) parts.push(...paxPath(path));
		parts.push(header(path, body.length, mode, "0"), padded(body));
	}
	parts.push(new Uint8Array(1024));
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}

/** A gzip-compressed npm tarball of `files` (relative path → content). */
export function packTgz(files: Record<string, string | Uint8Array>): Uint8Array {
	return Bun.gzipSync(tarFiles(files) as Uint8Array<ArrayBuffer>);
}

/** The packument `dist` fields for tarball bytes. */
export function distOf(bytes: Uint8Array): { integrity: string; shasum: string } {
	return {
		integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
		shasum: createHash("sha1").update(bytes).digest("hex"),
	};
}
