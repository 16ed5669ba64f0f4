/**
 * Child process for the ProcessTerminal pseudo-terminal test: starts a ProcessTerminal, echoes every input it
 * receives with its parsed key id, and stops (twice, to show that is safe) when it reads "q". It then exits by
 * itself, which only happens when stop() released stdin and left no timers behind.
 */
import { isKittyProtocolActive, ProcessTerminal, parseKey } from "../../src/tui/index.ts";

const term = new ProcessTerminal();
term.start(
	(data) => {
		if (data === "q") {
			term.setProgress(false);
			term.stop();
			term.stop();
			process.stdout.write(`stopped raw=${process.stdin.isRaw} kitty=${isKittyProtocolActive()}\r\n`);
			return;
		}
		if (data === "d") {
			void term.drainInput(300, 100).then(() => term.write("drained\r\n"));
			return;
		}
		term.write(`key ${JSON.stringify(data)} ${parseKey(data) ?? "-"} kitty=${isKittyProtocolActive()}\r\n`);
	},
	() => term.write(`resize ${term.columns}x${term.rows}\r\n`),
);
term.hideCursor();
term.setTitle("pty test");
term.setProgress(true);
term.write(`started ${term.columns}x${term.rows} raw=${process.stdin.isRaw}\r\n`);
