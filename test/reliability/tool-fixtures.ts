/**
 * The hostile files of the tool reliability cases, shared by `tools-*.test.ts` and the reliability bench: what the
 * `read` tool is pointed at (a FIFO nobody writes, /dev/zero, a folder, a symlink loop, a 5 GB sparse file, binary,
 * Latin-1 and UTF-16 text), the files `edit` must change byte-exactly or refuse, and the lookup of processes a
 * bash command left behind.
 */
import { chmodSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ReadCase {
	name: string;
	/** Path given to the read tool (relative to the folder, or absolute). */
	path: string;
}

/** Creates the read targets in `dir`; cases whose facility is missing (mkfifo) are left out. */
export function makeReadCases(dir: string): ReadCase[] {
	const cases: ReadCase[] = [];
	if (Bun.spawnSync(["mkfifo", join(dir, "fifo")]).exitCode === 0) {
		cases.push({ name: "a FIFO nobody writes to", path: "fifo" });
	}
	cases.push({ name: "/dev/zero", path: "/dev/zero" });
	Bun.spawnSync(["mkdir", join(dir, "folder")]);
	cases.push({ name: "a directory", path: "folder" });
	symlinkSync("loop-b", join(dir, "loop-a"));
	symlinkSync("loop-a", join(dir, "loop-b"));
	cases.push({ name: "a symlink loop", path: "loop-a" });
	writeFileSync(join(dir, "sparse.img"), "");
	if (Bun.spawnSync(["truncate", "-s", "5G", join(dir, "sparse.img")]).exitCode === 0) {
		cases.push({ name: "a 5 GB sparse file", path: "sparse.img" });
	}
	writeFileSync(join(dir, "random.bin"), crypto.getRandomValues(new Uint8Array(1024 * 1024)));
	cases.push({ name: "1 MB of random bytes", path: "random.bin" });
	writeFileSync(join(dir, "latin1.txt"), Buffer.from("caf\xe9 na\xefve\nsecond line\n", "latin1"));
	cases.push({ name: "Latin-1 text (not UTF-8)", path: "latin1.txt" });
	writeFileSync(join(dir, "utf16.txt"), encode("utf16le", "first line\r\nsecond line\r\n"));
	cases.push({ name: "UTF-16 LE text with BOM", path: "utf16.txt" });
	return cases;
}

type Encoding = "utf8" | "utf8-bom" | "latin1" | "utf16le" | "utf16be";

/** Text as the bytes of a file in `encoding` (UTF-16 and "utf8-bom" with their byte-order mark). */
export function encode(encoding: Encoding, text: string): Buffer {
	switch (encoding) {
		case "utf8":
			return Buffer.from(text, "utf8");
		case "utf8-bom":
			return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]);
		case "latin1":
			return Buffer.from(text, "latin1");
		case "utf16le":
			return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
		case "utf16be":
			return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]);
	}
}

export interface EditCase {
	name: string;
	file: string;
	mode: number;
	before: Buffer;
	/** The bytes the file must hold after replacing "beta" with "BETA"; undefined when the edit must be refused. */
	after: Buffer | undefined;
}

const TEXT = "alpha caf\xe9\nbeta line\ngamma\n";

/** Writes the edit targets into `dir`; each must have "beta" replaced by "BETA" and nothing else changed. */
export function makeEditCases(dir: string): EditCase[] {
	const crlf = TEXT.replace(/\n/g, "\r\n");
	const specs: [string, string, Encoding, string, number][] = [
		["Latin-1", "latin1.txt", "latin1", TEXT, 0o644],
		["UTF-16 LE with BOM", "utf16le.txt", "utf16le", crlf, 0o644],
		["UTF-16 BE with BOM", "utf16be.txt", "utf16be", TEXT, 0o644],
		["CRLF", "crlf.txt", "utf8", crlf, 0o644],
		["UTF-8 with BOM", "bom.txt", "utf8-bom", TEXT, 0o644],
		["a 0755 script", "script.sh", "utf8", `#!/bin/sh\n${TEXT}`, 0o755],
	];
	const cases: EditCase[] = specs.map(([name, file, encoding, text, mode]) => ({
		name,
		file,
		mode,
		before: encode(encoding, text),
		after: encode(encoding, text.replace("beta", "BETA")),
	}));
	cases.push({
		name: "a read-only (0444) file",
		file: "readonly.txt",
		mode: 0o444,
		before: encode("utf8", TEXT),
		after: undefined,
	});
	for (const c of cases) {
		writeFileSync(join(dir, c.file), c.before);
		chmodSync(join(dir, c.file), c.mode);
	}
	return cases;
}

/** Pids of live processes whose command line contains `marker` (zombies excluded). */
export function processesWith(marker: string): number[] {
	const found: number[] = [];
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, "utf8");
			if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
			if (readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ").includes(marker))
				found.push(Number(name));
		} catch {
			// Ended while we looked.
		}
	}
	return found;
}

/** Kills the given processes (ones a test started and left behind). */
export function killAll(pids: number[]): void {
	for (const pid of pids) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// Already gone.
		}
	}
}

/** The files `pid` holds open (Linux: /proc/<pid>/fd) whose path starts with one of `prefixes`. */
export function openFilesUnder(pid: number, prefixes: string[]): string[] {
	const found: string[] = [];
	let fds: string[];
	try {
		fds = readdirSync(`/proc/${pid}/fd`);
	} catch {
		// Not Linux, or gone.
		return found;
	}
	for (const fd of fds) {
		try {
			const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
			if (prefixes.some((prefix) => target.startsWith(prefix))) found.push(target);
		} catch {
			// Closed while we looked.
		}
	}
	return found;
}
