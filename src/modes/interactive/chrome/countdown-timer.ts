/**
 * A once-a-second countdown: tells `onTick` the seconds left (first right away), asks the TUI to redraw after each
 * tick, and calls `onExpire` at zero. Retry notices and timed dialogs show its number.
 */
/** Anything that can be asked to redraw (the TUI); may be absent. */
export type RenderRequester = { requestRender(): void } | null | undefined;

export class CountdownTimer {
	private intervalId: ReturnType<typeof setInterval> | undefined;
	private remainingSeconds: number;

	constructor(
		timeoutMs: number,
		private readonly tui: RenderRequester,
		private readonly onTick: (seconds: number) => void,
		private readonly onExpire: () => void,
	) {
		this.remainingSeconds = Math.ceil(timeoutMs / 1000);
		this.onTick(this.remainingSeconds);
		this.intervalId = setInterval(() => this.tick(), 1000);
	}

	/** Seconds left. */
	get seconds(): number {
		return this.remainingSeconds;
	}

	dispose(): void {
		if (this.intervalId !== undefined) clearInterval(this.intervalId);
		this.intervalId = undefined;
	}

	private tick(): void {
		this.remainingSeconds--;
		this.onTick(this.remainingSeconds);
		this.tui?.requestRender();
		if (this.remainingSeconds <= 0) {
			this.dispose();
			this.onExpire();
		}
	}
}
