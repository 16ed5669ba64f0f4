/**
 * ProcessTerminal: the `Terminal` a TUI draws on when it runs in this process's own terminal (stdin/stdout).
 * Start: raw mode, bracketed paste, resize listener, keyboard negotiation (ask for the kitty keyboard protocol,
 * flags 1+2+4, with a device-attributes query as sentinel; a terminal that answers DA without kitty flags gets
 * xterm modifyOtherKeys level 2 instead), input split into single sequences by StdinBuffer. Stop undoes all of it.
 * `PI_TUI_WRITE_LOG=<file|dir>` appends a copy of every byte written (in a dir: one `tui-<time>-<pid>.log` per run).
 */
import { join } from "node:path";
import { closeSync, openSync, statSync, writeStdout, writeSync } from "../util/index.ts";
import { setKittyProtocolActive } from "./key-decode.ts";
import { StdinBuffer } from "./stdin-buffer.ts";
import { TerminalCommands } from "./terminal-commands.ts";
import type { Terminal } from "./types.ts";

const KITTY_FLAGS = 7; // disambiguate + event types + alternate keys
const NEGOTIATION_QUERY = `\x1b[>${KITTY_FLAGS}u\x1b[?u\x1b[c`;
const KITTY_POP = "\x1b[<u";
const MODIFY_OTHER_KEYS_ON = "\x1b[>4;2m";
const MODIFY_OTHER_KEYS_OFF = "\x1b[>4;0m";
const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";
const PROGRESS_ON = "\x1b]9;4;3\x07";
const PROGRESS_OFF = "\x1b]9;4;0\x07";
const PROGRESS_KEEPALIVE_MS = 1000;
/** How long a split reply to the keyboard query may take to complete before its start counts as input. */
const REPLY_FRAGMENT_MS = 150;

export type KeyboardNegotiationReply = { type: "kitty-flags"; flags: number } | { type: "device-attributes" };

