/**
 * Child process for the migration crash test: `session-migrate-child.ts <file> <n>` opens `file` (which migrates
 * an old one) through file operations that SIGKILL this process at the n-th operation (open, write, fsync,
 * truncate or rename; each write counts twice, before and after its first half), as kill -9 would stop it there.
 * Prints "done <operations>" when it got through (n = -1 never kills).
 */
import { writeSync } from "node:fs";
import { realFileOps, type SessionFileOps, SessionManager } from "../../src/session/index.ts";

const [file, at] = process.argv.slice(2);
if (!file || at === undefined) throw new Error("usage: session-migrate-child.ts <file> <n>");
let count = 0;
const step = () => {
	if (count++ === Number(at)) process.kill(process.pid, "SIGKILL");
};
const ops: SessionFileOps = {
	open: (path, flags) => {
		step();
		return realFileOps.open(path, flags);
	},
	write: (fd, buffer, offset, length) => {
		step();
		// Half of the bytes first, so a kill can also land between two parts of one write.
		const half = Math.max(1, Math.floor(length / 2));
		const n = realFileOps.write(fd, buffer, offset, half);
		step();
		return n;
	},
	fsync: (fd) => {
		step();
		realFileOps.fsync(fd);
	},
	truncate: (fd, length) => {
		step();
		realFileOps.truncate(fd, length);
	},
	rename: (from, to) => {
		step();
		realFileOps.rename(from, to);
	},
};
SessionManager.open(file, undefined, undefined, { fileOps: ops }).close();
writeSync(1, `done ${count}\n`);
