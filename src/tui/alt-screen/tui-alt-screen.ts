/**
 * TuiAltScreen: the fullscreen renderer (alternate screen, layout sized to the terminal, row diff, mouse routing,
 * wheel scrolling, owned selection and transcript search); stopping restores the terminal and, unless
 * `preserveScreen`, prints the document on the main screen.
 */
import { getKeybindings } from "../keybindings.ts";
import { isKeyRelease } from "../keys.ts";
import {
	getScrollViewBox,
	getScrollViewsAt,
	type LayoutFrame,
	OSC133_ZONE_PREFIX,
	renderLayoutFrame,
} from "../layout/frame.ts";
import { ScrollView } from "../layout/scroll-view.ts";
import type { TuiMouseDispatchResult } from "../mouse/dispatch.ts";
import { createMouseEvent, isMouseReport, parseMouseReport, wheelDirection, wheelLines } from "../mouse/sgr.ts";
import { isImageLine, VIEWPORT_TUI, type ViewportTUI } from "../render/composite.ts";
import { TuiBase } from "../render/tui-base.ts";
import type { Component, Terminal, TuiMouseEvent, TuiStopOptions } from "../types.ts";
import { CURSOR_MARKER } from "../types.ts";
import { sliceByColumn, visibleWidth } from "../width.ts";
import { AltScreenFlashes } from "./flash.ts";
import {
	AUTOWRAP_OFF,
	AUTOWRAP_ON,
	ENTER,
	LEAVE,
	leaveWithDocument,
	MOUSE_OFF,
	mouseModesFor,
	SYNC_BEGIN,
	SYNC_END,
	type TuiAltScreenOptions,
} from "./options.ts";
import { AltScreenPointer } from "./pointer.ts";
import { compositeEndLabel, compositeNotices, dispatchToLayout } from "./routing.ts";
import { SearchController } from "./search-controller.ts";

const FOCUS_IN = "\x1b[I";
const FOCUS_OUT = "\x1b[O";
const PAGE_OVERLAP = 4;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
const OSC133_PROMPT = /^\x1b\]133;A(?:\x07|\x1b\\)/;

export type { TuiAltScreenOptions } from "./options.ts";

export class TuiAltScreen extends TuiBase implements ViewportTUI {
	readonly mode = "fullscreen" as const;
	readonly [VIEWPORT_TUI] = true as const;
	private previousScreen: string[] = [];
	private previousWidth = 0;
	private previousHeight = 0;
	private layoutRoot: Component | undefined;
	private currentLayout: LayoutFrame | undefined;
	private readonly implicitScrollView: ScrollView;
	private readonly flashes: AltScreenFlashes;
	private readonly pointer: AltScreenPointer;
	private active = false;
	private search: SearchController | undefined;
	private endIndicator: { row: number; column: number; width: number } | undefined;
	private readonly wheelScrollLines: number;
	private readonly mouseEnabled: boolean;
	private copyOnSelect: boolean;

	constructor(
		terminal: Terminal,
		showHardwareCursor?: boolean,
		logDirectory?: string,
		private readonly options: TuiAltScreenOptions = {},
	) {
		super(terminal, showHardwareCursor, logDirectory);
		const self = this;
		// Without a layout root, the children form one document scrolled like a transcript.
		const document: Component & { children: Component[] } = {
			get children() {
				return self.children;
			},
			render: (width) => super.render(width),
			invalidate: () => {
				for (const child of this.children) child.invalidate();
			},
		};
		this.implicitScrollView = new ScrollView(document, { follow: "end", primary: true });
		this.flashes = new AltScreenFlashes(() => this.requestRender());
		this.wheelScrollLines = Math.max(1, Math.floor(options.wheelScrollLines ?? 1));
		this.mouseEnabled = options.mouse ?? true;
		this.copyOnSelect = options.copyOnSelect ?? true;
		this.pointer = new AltScreenPointer({
			layout: () => this.currentLayout,
			screen: () => this.previousScreen,
			size: () => ({ columns: Math.max(1, this.terminal.columns), rows: Math.max(1, this.terminal.rows) }),
			hasOverlay: () => this.hasOverlay(),
			requestRender: () => this.requestRender(),
			dispatchToOverlay: (event) => this.dispatchMouseToOverlay(event),
			dispatchToLayout: (event) => this.dispatchMouseToLayout(event),
			applyResult: (event, result) => this.applyMouseResult(event, result),
			copy: () => (this.copyOnSelect ? void this.copyActiveSelectionToClipboard() : undefined),
			openUrl: options.openUrl,
			endIndicatorHit: (x, y) => {
				const rect = this.endIndicator;
				if (!rect || y !== rect.row || x < rect.column || x >= rect.column + rect.width) return false;
				this.scrollToBottom();
				return true;
			},
			searchButtonHit: (x, y) => this.searchButtonAt(x, y),
		});
		this.addInputListener((data) => this.handleViewportInput(data));
	}

