/** Spinner lines: Loader and the Escape-cancellable CancellableLoader. */
import { Text } from "./basic.ts";
import { matchesKey } from "./keys.ts";
import type { RenderRequester } from "./types.ts";

export interface LoaderIndicatorOptions {
	/** Animation frames; an empty array hides the indicator. */
	frames?: string[];
	/** Milliseconds between frames. */
	intervalMs?: number;
}

const DEFAULT_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const DEFAULT_INTERVAL_MS = 80;

/** A one-line spinner followed by a message. Animates (and asks the TUI to redraw) until stopped. */
export class Loader extends Text {
	private frames: string[] = DEFAULT_FRAMES;
	private intervalMs = DEFAULT_INTERVAL_MS;
	private currentFrame = 0;
	private timer: ReturnType<typeof setInterval> | undefined;

	constructor(
		private readonly ui: RenderRequester,
		private readonly spinnerColorFn: (str: string) => string,
		private readonly messageColorFn: (str: string) => string,
		private message = "Loading...",
		indicator?: LoaderIndicatorOptions,
	) {
		super("", 1, 0);
		if (indicator) this.applyIndicator(indicator);
		this.updateDisplay();
		this.start();
	}

	start(): void {
		this.stopTimer();
		this.updateDisplay();
		if (this.frames.length < 2) return;
		this.timer = setInterval(() => {
			this.currentFrame = (this.currentFrame + 1) % this.frames.length;
			this.updateDisplay();
			this.ui?.requestRender();
		}, this.intervalMs);
		// A spinner must never keep the process alive on its own.
		(this.timer as { unref?: () => void }).unref?.();
	}

	stop(): void {
		this.stopTimer();
	}

	setMessage(message: string): void {
		this.message = message;
		this.updateDisplay();
	}

	setIndicator(indicator?: LoaderIndicatorOptions): void {
		this.applyIndicator(indicator ?? {});
		if (this.timer) this.start();
		else this.updateDisplay();
	}

	/** Whether the animation timer is running. */
	isRunning(): boolean {
		return this.timer !== undefined;
	}

	protected getRenderedIndicator(): string {
		const frame = this.frames[this.currentFrame % Math.max(1, this.frames.length)];
		return frame === undefined ? "" : this.spinnerColorFn(frame);
	}

	private applyIndicator(indicator: LoaderIndicatorOptions): void {
		this.frames = indicator.frames ?? DEFAULT_FRAMES;
		this.intervalMs = indicator.intervalMs ?? DEFAULT_INTERVAL_MS;
		this.currentFrame = 0;
	}

	private stopTimer(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}

	private updateDisplay(): void {
		const indicator = this.getRenderedIndicator();
		const message = this.messageColorFn(this.message);
		this.setText(indicator ? `${indicator} ${message}` : message);
	}
}

/** A Loader that Escape (or Ctrl+C) cancels: aborts `signal` and calls `onAbort`. */
export class CancellableLoader extends Loader {
	private readonly abortController = new AbortController();
	onAbort?: () => void;

	get signal(): AbortSignal {
		return this.abortController.signal;
	}

	get aborted(): boolean {
		return this.abortController.signal.aborted;
	}

	handleInput(data: string): void {
		if (!matchesKey(data, "escape") && !matchesKey(data, "ctrl+c")) return;
		if (this.aborted) return;
		this.abortController.abort();
		this.stop();
		this.onAbort?.();
	}

	dispose(): void {
		this.stop();
	}
}
