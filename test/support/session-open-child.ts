/**
 * Child process for the memory cases: `session-open-child.ts <file>` loads the session (read-only, as the
 * session layer opens it: lines indexed, message lines parsed on first use) and prints "peak <bytes>", its peak RSS.
 */
import { readFileSync } from "node:fs";
import { SessionManager } from "../../src/session/index.ts";

const file = process.argv[2];
if (!file) throw new Error("usage: session-open-child.ts <file>");
const m = SessionManager.open(file, undefined, undefined, { readOnly: true });
if (m.getLeafId() === null) throw new Error(`no entries in ${file}`);
const status = readFileSync("/proc/self/status", "utf8");
console.log(`peak ${Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) * 1024}`);
