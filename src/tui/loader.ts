/** Spinner lines: Loader and the Escape-cancellable CancellableLoader. */
import { Text } from "./basic.ts";
import { getKeybindings } from "./keybindings.ts";
import type { RenderRequester } from "./types.ts";

export interface LoaderIndicatorOptions {
	/** Animation frames; an empty array hides the indicator. */
	frames?: string[];
	/** Milliseconds between frames. */
	intervalMs?: number;
}

const DEFAULT_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const DEFAULT_INTERVAL_MS = 80;

/**
 * A spinner followed by a message, under one blank line (as pi-tui draws it). Animates and asks the TUI to redraw
 * until stopped. Custom indicator frames are drawn as given; the default spinner takes `spinnerColorFn`.
 */
export class Loader extends Text {
	private frames: string[] = [...DEFAULT_FRAMES];
	private intervalMs = DEFAULT_INTERVAL_MS;
	private currentFrame = 0;
	private timer: ReturnType<typeof setInterval> | undefined;
	private renderIndicatorVerbatim = false;
	private readonly ui: RenderRequester | undefined;
	private readonly spinnerColorFn: (str: string) => string;
	private readonly messageColorFn: (str: string) => string;
	private message: string;

	constructor(
		ui: RenderRequester | undefined,
		spinnerColorFn: (str: string) => string,
		messageColorFn: (str: string) => string,
		message = "Loading...",
		indicator?: LoaderIndicatorOptions,
	) {
		super("", 1, 0);
		this.ui = ui;
		this.spinnerColorFn = spinnerColorFn;
		this.messageColorFn = messageColorFn;
		this.message = message;
		this.setIndicator(indicator);
	}

	override render(width: number): string[] {
		return ["", ...super.render(width)];
	}

	start(): void {
		this.updateDisplay();
		this.restartAnimation();
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}

	setMessage(message: string): void {
		this.message = message;
		this.updateDisplay();
	}

	override invalidate(): void {
		super.invalidate();
		this.updateDisplay();
	}

	/** Replace the frames (an empty list hides the indicator) and restart the animation. */
	setIndicator(indicator?: LoaderIndicatorOptions): void {
		this.renderIndicatorVerbatim = indicator !== undefined;
		this.frames = indicator?.frames !== undefined ? [...indicator.frames] : [...DEFAULT_FRAMES];
		this.intervalMs = indicator?.intervalMs && indicator.intervalMs > 0 ? indicator.intervalMs : DEFAULT_INTERVAL_MS;
		this.currentFrame = 0;
		this.start();
	}

	/** Whether the animation timer is running. */
	isRunning(): boolean {
		return this.timer !== undefined;
	}

	private restartAnimation(): void {
		this.stop();
		if (this.frames.length <= 1) return;
		this.timer = setInterval(() => {
			this.currentFrame = (this.currentFrame + 1) % this.frames.length;
			this.updateDisplay();
		}, this.intervalMs);
		// A spinner must never keep the process alive on its own.
		(this.timer as { unref?: () => void }).unref?.();
	}

	protected getRenderedIndicator(): string {
		const frame = this.frames[this.currentFrame] ?? "";
		return this.renderIndicatorVerbatim ? frame : this.spinnerColorFn(frame);
	}

	private updateDisplay(): void {
		const frame = this.getRenderedIndicator();
		this.setText(`${frame.length > 0 ? `${frame} ` : ""}${this.messageColorFn(this.message)}`);
		this.ui?.requestRender();
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
		if (!getKeybindings().matches(data, "tui.select.cancel")) return;
		if (this.aborted) return;
		this.abortController.abort();
		this.stop();
		this.onAbort?.();
	}

	dispose(): void {
		this.stop();
	}
}
