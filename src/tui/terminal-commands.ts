/** The cursor and screen commands every `Terminal` sends the same way, written through its own `write`. */
import type { Terminal } from "./types.ts";

export abstract class TerminalCommands
	implements Pick<Terminal, "moveBy" | "hideCursor" | "showCursor" | "clearLine" | "clearFromCursor" | "clearScreen">
{
	abstract write(data: string): void;

	moveBy(lines: number): void {
		if (lines > 0) this.write(`\x1b[${lines}B`);
		else if (lines < 0) this.write(`\x1b[${-lines}A`);
	}

	hideCursor(): void {
		this.write("\x1b[?25l");
	}

	showCursor(): void {
		this.write("\x1b[?25h");
	}

	clearLine(): void {
		this.write("\x1b[K");
	}

	clearFromCursor(): void {
		this.write("\x1b[J");
	}

	clearScreen(): void {
		this.write("\x1b[2J\x1b[H");
	}
}
