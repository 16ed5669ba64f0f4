/**
 * What both screens (regular: TuiMainScreen, fullscreen: TuiAltScreen) share: the component tree, focus and
 * overlays, input dispatch, render scheduling, colour-scheme queries, start/stop with the terminal restored however
 * the process ends, and the frame pipeline. A screen subclass only writes frames (`doRender`).
 */
import * as path from "node:path";
import { nodeFs } from "../../util/index.ts";
import { Container } from "../basic.ts";
import { isKeyRelease, matchesKey } from "../keys.ts";
import type {
	Component,
	OverlayHandle,
	OverlayOptions,
	RgbColor,
	Terminal,
	TerminalColorScheme,
	TUI,
	TuiInputListener,
	TuiMode,
	TuiStopOptions,
} from "../types.ts";
import { CURSOR_MARKER } from "../types.ts";
import { visibleWidth } from "../width.ts";
import { ColorQueries, cellSizeOfReply } from "./color-replies.ts";
import { isImageLine, LINE_RESET } from "./composite.ts";
import { type Frame, FrameBuilder, type FrameCursor } from "./frame.ts";
import { OverlayStack } from "./overlay-stack.ts";
import { ProcessGuard } from "./process-guard.ts";

/** Minimum time between two throttled frames. */
export const MIN_RENDER_INTERVAL_MS = 16;

function now(): number {
	return performance.now();
}

export abstract class TuiBase extends Container implements TUI {
	abstract readonly mode: TuiMode;
	terminal: Terminal;
	/** Called on Shift+Ctrl+D instead of passing the key on (pi binds it to /debug). */
	onDebug?: () => void;
	/**
	 * Called with a one-line notice when a component misbehaves (a line wider than the terminal, a throwing
	 * `render`); each kind is reported once per component class. Without it, notices go to `<logDirectory>/pi-tui-debug.log`.
	 */
	onRenderProblem?: (notice: string) => void;
	/** Lines that were wider than the terminal and were cut (count of lines, as rendered). */
	overwideLines = 0;
	/** `render` calls that threw and were drawn as an error line. */
	renderFailures = 0;
	/** Directory for debug logs; undefined disables them. */
	protected readonly logDirectory: string | undefined;
	protected fullRedrawCount = 0;
	protected stopped = false;
	/** Between start() and stop(): the process guard restores the terminal only then. */
	private running = false;
	protected readonly overlays: OverlayStack;
	protected readonly frames: FrameBuilder;

	private readonly inputListeners = new Set<TuiInputListener>();
	private renderRequested = false;
	private immediateScheduled = false;
	private renderTimer: ReturnType<typeof setTimeout> | undefined;
	private lastRenderAt = 0;
	private showHardwareCursor = process.env.PI_HARDWARE_CURSOR === "1";
	private clearOnShrink = false;
	private readonly colors = new ColorQueries((data) => this.terminal.write(data));
	private schemeNotifications = false;
	private readonly reported = new Set<string>();
	private readonly guard = new ProcessGuard(() => {
		if (this.running) this.stop();
	});

	constructor(terminal: Terminal, showHardwareCursor?: boolean, logDirectory?: string) {
		super();
		this.terminal = terminal;
		this.logDirectory = logDirectory;
		if (showHardwareCursor !== undefined) this.showHardwareCursor = showHardwareCursor;
		this.overlays = new OverlayStack({
			size: () => ({ columns: this.terminal.columns, rows: this.terminal.rows }),
			roots: () => this.getMountedRoots(),
			requestRender: () => this.requestRender(),
			hideCursor: () => this.hideHardwareCursor(),
		});
		this.frames = new FrameBuilder({
			overwide: (owner, lineWidth, width) => {
				this.overwideLines += 1;
				this.report(
					`overwide:${owner.constructor?.name}`,
					`${owner.constructor?.name || "A component"} rendered a line ${lineWidth} columns wide on a ${width}-column terminal; it was cut to fit.`,
				);
			},
			threw: (owner, error) => {
				this.renderFailures += 1;
				const message = error instanceof Error ? error.message : String(error);
				this.report(
					`threw:${owner.constructor?.name}`,
					`${owner.constructor?.name || "A component"}.render threw: ${message.split("\n")[0]}; it is drawn as an error line.`,
				);
			},
		});
	}

	/** Write the current frame to the terminal. */
	protected abstract doRender(): void;
	/** Forget what is on the screen: the next frame redraws everything. */
	protected resetRenderState(): void {}
	protected beforeTerminalStart(): void {}
	protected afterTerminalStart(): void {}
	protected beforeTerminalStop(_options: TuiStopOptions): void {}
	protected afterTerminalStop(_options: TuiStopOptions): void {}
	/** Called with the terminal's cell size in pixels when it answers `CSI 16 t` (images use it). */
	protected onCellSize(_size: { widthPx: number; heightPx: number }): void {}

