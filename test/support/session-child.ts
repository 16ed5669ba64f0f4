/**
 * Child process for session tests. Modes:
 *   append <file>  open the session (retrying while the lock is held, up to 5 s), print "ready", then append
 *                  user/assistant messages of random size forever, printing each entry id after its write returned
 *                  (with a synchronous write to stdout, so nothing is left in a buffer when the process is killed)
 *   hold <file>    open the session, print "ready <pid>", then wait until killed
 */
import { writeSync } from "node:fs";
import { SessionLockedError, SessionManager } from "../../src/session/index.ts";

const [mode, file] = process.argv.slice(2);
if (!file) throw new Error("usage: session-child.ts append|hold <file>");

function openWithRetry(path: string): SessionManager {
	const deadline = Date.now() + 5000;
	for (;;) {
		try {
			return SessionManager.open(path);
		} catch (error) {
			if (!(error instanceof SessionLockedError) || Date.now() > deadline) throw error;
			Bun.sleepSync(50);
		}
	}
}

const manager = openWithRetry(file);
if (mode === "hold") {
	writeSync(1, `ready ${process.pid}\n`);
	setInterval(() => {}, 1 << 30);
} else {
	writeSync(1, "ready\n");
	const usage = {
		input: 1,
		output: 1,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 2,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
	for (let i = 0; ; i++) {
		const size = Math.random() < 0.1 ? 4000 + Math.floor(Math.random() * 16000) : 20 + Math.floor(Math.random() * 400);
		const text = "x".repeat(size);
		const id =
			i % 2 === 0
				? manager.appendMessage({ role: "user", content: text, timestamp: Date.now() })
				: manager.appendMessage({
						role: "assistant",
						content: [{ type: "text", text }],
						api: "faux",
						provider: "faux",
						model: "faux-1",
						usage,
						stopReason: "stop",
						timestamp: Date.now(),
					});
		// Synchronous: the id reaches the parent before the next append starts (stdout is a pipe).
		writeSync(1, `${id}\n`);
	}
}
