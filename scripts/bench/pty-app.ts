/**
 * A terminal app driven from the outside for benchmarks: the command runs in a pseudo-terminal (Bun.spawn's
 * `terminal` option), and everything it writes goes through a headless terminal emulator (@xterm/headless), which
 * also answers the app's terminal queries as a real terminal would (device attributes, cursor position). The driver
 * types keys, waits for frames (synchronized-output blocks, see pty-timing.ts), for a screen condition or for quiet
 * output, and reads the app's CPU time from /proc.
 */
import { readFileSync } from "node:fs";
import { Terminal as XTerm } from "@xterm/headless";
import { cpuTicksFromStat, type Frame, FrameScanner, firstLine } from "./pty-timing.ts";

export interface PtyAppOptions {
	cmd: string[];
	env: Record<string, string>;
	cwd: string;
	columns: number;
	rows: number;
}

/** The app ended before the awaited condition: `reason` is the first line it printed (its error, usually). */
export class AppExited extends Error {
	constructor(
		readonly reason: string,
		readonly exitCode: number | null,
	) {
		super(`exited (${exitCode}) before it was ready: ${reason}`);
	}
}

interface Waiter {
	check(frames: Frame[]): boolean;
	fail(error: Error): void;
}

const CLOCK_TICKS_PER_SECOND = (() => {
	const out = Bun.spawnSync(["getconf", "CLK_TCK"], { stdout: "pipe", stderr: "ignore" });
	const ticks = Number(out.stdout.toString().trim());
	return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
})();

export class PtyApp {
	/** When the process was spawned (performance.now()). */
	readonly spawnedAt: number;
	/** Bytes the app wrote, frames it ended, and when it last wrote anything. */
	bytes = 0;
	frames = 0;
	lastOutputAt: number;
	lastFrameAt = 0;
	exited = false;
	private readonly proc: Bun.Subprocess;
	private readonly xterm: XTerm;
	private readonly scanner = new FrameScanner();
	private readonly decoder = new TextDecoder();
	private readonly waiters = new Set<Waiter>();
	private head = "";

	private constructor(options: PtyAppOptions) {
		this.xterm = new XTerm({ cols: options.columns, rows: options.rows, scrollback: 1000, allowProposedApi: true });
		this.spawnedAt = performance.now();
		this.lastOutputAt = this.spawnedAt;
		this.proc = Bun.spawn(options.cmd, {
			cwd: options.cwd,
			env: options.env,
			terminal: {
				cols: options.columns,
				rows: options.rows,
				data: (_terminal, data) => this.receive(data),
			},
		});
		this.xterm.onData((reply) => {
			if (!this.exited) this.proc.terminal?.write(reply);
		});
		void this.proc.exited.then(async (code) => {
			await Bun.sleep(50); // let the last output arrive, so the reason names what it printed
			this.exited = true;
			const error = new AppExited(firstLine(this.head), code);
			for (const waiter of [...this.waiters]) waiter.fail(error);
		});
	}

	static start(options: PtyAppOptions): PtyApp {
		return new PtyApp(options);
	}

	get pid(): number {
		return this.proc.pid;
	}

	/** CPU time (user + system, all threads) the app has used so far, in ms; the /proc clock ticks (10 ms here). */
	cpuMs(): number {
		const ticks = cpuTicksFromStat(readFileSync(`/proc/${this.proc.pid}/stat`, "utf8"));
		return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
	}

	/** Writes `keys` to the terminal; returns when (performance.now()). */
	type(keys: string): number {
		const at = performance.now();
		this.proc.terminal?.write(keys);
		return at;
	}

	/** The visible rows of the emulated screen, right-trimmed. */
	screen(): string[] {
		const buffer = this.xterm.buffer.active;
		const rows: string[] = [];
		for (let i = 0; i < this.xterm.rows; i++)
			rows.push(buffer.getLine(buffer.baseY + i)?.translateToString(true) ?? "");
		return rows;
	}

	/** The first frame that began at or after `after` and whose content passes `test`. */
	nextFrame(after: number, test: (content: string) => boolean, timeoutMs: number): Promise<Frame> {
		let found: Frame | undefined;
		return this.until(
			(frames) => {
				found = frames.find((f) => f.startedAt >= after && test(f.content));
				return found !== undefined;
			},
			timeoutMs,
			"the frame",
		).then(() => found as Frame);
	}

	/**
	 * When a frame ended with the screen passing `test` (checked after the emulator has read that frame): the arrival
	 * time of the output that completed it. Resolves at once, with now, when the screen passes already.
	 */
	screenShows(test: (rows: string[]) => boolean, timeoutMs: number, what: string): Promise<number> {
		if (test(this.screen())) return Promise.resolve(performance.now());
		let at = 0;
		return this.until(
			(frames) => {
				const last = frames.at(-1);
				if (!last || !test(this.screen())) return false;
				at = last.endedAt;
				return true;
			},
			timeoutMs,
			what,
		).then(() => at);
	}

	/** Resolves once the app has written nothing for `ms`. */
	async quiet(ms: number, timeoutMs: number): Promise<void> {
		const deadline = performance.now() + timeoutMs;
		while (true) {
			if (this.exited) throw new AppExited(firstLine(this.head), null);
			const left = this.lastOutputAt + ms - performance.now();
			if (left <= 0) return;
			if (performance.now() > deadline) throw new Error(`no quiet ${ms} ms within ${timeoutMs} ms`);
			await Bun.sleep(Math.min(left, ms));
		}
	}

	/** Ends the app (SIGTERM, then SIGKILL after 3 s) and frees the terminal and the emulator. */
	async stop(): Promise<void> {
		if (!this.exited) {
			this.proc.kill("SIGTERM");
			const ended = await Promise.race([this.proc.exited.then(() => true), Bun.sleep(3000).then(() => false)]);
			if (!ended) {
				this.proc.kill("SIGKILL");
				await this.proc.exited;
			}
		}
		this.proc.terminal?.close();
		this.xterm.dispose();
	}

	private receive(data: Uint8Array): void {
		const at = performance.now();
		this.bytes += data.byteLength;
		this.lastOutputAt = at;
		const text = this.decoder.decode(data, { stream: true });
		if (this.head.length < 65_536) this.head += text;
		const frames = this.scanner.feed(text, at);
		if (frames.length > 0) {
			this.frames += frames.length;
			this.lastFrameAt = at;
		}
		// Waiters look at the screen after the emulator has read this chunk.
		this.xterm.write(text, () => {
			if (frames.length === 0) return;
			for (const waiter of [...this.waiters]) waiter.check(frames);
		});
	}

	private until(check: (frames: Frame[]) => boolean, timeoutMs: number, what: string): Promise<void> {
		return new Promise((resolve, reject) => {
			if (this.exited) {
				reject(new AppExited(firstLine(this.head), null));
				return;
			}
			const timer = setTimeout(() => {
				this.waiters.delete(waiter);
				const screen = this.screen()
					.filter((r) => r.trim())
					.slice(-8)
					.join("\n  ");
				reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; screen ends:\n  ${screen}`));
			}, timeoutMs);
			const waiter: Waiter = {
				check: (frames) => {
					if (!check(frames)) return false;
					clearTimeout(timer);
					this.waiters.delete(waiter);
					resolve();
					return true;
				},
				fail: (error) => {
					clearTimeout(timer);
					this.waiters.delete(waiter);
					reject(error);
				},
			};
			this.waiters.add(waiter);
		});
	}
}