	/** Hide the terminal cursor now (subclasses that track its state override and call super). */
	protected hideHardwareCursor(): void {
		this.terminal.hideCursor();
	}

	/** The components drawn as the base layer (overlays come on top). */
	protected getMountedRoots(): readonly Component[] {
		return this.children;
	}

	/** The frame for a `width`×`height` terminal: lines ready to write plus where the cursor marker was. */
	protected buildFrame(width: number, height: number): Frame {
		const draws = this.overlays.entries.length > 0 ? this.overlays.draws() : [];
		return this.frames.build(this.getMountedRoots(), width, height, draws);
	}

	/** Report `notice` once per `key`. */
	protected report(key: string, notice: string): void {
		if (this.reported.has(key)) return;
		this.reported.add(key);
		if (this.onRenderProblem) {
			this.onRenderProblem(notice);
			return;
		}
		if (this.logDirectory === undefined) return;
		try {
			nodeFs().mkdirSync(this.logDirectory, { recursive: true });
			nodeFs().appendFileSync(
				path.join(this.logDirectory, "pi-tui-debug.log"),
				`[${new Date().toISOString()}] ${notice}\n`,
			);
		} catch {
			// A debug log that cannot be written must not break rendering.
		}
	}

	get fullRedraws(): number {
		return this.fullRedrawCount;
	}

	get hasOverlayEntries(): boolean {
		return this.overlays.entries.length > 0;
	}

	getShowHardwareCursor(): boolean {
		return this.showHardwareCursor;
	}

	setShowHardwareCursor(enabled: boolean): void {
		if (this.showHardwareCursor === enabled) return;
		this.showHardwareCursor = enabled;
		if (!enabled) this.hideHardwareCursor();
		this.requestRender();
	}

	getClearOnShrink(): boolean {
		return this.clearOnShrink;
	}

	setClearOnShrink(enabled: boolean): void {
		this.clearOnShrink = enabled;
	}

	getFocusedComponent(): Component | null {
		return this.overlays.focused;
	}

	setFocus(component: Component | null): void {
		this.overlays.setFocus(component);
	}

	showOverlay(component: Component, options?: OverlayOptions): OverlayHandle {
		return this.overlays.show(component, options);
	}

	hideOverlay(): void {
		this.overlays.hideTop();
	}

	hasOverlay(): boolean {
		return this.overlays.hasVisible();
	}

	protected isOverlayFocused(): boolean {
		return this.overlays.isOverlayFocused();
	}

	/** Clicking a control inside an overlay focuses the overlay that holds it. */
	protected resolveMouseFocusTarget(component: Component): Component {
		return this.overlays.focusOwnerOf(component);
	}

	override invalidate(): void {
		for (const root of this.getMountedRoots()) root.invalidate();
		for (const entry of this.overlays.entries) entry.component.invalidate();
	}

	start(): void {
		this.stopped = false;
		this.running = true;
		this.guard.install();
		this.beforeTerminalStart();
		this.terminal.start(
			(data) => this.handleTerminalInput(data),
			() => this.requestRender(),
		);
		this.afterTerminalStart();
		this.terminal.hideCursor();
		if (this.schemeNotifications) this.terminal.write("\x1b[?2031h");
		this.requestRender();
	}

	stop(options: TuiStopOptions = {}): void {
		if (this.stopped && !this.running) return;
		this.stopped = true;
		this.running = false;
		this.guard.uninstall();
		this.cancelRenderTimer();
		this.renderRequested = false;
		try {
			if (this.schemeNotifications) this.terminal.write("\x1b[?2031l");
			this.beforeTerminalStop(options);
			this.terminal.showCursor();
		} finally {
			this.terminal.stop();
		}
		this.afterTerminalStop(options);
	}

	addInputListener(listener: TuiInputListener): () => void {
		this.inputListeners.add(listener);
		return () => this.inputListeners.delete(listener);
	}

	removeInputListener(listener: TuiInputListener): void {
		this.inputListeners.delete(listener);
	}

	onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void {
		return this.colors.onScheme(listener);
	}

	setTerminalColorSchemeNotifications(enabled: boolean): void {
		if (this.schemeNotifications === enabled) return;
		this.schemeNotifications = enabled;
		if (!this.stopped) this.terminal.write(enabled ? "\x1b[?2031h" : "\x1b[?2031l");
	}