	get viewportTop(): number {
		return this.primaryView().scrollTop;
	}
	get isFollowingOutput(): boolean {
		return this.primaryView().isFollowingEnd;
	}
	getCopyOnSelect(): boolean {
		return this.copyOnSelect;
	}
	setCopyOnSelect(enabled: boolean): void {
		this.copyOnSelect = enabled;
	}
	hasActiveSelection(): boolean {
		return this.pointer.selection.text() !== undefined;
	}

	async copyActiveSelectionToClipboard(): Promise<boolean> {
		const text = this.pointer.selection.text();
		if (!text) return false;
		if (this.options.copySelection) {
			const result = await this.options.copySelection(text);
			const ok = result === true;
			this.flash(ok ? "Copied!" : typeof result === "string" ? result : "Copy failed", ok ? undefined : 5000);
			return ok;
		}
		this.terminal.write(`\x1b]52;c;${Buffer.from(text).toString("base64")}\x07`);
		this.flash("Copied!");
		return true;
	}

	setLayoutRoot(component: Component | undefined): void {
		if (this.layoutRoot === component) return;
		this.layoutRoot = component;
		this.currentLayout = undefined;
		this.requestRender();
	}

	override render(width: number): string[] {
		return this.layoutRoot?.render(width) ?? super.render(width);
	}

	protected override getMountedRoots(): readonly Component[] {
		return this.layoutRoot ? [this.layoutRoot] : this.children;
	}

	private primaryView(): ScrollView {
		return this.currentLayout?.primaryScrollView ?? this.implicitScrollView;
	}

	/** Show a transient notice at the top right. */
	flash(message: string, durationMs?: number): void {
		this.flashes.flash(message, durationMs);
	}

	scrollBy(lines: number): void {
		this.primaryView().scrollBy(lines);
		this.requestRender();
	}
	scrollToTop(): void {
		this.primaryView().scrollToStart();
		this.requestRender();
	}
	scrollToBottom(): void {
		this.primaryView().scrollToEnd();
		this.requestRender();
	}

	protected override beforeTerminalStart(): void {
		this.pointer.reset();
		this.flashes.dispose();
		this.active = true;
		this.resetRenderState();
		const mouse = this.mouseEnabled ? mouseModesFor(process.env) : "";
		this.terminal.write(`${ENTER}${AUTOWRAP_OFF}${mouse}\x1b[2J\x1b[H\x1b[?25l`);
	}

	protected override beforeTerminalStop(_options: TuiStopOptions): void {
		this.closeSearch();
		this.pointer.reset();
		this.flashes.dispose();
		if (!this.active) return;
		this.terminal.write(`${SYNC_BEGIN}${this.mouseEnabled ? MOUSE_OFF : ""}${AUTOWRAP_ON}${SYNC_END}`);
	}

	protected override afterTerminalStop(options: TuiStopOptions): void {
		if (!this.active) return;
		this.active = false;
		if (options.preserveScreen) {
			this.terminal.write(`${SYNC_BEGIN}${LEAVE}\x1b[?25h${SYNC_END}`);
			return;
		}
		// Leave the document on the main screen, as regular mode would have.
		const width = Math.max(1, this.terminal.columns);
		const lines = this.applyLineResets(
			this.render(width).map((line) => line.replace(OSC133_ZONE_PREFIX, "").replaceAll(CURSOR_MARKER, "")),
		).map((line) => (isImageLine(line) || visibleWidth(line) <= width ? line : sliceByColumn(line, 0, width, true)));
		this.terminal.write(leaveWithDocument(lines));
	}

	protected override resetRenderState(): void {
		this.previousScreen = [];
		this.previousWidth = 0;
		this.previousHeight = 0;
		this.currentLayout = undefined;
	}

