/**
 * Reading what a terminal shows: bytes go through a headless terminal emulator (@xterm/headless) and tests read the
 * resulting screen text, never the escape sequences. `VirtualTerminal` is a `Terminal` (the seam the TUI draws on)
 * backed by such an emulator, with the input side driven by the test.
 */
import { Terminal as XTerm } from "@xterm/headless";
import { TerminalCommands } from "../../src/tui/terminal-commands.ts";
import type { Terminal } from "../../src/tui/types.ts";

export interface Screen {
	/** Visible rows, right-trimmed. */
	lines: string[];
	/** Scrollback rows above the visible screen, oldest first, right-trimmed. */
	scrollback: string[];
	cursor: { row: number; col: number };
}

function makeXTerm(columns: number, rows: number, scrollback = 10_000): XTerm {
	return new XTerm({ cols: columns, rows, scrollback, allowProposedApi: true });
}

function readScreen(term: XTerm): Screen {
	const buffer = term.buffer.active;
	const all: string[] = [];
	for (let i = 0; i < buffer.length; i++) all.push(buffer.getLine(i)?.translateToString(true) ?? "");
	return {
		lines: all.slice(buffer.baseY, buffer.baseY + term.rows),
		scrollback: all.slice(0, buffer.baseY),
		cursor: { row: buffer.cursorY, col: buffer.cursorX },
	};
}

function flush(term: XTerm, data: string): Promise<void> {
	return new Promise((resolve) => term.write(data, resolve));
}

/** The screen after writing `bytes` to a fresh `columns`×`rows` terminal. */
export async function screenOf(bytes: string, columns: number, rows = 24): Promise<Screen> {
	const term = makeXTerm(columns, rows);
	await flush(term, bytes);
	const screen = readScreen(term);
	term.dispose();
	return screen;
}

/**
 * The rows a list of rendered lines shows on a terminal `columns` wide: each line is written on its own row (as the
 * TUI does, with a style reset after it), so styles, wide characters and OSC 8 links are interpreted by the emulator.
 */
export async function linesOnScreen(lines: string[], columns: number): Promise<string[]> {
	const rows = Math.max(1, lines.length);
	const bytes = lines.map((line) => `${line}\x1b[0m\x1b]8;;\x07`).join("\r\n");
	const screen = await screenOf(bytes, columns, rows);
	return [...screen.scrollback, ...screen.lines].slice(0, lines.length);
}

/** A `Terminal` backed by a headless emulator: what the TUI writes is interpreted, input comes from `send`. */
export class VirtualTerminal extends TerminalCommands implements Terminal {
	readonly xterm: XTerm;
	/** Every byte written, in order. */
	written = "";
	/** Byte count of each `write` call. */
	writes: number[] = [];
	private onInput?: (data: string) => void;
	private onResize?: () => void;
	private pending: Promise<void> = Promise.resolve();
	title = "";
	progress = false;
	kittyProtocolActive = false;

	constructor(columns = 80, rows = 24) {
		super();
		this.xterm = makeXTerm(columns, rows);
	}

	get columns(): number {
		return this.xterm.cols;
	}
	get rows(): number {
		return this.xterm.rows;
	}

	start(onInput: (data: string) => void, onResize: () => void): void {
		this.onInput = onInput;
		this.onResize = onResize;
	}
	stop(): void {
		this.onInput = undefined;
		this.onResize = undefined;
	}
	async drainInput(): Promise<void> {}
	write(data: string): void {
		this.written += data;
		this.writes.push(Buffer.byteLength(data));
		const term = this.xterm;
		this.pending = this.pending.then(() => flush(term, data));
	}
	setTitle(title: string): void {
		this.title = title;
	}
	setProgress(active: boolean): void {
		this.progress = active;
	}

	/** Deliver input as if typed. */
	send(data: string): void {
		this.onInput?.(data);
	}
	/** Change the size and tell the TUI, as a SIGWINCH would. */
	resize(columns: number, rows: number): void {
		this.xterm.resize(columns, rows);
		this.onResize?.();
	}
	/** The screen once everything written so far has been interpreted. */
	async screen(): Promise<Screen> {
		await this.pending;
		return readScreen(this.xterm);
	}
	dispose(): void {
		this.xterm.dispose();
	}
}
