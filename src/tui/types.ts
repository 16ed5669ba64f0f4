/** The component contract and the TUI / terminal / overlay shapes that components and extensions program against. */

export type TuiMouseEventType = "press" | "release" | "move" | "drag" | "click" | "wheel";
export type TuiMouseButton = "left" | "middle" | "right" | "none";

/** Normalized cell-based mouse event; coordinates are zero-based and local to the receiving component. */
export interface TuiMouseEvent {
	type: TuiMouseEventType;
	button: TuiMouseButton;
	x: number;
	y: number;
	screenX: number;
	screenY: number;
	width: number;
	height: number;
	shift: boolean;
	alt: boolean;
	ctrl: boolean;
	wheelDelta?: number;
	clickCount?: number;
}

export interface TuiMouseEventResult {
	handled?: boolean;
	capture?: boolean;
	focus?: boolean;
	render?: boolean;
}

/** Something that renders itself to terminal lines. */
export interface Component {
	/** Lines for a viewport `width` columns wide; no line may be wider than `width`. */
	render(width: number): string[];
	/**
	 * Optional: the lines of `render(width)` cut into blocks, each the same array while its lines stay the same; the
	 * frame renderer then only looks again at blocks that changed (a long transcript).
	 */
	renderBlocks?(width: number): readonly string[][];
	/** Keyboard input while the component has focus. */
	handleInput?(data: string): void;
	handleMouse?(event: TuiMouseEvent): TuiMouseEventResult | undefined;
	/** Receive kitty key-release events too (they are filtered out otherwise). */
	wantsKeyRelease?: boolean;
	/** Drop cached rendering state (theme change, forced redraw). */
	invalidate(): void;
}

/** A component that shows a cursor: while `focused` it emits CURSOR_MARKER where the hardware cursor belongs. */
export interface Focusable {
	focused: boolean;
}

export function isFocusable(component: Component | null): component is Component & Focusable {
	return component !== null && typeof (component as Partial<Focusable>).focused === "boolean";
}

/** Zero-width APC sequence marking the cursor position in rendered output; the TUI strips it and parks the cursor. */
export const CURSOR_MARKER = "\x1b_pi:c\x07";

export type TuiInputListenerResult = { consume?: boolean; data?: string } | undefined;
export type TuiInputListener = (data: string) => TuiInputListenerResult;

export interface RgbColor {
	r: number;
	g: number;
	b: number;
}
export type TerminalColorScheme = "dark" | "light";

/** The terminal a TUI draws on. */
export interface Terminal {
	start(onInput: (data: string) => void, onResize: () => void): void;
	stop(): void;
	drainInput(maxMs?: number, idleMs?: number): Promise<void>;
	write(data: string): void;
	get columns(): number;
	get rows(): number;
	get kittyProtocolActive(): boolean;
	moveBy(lines: number): void;
	hideCursor(): void;
	showCursor(): void;
	clearLine(): void;
	clearFromCursor(): void;
	clearScreen(): void;
	setTitle(title: string): void;
	setProgress(active: boolean): void;
}

export type OverlayAnchor =
	| "center"
	| "top-left"
	| "top-right"
	| "bottom-left"
	| "bottom-right"
	| "top-center"
	| "bottom-center"
	| "left-center"
	| "right-center";

export interface OverlayMargin {
	top?: number;
	right?: number;
	bottom?: number;
	left?: number;
}

/** Columns/rows as a number, or a percentage of the terminal such as "50%". */
export type SizeValue = number | `${number}%`;

export interface OverlayOptions {
	width?: SizeValue;
	minWidth?: number;
	maxHeight?: SizeValue;
	anchor?: OverlayAnchor;
	offsetX?: number;
	offsetY?: number;
	row?: SizeValue;
	col?: SizeValue;
	margin?: OverlayMargin | number;
	/** Render the overlay only while this returns true for the terminal size. */
	visible?: (termWidth: number, termHeight: number) => boolean;
	/** Do not take keyboard focus when shown. */
	nonCapturing?: boolean;
}

export interface OverlayUnfocusOptions {
	target: Component | null;
}

export interface OverlayBounds {
	row: number;
	col: number;
	width: number;
	height: number;
}

export interface OverlayHandle {
	hide(): void;
	setHidden(hidden: boolean): void;
	isHidden(): boolean;
	focus(): void;
	unfocus(options?: OverlayUnfocusOptions): void;
	isFocused(): boolean;
	getBounds(): OverlayBounds | undefined;
}

export type TuiMode = "regular" | "fullscreen";

export interface TuiStopOptions {
	preserveScreen?: boolean;
}

/** The running terminal UI as components see it (the `tui` argument of extension factories). */
export interface TUI extends Component {
	readonly mode: TuiMode;
	children: Component[];
	terminal: Terminal;
	onDebug?: () => void;
	readonly fullRedraws: number;
	addChild(component: Component): void;
	removeChild(component: Component): void;
	clear(): void;
	getShowHardwareCursor(): boolean;
	setShowHardwareCursor(enabled: boolean): void;
	getClearOnShrink(): boolean;
	setClearOnShrink(enabled: boolean): void;
	setFocus(component: Component | null): void;
	showOverlay(component: Component, options?: OverlayOptions): OverlayHandle;
	hideOverlay(): void;
	hasOverlay(): boolean;
	start(): void;
	stop(options?: TuiStopOptions): void;
	renderNow(force?: boolean): void;
	requestRender(force?: boolean): void;
	addInputListener(listener: TuiInputListener): () => void;
	removeInputListener(listener: TuiInputListener): void;
	onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void;
	setTerminalColorSchemeNotifications(enabled: boolean): void;
	queryTerminalBackgroundColor(options: { timeoutMs: number }): Promise<RgbColor | undefined>;
	queryTerminalColorScheme(options: { timeoutMs: number }): Promise<TerminalColorScheme | undefined>;
}

/** Structural view of `tui` for components that only need to ask for a redraw (tolerates a missing tui). */
export type RenderRequester = Pick<TUI, "requestRender"> | null | undefined;