	private toggleSearch(): void {
		if (this.search) {
			this.closeSearch();
			return;
		}
		const search = new SearchController(
			{
				match: this.options.searchMatchStyle ?? ((text) => `\x1b[4m${text}\x1b[24m`),
				current: this.options.searchCurrentMatchStyle ?? ((text) => `\x1b[1;7m${text}\x1b[22;27m`),
				button: this.options.searchNavigationButtonStyle ?? ((text) => text),
			},
			this.primaryView().scrollTop,
			() => this.requestRender(),
			() => this.primaryView(),
		);
		this.search = search;
		search.overlay = this.showOverlay(search.panel, { anchor: "top-right", width: "40%", minWidth: 32, margin: 1 });
	}

	private closeSearch(): void {
		const search = this.search;
		if (!search) return;
		this.search = undefined;
		search.overlay?.hide();
		this.requestRender();
	}

	private searchButtonAt(x: number, y: number): -1 | 1 | undefined {
		const bounds = this.search?.overlay?.getBounds();
		if (!this.search || !bounds) return undefined;
		if (x < bounds.col || x >= bounds.col + bounds.width || y < bounds.row || y >= bounds.row + bounds.height)
			return undefined;
		const direction = this.search.panel.getNavigationDirectionAt(y - bounds.row, x - bounds.col);
		if (direction !== undefined) this.search.navigate(direction);
		return direction;
	}

	private scrollToPrompt(direction: 1 | -1): void {
		const view = this.primaryView();
		const frame = this.currentLayout;
		const box = frame ? getScrollViewBox(frame, view) : undefined;
		const lines = box?.scrollContentLines;
		if (!lines) return;
		for (let row = view.scrollTop + direction; row >= 0 && row < lines.length; row += direction) {
			if (!OSC133_PROMPT.test(lines[row] ?? "")) continue;
			view.scrollTo(row);
			this.requestRender();
			return;
		}
	}

	/** Mouse reports, focus reports, search and scrolling keys; everything else goes on to the focused component. */
	private handleViewportInput(data: string): { consume: true } | undefined {
		if (data === FOCUS_OUT) {
			this.pointer.focusLost();
			return { consume: true };
		}
		if (data === FOCUS_IN) return { consume: true };
		const report = parseMouseReport(data);
		if (report) {
			if (wheelDirection(report) !== 0) this.handleWheel(report);
			else this.pointer.handle(report);
			return { consume: true };
		}
		if (isMouseReport(data)) return { consume: true };
		const keys = getKeybindings();
		const release = isKeyRelease(data);
		const act = (fn: () => void): { consume: true } => {
			if (!release) fn();
			return { consume: true };
		};
		if (keys.matches(data, "tui.altScreen.search")) return act(() => this.toggleSearch());
		const search = this.search;
		if (search?.overlay?.isFocused()) {
			if (keys.matches(data, "tui.altScreen.searchNext")) return act(() => search.navigate(1));
			if (keys.matches(data, "tui.altScreen.searchPrevious")) return act(() => search.navigate(-1));
			if (keys.matches(data, "tui.altScreen.searchClose")) return act(() => this.closeSearch());
		}
		if (this.deferToOverlay()) return undefined;
		const page = Math.max(1, this.primaryView().viewportHeight - PAGE_OVERLAP);
		const half = Math.max(1, Math.floor(this.primaryView().viewportHeight / 2));
		if (keys.matches(data, "tui.altScreen.pageUp")) return act(() => this.scrollBy(-page));
		if (keys.matches(data, "tui.altScreen.pageDown")) return act(() => this.scrollBy(page));
		if (keys.matches(data, "tui.altScreen.halfPageUp")) return act(() => this.scrollBy(-half));
		if (keys.matches(data, "tui.altScreen.halfPageDown")) return act(() => this.scrollBy(half));
		if (keys.matches(data, "tui.altScreen.lineUp")) return act(() => this.scrollBy(-1));
		if (keys.matches(data, "tui.altScreen.lineDown")) return act(() => this.scrollBy(1));
		if (keys.matches(data, "tui.altScreen.previousPrompt")) return act(() => this.scrollToPrompt(-1));
		if (keys.matches(data, "tui.altScreen.nextPrompt")) return act(() => this.scrollToPrompt(1));
		if (keys.matches(data, "tui.altScreen.top")) return act(() => this.scrollToTop());
		if (keys.matches(data, "tui.altScreen.bottom")) return act(() => this.scrollToBottom());
		return undefined;
	}