	/** Ask for the default background colour (OSC 11); undefined when the terminal does not answer in time. */
	queryTerminalBackgroundColor(options: { timeoutMs: number }): Promise<RgbColor | undefined> {
		return this.colors.queryBackground(options.timeoutMs);
	}

	/** Ask for the colour scheme (`CSI ? 996 n`); undefined when the terminal does not answer in time. */
	queryTerminalColorScheme(options: { timeoutMs: number }): Promise<TerminalColorScheme | undefined> {
		return this.colors.queryScheme(options.timeoutMs);
	}

	renderNow(force = false): void {
		if (force) this.resetRenderState();
		this.renderRequested = false;
		this.cancelRenderTimer();
		this.lastRenderAt = now();
		this.doRender();
	}

	requestRender(force = false): void {
		if (force) {
			this.resetRenderState();
			this.requestImmediateRender();
			return;
		}
		if (this.renderRequested) return;
		this.renderRequested = true;
		process.nextTick(() => this.scheduleRender());
	}

	/** Render on the next tick, ahead of any throttled frame (keyboard input is latency-sensitive). */
	private requestImmediateRender(): void {
		this.cancelRenderTimer();
		this.renderRequested = true;
		if (this.immediateScheduled) return;
		this.immediateScheduled = true;
		process.nextTick(() => {
			this.immediateScheduled = false;
			if (this.stopped || !this.renderRequested) return;
			this.cancelRenderTimer();
			this.renderRequested = false;
			this.lastRenderAt = now();
			this.doRender();
		});
	}

	private cancelRenderTimer(): void {
		if (this.renderTimer === undefined) return;
		clearTimeout(this.renderTimer);
		this.renderTimer = undefined;
	}

	private scheduleRender(): void {
		if (this.stopped || this.renderTimer !== undefined || !this.renderRequested) return;
		const delay = Math.max(0, MIN_RENDER_INTERVAL_MS - (now() - this.lastRenderAt));
		this.renderTimer = setTimeout(() => {
			this.renderTimer = undefined;
			if (this.stopped || !this.renderRequested) return;
			this.renderRequested = false;
			this.lastRenderAt = now();
			this.doRender();
			if (this.renderRequested) this.scheduleRender();
		}, delay);
	}

	/** Input order: colour replies → listeners → cell-size reply → Shift+Ctrl+D → focused component → render. */
	private handleTerminalInput(input: string): void {
		if (this.colors.consume(input)) return;
		let data = input;
		for (const listener of this.inputListeners) {
			const result = listener(data);
			if (result?.consume) return;
			if (result?.data !== undefined) data = result.data;
		}
		if (data.length === 0) return;
		const cell = cellSizeOfReply(data);
		if (cell) {
			if (cell.widthPx > 0 && cell.heightPx > 0) {
				this.onCellSize(cell);
				this.invalidate();
				this.requestRender();
			}
			return;
		}
		if (this.onDebug && matchesKey(data, "shift+ctrl+d")) {
			this.onDebug();
			return;
		}
		this.overlays.settleFocusForInput();
		const focused = this.overlays.focused;
		if (!focused?.handleInput) return;
		if (isKeyRelease(data) && !focused.wantsKeyRelease) return;
		focused.handleInput(data);
		this.requestImmediateRender();
	}

	/** Composite the visible overlays over `lines` (already prepared or raw) as a frame would. */
	protected compositeOverlays(lines: string[], termWidth: number, termHeight: number): string[] {
		if (this.overlays.entries.length === 0) return lines;
		return this.frames.overlay(lines, null, termWidth, termHeight, this.overlays.draws()).lines;
	}

	/** Append the style/hyperlink reset to every line except image lines (tabs expanded first). */
	protected applyLineResets(lines: string[]): string[] {
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i] as string;
			if (!isImageLine(line)) lines[i] = (line.includes("\t") ? line.replace(/\t/g, "   ") : line) + LINE_RESET;
		}
		return lines;
	}

	/** Cursor marker search as pi-tui exposes it: bottom `height` lines, bottom-most wins, marker stripped. */
	protected extractCursorPosition(lines: string[], height: number): FrameCursor | null {
		for (let row = lines.length - 1; row >= Math.max(0, lines.length - height); row--) {
			const line = lines[row] as string;
			const index = line.indexOf(CURSOR_MARKER);
			if (index === -1) continue;
			lines[row] = line.slice(0, index) + line.slice(index + CURSOR_MARKER.length);
			return { row, col: visibleWidth(line.slice(0, index)) };
		}
		return null;
	}
}