/** A terminal's reply to the keyboard query: kitty's `CSI ? flags u` or a primary DA `CSI ? … c`. */
export function parseKeyboardNegotiationReply(sequence: string): KeyboardNegotiationReply | undefined {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal replies start with ESC
	const kitty = /^\x1b\[\?(\d+)u$/.exec(sequence);
	if (kitty) return { type: "kitty-flags", flags: Number.parseInt(kitty[1] as string, 10) };
	// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal replies start with ESC
	if (/^\x1b\[\?[\d;]*c$/.test(sequence)) return { type: "device-attributes" };
	return undefined;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal replies start with ESC
const isReplyPrefix = (sequence: string) => sequence === "\x1b[" || /^\x1b\[\?[\d;]*$/.test(sequence);

/**
 * How long a lone ESC waits for a following byte: `PI_TUI_ESC_TIMEOUT` (ms) when set, 100 ms over SSH (Alt+key
 * bytes may arrive apart), 10 ms otherwise.
 */
export function resolveEscapeTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
	const configured = Number(env.PI_TUI_ESC_TIMEOUT);
	if (Number.isFinite(configured) && configured > 0) return configured;
	return env.SSH_CONNECTION || env.SSH_TTY ? 100 : 10;
}

function writeLogPath(env: NodeJS.ProcessEnv): string {
	const target = env.PI_TUI_WRITE_LOG ?? "";
	if (!target) return "";
	try {
		if (statSync(target).isDirectory()) {
			const pad = (n: number) => String(n).padStart(2, "0");
			const d = new Date();
			const stamp = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}_${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;
			return join(target, `tui-${stamp}-${process.pid}.log`);
		}
	} catch {
		// not an existing folder: a file path
	}
	return target;
}

export class ProcessTerminal extends TerminalCommands implements Terminal {
	private started = false;
	private wasRaw = false;
	private inputHandler: ((data: string) => void) | undefined;
	private resizeHandler: (() => void) | undefined;
	private kitty = false;
	private otherKeys = false;
	private keyboardPushed = false;
	private replyBuffer = "";
	private replyTimer: ReturnType<typeof setTimeout> | undefined;
	private stdinBuffer: StdinBuffer | undefined;
	private readonly onStdinData = (data: string | Buffer) => this.stdinBuffer?.process(data);
	private progressTimer: ReturnType<typeof setInterval> | undefined;
	private logPath = writeLogPath(process.env);

	get kittyProtocolActive(): boolean {
		return this.kitty;
	}

	get modifyOtherKeysActive(): boolean {
		return this.otherKeys;
	}

	start(onInput: (data: string) => void, onResize: () => void): void {
		this.inputHandler = onInput;
		this.resizeHandler = onResize;
		this.started = true;
		const stdin = process.stdin;
		this.wasRaw = stdin.isRaw ?? false;
		if (stdin.isTTY) stdin.setRawMode(true);
		stdin.setEncoding("utf8");
		stdin.resume();
		this.write(PASTE_ON);
		process.stdout.on("resize", onResize);
		// Sizes may be stale after a suspend (SIGWINCH is lost while stopped): ask for a fresh one.
		if (process.platform !== "win32") {
			try {
				process.kill(process.pid, "SIGWINCH");
			} catch {
				// not permitted here: keep the size we have
			}
		}
		this.stdinBuffer = new StdinBuffer({ escapeTimeout: resolveEscapeTimeoutMs() });
		this.stdinBuffer.on("data", (sequence) => this.onSequence(sequence));
		// Pastes reach the TUI wrapped in their markers again, as one input.
		this.stdinBuffer.on("paste", (content) => this.inputHandler?.(`\x1b[200~${content}\x1b[201~`));
		stdin.on("data", this.onStdinData);
		this.keyboardPushed = true;
		this.clearReplyBuffer();
		this.write(NEGOTIATION_QUERY);
	}

	private onSequence(sequence: string): void {
		let candidate = sequence;
		if (this.replyBuffer) {
			candidate = this.replyBuffer + sequence;
			if (!parseKeyboardNegotiationReply(candidate) && !isReplyPrefix(candidate)) {
				this.flushReplyBufferAsInput();
				candidate = sequence;
			}
		}
		const reply = parseKeyboardNegotiationReply(candidate);
		if (reply) {
			this.clearReplyBuffer();
			this.onNegotiationReply(reply);
			return;
		}
		if (isReplyPrefix(candidate)) {
			// Part of a reply split across reads: wait briefly for the rest.
			if (this.replyTimer) clearTimeout(this.replyTimer);
			this.replyBuffer = candidate;
			this.replyTimer = setTimeout(() => {
				this.replyTimer = undefined;
				this.flushReplyBufferAsInput();
			}, REPLY_FRAGMENT_MS);
			return;
		}
		this.inputHandler?.(sequence);
	}

	private onNegotiationReply(reply: KeyboardNegotiationReply): void {
		if (reply.type === "kitty-flags" && reply.flags !== 0) {
			this.setModifyOtherKeys(false);
			if (!this.kitty) {
				this.kitty = true;
				setKittyProtocolActive(true);
			}
			return;
		}
		// No kitty flags (or only the DA sentinel came back): fall back to modifyOtherKeys.
		if (!this.kitty) this.setModifyOtherKeys(true);
	}

	private setModifyOtherKeys(on: boolean): void {
		if (on === this.otherKeys || (on && this.kitty)) return;
		this.write(on ? MODIFY_OTHER_KEYS_ON : MODIFY_OTHER_KEYS_OFF);
		this.otherKeys = on;
	}

	private clearReplyBuffer(): void {
		if (this.replyTimer) clearTimeout(this.replyTimer);
		this.replyTimer = undefined;
		this.replyBuffer = "";
	}

	private flushReplyBufferAsInput(): void {
		const pending = this.replyBuffer;
		this.clearReplyBuffer();
		if (pending) this.inputHandler?.(pending);
	}

	/** Leave the keyboard protocols (kitty pop, modifyOtherKeys off) so late key releases type nothing. */
	private releaseKeyboard(): void {
		this.clearReplyBuffer();
		if (this.keyboardPushed || this.kitty) {
			this.write(KITTY_POP);
			this.keyboardPushed = false;
			this.kitty = false;
			setKittyProtocolActive(false);
		}
		this.setModifyOtherKeys(false);
	}

	/**
	 * Swallow input until none has arrived for `idleMs` (or `maxMs` passed), after leaving the keyboard protocols:
	 * key releases still in flight (slow SSH) must not leak into the shell after exit.
	 */
	async drainInput(maxMs = 1000, idleMs = 50): Promise<void> {
		this.releaseKeyboard();
		const handler = this.inputHandler;
		this.inputHandler = undefined;
		let last = Date.now();
		const onData = () => {
			last = Date.now();
		};
		process.stdin.on("data", onData);
		const deadline = Date.now() + maxMs;
		try {
			for (;;) {
				const now = Date.now();
				if (now >= deadline || now - last >= idleMs) break;
				await new Promise((resolve) => setTimeout(resolve, Math.min(idleMs, deadline - now)));
			}
		} finally {
			process.stdin.removeListener("data", onData);
			this.inputHandler = handler;
		}
	}

	/** Restore the terminal: progress cleared, paste and keyboard modes off, cursor shown, stdin paused, raw mode back. */
	stop(): void {
		if (!this.started) return;
		this.started = false;
		if (this.progressTimer) {
			clearInterval(this.progressTimer);
			this.progressTimer = undefined;
			this.write(PROGRESS_OFF);
		}
		this.write(PASTE_OFF);
		this.releaseKeyboard();
		this.showCursor();
		this.stdinBuffer?.destroy();
		this.stdinBuffer = undefined;
		const stdin = process.stdin;
		stdin.removeListener("data", this.onStdinData);
		this.inputHandler = undefined;
		if (this.resizeHandler) process.stdout.removeListener("resize", this.resizeHandler);
		this.resizeHandler = undefined;
		// Paused so input typed meanwhile (a Ctrl+D) is not read by us after raw mode ends.
		stdin.pause();
		if (stdin.isTTY) stdin.setRawMode(this.wasRaw);
	}

	/** Through Bun's file sink when running on Bun (Node's stdout stream costs ~2 ms a frame there), else stdout. */
	write(data: string): void {
		writeStdout(data);
		if (this.logPath) {
			try {
				const fd = openSync(this.logPath, "a");
				try {
					writeSync(fd, data);
				} finally {
					closeSync(fd);
				}
			} catch (error) {
				// The log is a debugging aid: never fail a write for it, but say once why it is not being written.
				const reason = error instanceof Error ? error.message : String(error);
				process.stderr.write(`PI_TUI_WRITE_LOG: cannot write ${this.logPath}: ${reason}\n`);
				this.logPath = "";
			}
		}
	}

	get columns(): number {
		return process.stdout.columns || Number(process.env.COLUMNS) || 80;
	}

	get rows(): number {
		return process.stdout.rows || Number(process.env.LINES) || 24;
	}

	setTitle(title: string): void {
		this.write(`\x1b]0;${title}\x07`);
	}

	/** OSC 9;4 indeterminate progress, re-sent every second while active (terminals time it out). */
	setProgress(active: boolean): void {
		if (active) {
			this.write(PROGRESS_ON);
			this.progressTimer ??= setInterval(() => this.write(PROGRESS_ON), PROGRESS_KEEPALIVE_MS);
			return;
		}
		if (this.progressTimer) clearInterval(this.progressTimer);
		this.progressTimer = undefined;
		this.write(PROGRESS_OFF);
	}
}