	/** A focused overlay other than the search panel gets the scrolling keys itself. */
	private deferToOverlay(): boolean {
		return this.isOverlayFocused() && this.search?.overlay?.isFocused() !== true;
	}

	/** The wheel goes to a component that handles it, else scrolls the views under the pointer, innermost first. */
	private handleWheel(report: NonNullable<ReturnType<typeof parseMouseReport>>): void {
		const lines = wheelDirection(report) * wheelLines(report, this.wheelScrollLines);
		const { columns, rows } = { columns: this.terminal.columns, rows: this.terminal.rows };
		const event = createMouseEvent("wheel", report.button, report.x, report.y, columns, rows, { wheelDelta: lines });
		const overlay = this.dispatchMouseToOverlay(event);
		const result = overlay.result ?? (overlay.hit ? undefined : this.dispatchMouseToLayout(event));
		if (result) {
			if (this.applyMouseResult(event, result)) this.requestRender();
			return;
		}
		if (this.deferToOverlay()) return;
		let remaining = lines;
		const seen = new Set<ScrollView>();
		for (const view of this.currentLayout ? getScrollViewsAt(this.currentLayout, report.x, report.y) : []) {
			seen.add(view);
			remaining = view.scrollBy(remaining);
			if (remaining === 0 || view.overscroll === "contain") break;
		}
		const primary = this.primaryView();
		if (remaining !== 0 && !seen.has(primary)) primary.scrollBy(remaining);
		this.requestRender();
	}

	private dispatchMouseToLayout(event: TuiMouseEvent): TuiMouseDispatchResult | undefined {
		return dispatchToLayout(this.currentLayout, event);
	}

	/** Apply focus/capture from a handled event; returns whether to render. */
	private applyMouseResult(event: TuiMouseEvent, result: TuiMouseDispatchResult): boolean {
		const target = this.resolveMouseFocusTarget(result.focusTarget ?? result.target.component);
		const focusChanged = result.focus === true && this.getFocusedComponent() !== target;
		if (result.focus) this.setFocus(target);
		if (result.capture) this.pointer.capture(result.target);
		return result.render ?? (focusChanged || ["press", "click", "drag", "wheel"].includes(event.type));
	}

	protected doRender(): void {
		if (this.stopped || !this.active) return;
		const width = Math.max(1, this.terminal.columns);
		const height = Math.max(1, this.terminal.rows);
		const root = this.layoutRoot ?? this.implicitScrollView;
		const frameRender = (): LayoutFrame => renderLayoutFrame(root, width, height, () => this.requestRender());
		let frame = frameRender();
		const view = frame.primaryScrollView ?? this.implicitScrollView;
		if (this.search?.refresh(frame, view)) frame = frameRender();
		let screen = frame.lines;
		if (this.search) screen = this.search.highlight(screen, frame, view, width);
		const labelled = compositeEndLabel(screen, frame, view, this.options.scrollToEndIndicator, width);
		this.endIndicator = labelled.rect;
		screen = labelled.screen;
		screen = this.compositeOverlays([...screen], width, height);
		if (screen.length > height) screen = screen.slice(screen.length - height);
		this.currentLayout = frame;
		screen = this.pointer.paintSelection(screen);
		screen = compositeNotices(screen, this.flashes.render(width), width);
		const cursor = this.extractCursorPosition(screen, height);
		screen = this.applyLineResets(screen).map((line) =>
			isImageLine(line) || visibleWidth(line) <= width ? line : sliceByColumn(line, 0, width, true),
		);
		const full = this.previousScreen.length === 0 || this.previousWidth !== width || this.previousHeight !== height;
		let out = SYNC_BEGIN;
		if (full) {
			this.fullRedrawCount += 1;
			out += "\x1b[2J";
		}
		for (let row = 0; row < height; row++) {
			if (!full && screen[row] === this.previousScreen[row]) continue;
			out += `\x1b[${row + 1};1H\x1b[2K${screen[row] ?? ""}`;
		}
		if (cursor) {
			out += `\x1b[${cursor.row + 1};${Math.min(width, cursor.col) + 1}H`;
			out += this.getShowHardwareCursor() ? "\x1b[?25h" : "\x1b[?25l";
		} else out += "\x1b[?25l";
		this.terminal.write(out + SYNC_END);
		this.previousScreen = screen;
		this.previousWidth = width;
		this.previousHeight = height;
	}
}
