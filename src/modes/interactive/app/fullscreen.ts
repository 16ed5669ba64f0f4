/**
 * Fullscreen transcript mode (`tuiMode: "fullscreen"`, pi 0.87.1's settings.md): the app draws on the terminal's
 * alternate screen, the transcript (header, loaded resources, chat) in a scroll view that follows new output and
 * the input dock (pending messages, status, widgets, editor, footer) fixed below it. The `tui.altScreen.*` keys
 * scroll, jump between prompts and search the transcript; the mouse wheel scrolls and a drag selects (copied at
 * once unless `fullscreenCopyOnSelect` is false, then the copy key copies it). On exit the transcript is printed
 * on the main screen, or with `fullscreenExitOutput: "resume-hint"` nothing is (the resume command still is).
 */
import { currentTheme } from "../../../resources/index.ts";
import {
	Container,
	type CustomEditor,
	formatKeyText,
	getKeybindings,
	isViewportTUI,
	ScrollView,
	type Terminal,
	type TerminalColorScheme,
	TuiAltScreen,
	type TuiBase,
	type TuiInputListener,
	TuiMainScreen,
	VStack,
} from "../../../tui/index.ts";
import { copyToClipboard, errorMessage } from "../../../util/index.ts";
import type { AppLayout } from "./layout.ts";

export interface TuiModeSettings {
	tuiMode?: "regular" | "fullscreen";
	/** What is printed when fullscreen mode exits (default "transcript"). */
	fullscreenExitOutput?: "transcript" | "resume-hint";
	/** The transcript's scrollbar (default "auto": shown while scrolling). */
	fullscreenScrollbar?: "auto" | "always" | "hidden";
	/** Copy a mouse selection when the button is released (default true). */
	fullscreenCopyOnSelect?: boolean;
}

/** The renderer for the mode: the regular main-screen TUI, or the alternate-screen one styled with the theme. */
function createRenderer(terminal: Terminal, showHardwareCursor: boolean, settings: TuiModeSettings): TuiBase {
	if (settings.tuiMode !== "fullscreen") return new TuiMainScreen(terminal, showHardwareCursor);
	const theme = () => currentTheme();
	const match = (text: string) => theme().bg("searchMatchBg", theme().fg("searchMatchText", text));
	return new TuiAltScreen(terminal, showHardwareCursor, undefined, {
		searchMatchStyle: (text) => theme().underline(match(text)),
		searchCurrentMatchStyle: (text) => theme().bold(theme().inverse(match(text))),
		searchNavigationButtonStyle: (text, hovered) => (hovered ? theme().underline(text) : text),
		scrollToEndIndicator: () => {
			const keys = getKeybindings().getKeys("tui.altScreen.bottom");
			const key = keys.length > 0 ? formatKeyText(keys.join("/"), { capitalize: true }) : "";
			return theme().bg("selectedBg", theme().fg("text", ` ↓ Jump to latest message${key ? ` · ${key}` : ""} `));
		},
		copyOnSelect: settings.fullscreenCopyOnSelect ?? true,
		copySelection: async (text) => {
			try {
				await copyToClipboard(text);
				return true;
			} catch (error) {
				return errorMessage(error);
			}
		},
	});
}

/**
 * The app's renderer behind one stable reference (`tui`): every component keeps it while a mode switch replaces
 * the renderer underneath. Input and colour-scheme listeners added through it move to the new renderer.
 */
export class AppScreen {
	readonly tui: TuiBase;
	private current: TuiBase;
	private readonly inputListeners = new Set<TuiInputListener>();
	private readonly schemeListeners = new Map<(scheme: TerminalColorScheme) => void, () => void>();

	constructor(
		private readonly terminal: Terminal,
		private readonly showHardwareCursor: boolean,
		private readonly settings: TuiModeSettings,
	) {
		this.current = createRenderer(terminal, showHardwareCursor, settings);
		const own: Record<string | symbol, unknown> = {
			addInputListener: (listener: TuiInputListener) => {
				this.inputListeners.add(listener);
				this.current.addInputListener(listener);
				return () => {
					this.inputListeners.delete(listener);
					this.current.removeInputListener(listener);
				};
			},
			removeInputListener: (listener: TuiInputListener) => {
				this.inputListeners.delete(listener);
				this.current.removeInputListener(listener);
			},
			onTerminalColorSchemeChange: (listener: (scheme: TerminalColorScheme) => void) => {
				this.schemeListeners.set(listener, this.current.onTerminalColorSchemeChange(listener));
				return () => {
					this.schemeListeners.get(listener)?.();
					this.schemeListeners.delete(listener);
				};
			},
		};
		this.tui = new Proxy({} as TuiBase, {
			get: (_target, property) => {
				if (Object.hasOwn(own, property)) return own[property];
				const value = Reflect.get(this.current, property, this.current);
				return typeof value === "function"
					? (...args: unknown[]) => Reflect.apply(Reflect.get(this.current, property) as never, this.current, args)
					: value;
			},
			set: (_target, property, value) => Reflect.set(this.current, property, value, this.current),
			has: (_target, property) => Reflect.has(this.current, property),
			getPrototypeOf: () => Reflect.getPrototypeOf(this.current),
		});
	}

	get mode(): "regular" | "fullscreen" {
		return this.current instanceof TuiAltScreen ? "fullscreen" : "regular";
	}

	/**
	 * Switches between regular and fullscreen mode while running, keeping the components, the focus and the
	 * listeners; false (nothing changed) while an overlay is open, as in pi.
	 */
	switchMode(mode: "regular" | "fullscreen", layout: AppLayout): boolean {
		const previous = this.current;
		if (mode === this.mode) return true;
		if (previous.hasOverlayEntries) return false;
		const children = [...previous.children];
		const focus = previous.getFocusedComponent();
		previous.stop({ preserveScreen: true });
		previous.setFocus(null);
		previous.clear();
		if (previous instanceof TuiAltScreen) previous.setLayoutRoot(undefined);
		for (const listener of this.inputListeners) previous.removeInputListener(listener);
		const next = createRenderer(this.terminal, this.showHardwareCursor, { ...this.settings, tuiMode: mode });
		next.setClearOnShrink(previous.getClearOnShrink());
		if (previous.onRenderProblem) next.onRenderProblem = previous.onRenderProblem;
		if (previous.onDebug) next.onDebug = previous.onDebug;
		this.current = next;
		this.settings.tuiMode = mode;
		for (const child of children) next.addChild(child);
		this.transcript = mountFullscreenLayout(next, layout, this.settings);
		for (const listener of this.inputListeners) next.addInputListener(listener);
		for (const [listener, off] of this.schemeListeners) {
			off();
			this.schemeListeners.set(listener, next.onTerminalColorSchemeChange(listener));
		}
		next.invalidate();
		next.setFocus(focus);
		next.start();
		next.requestRender(true);
		return true;
	}

	/** The fullscreen transcript's scroll view, once mounted. */
	transcript: ScrollView | undefined;

	/** Lays the screen out for the current mode (after the layout's parts were added). */
	mount(layout: AppLayout): void {
		this.transcript = mountFullscreenLayout(this.current, layout, this.settings);
	}

	/** `fullscreenScrollbar` / `fullscreenCopyOnSelect` changed in /settings: applied now. */
	applyFullscreenSettings(change: Pick<TuiModeSettings, "fullscreenScrollbar" | "fullscreenCopyOnSelect">): void {
		Object.assign(this.settings, change);
		if (change.fullscreenScrollbar) this.transcript?.setScrollbar(change.fullscreenScrollbar);
		const current = this.current;
		if (change.fullscreenCopyOnSelect !== undefined && current instanceof TuiAltScreen)
			current.setCopyOnSelect(change.fullscreenCopyOnSelect);
	}
}

/**
 * In fullscreen mode, lays the screen out as transcript over input dock (the layout's parts stay the TUI's
 * children, so regular-mode code that adds to them works unchanged). Returns the transcript's scroll view.
 */
export function mountFullscreenLayout(
	tui: TuiBase,
	layout: AppLayout,
	settings: TuiModeSettings,
): ScrollView | undefined {
	if (!isViewportTUI(tui) || !(tui instanceof TuiAltScreen)) return undefined;
	const theme = () => currentTheme();
	const document = new Container();
	for (const part of [layout.header, layout.resources, layout.chat]) document.addChild(part);
	const transcript = new ScrollView(document, {
		follow: "end",
		primary: true,
		overscroll: "chain",
		scrollbar: settings.fullscreenScrollbar ?? "auto",
		scrollbarTrackStyle: (text) => theme().fg("scrollbarTrack", text),
		scrollbarThumbStyle: (text) => theme().fg("scrollbarThumb", text),
	});
	const dock = new VStack([
		{ component: layout.pending, shrink: 1, minSize: 0 },
		{ component: layout.statusRow, shrink: 1, minSize: 0 },
		{ component: layout.widgetsAbove, shrink: 1, minSize: 0 },
		{ component: layout.editorSlot, shrink: 1, minSize: 3 },
		{ component: layout.widgetsBelow, shrink: 1, minSize: 0 },
		{ component: layout.footer, shrink: 1, minSize: 0 },
	]);
	tui.setLayoutRoot(
		new VStack([
			{ component: transcript, basis: 0, grow: 1, shrink: 1, minSize: 1 },
			{ component: dock, basis: "auto", grow: 0, shrink: 1, minSize: 1 },
		]),
	);
	return transcript;
}

/**
 * Gives the terminal back at quit. Fullscreen: leaves the alternate screen and prints the transcript on the main
 * screen ("transcript"), or prints nothing ("resume-hint"). Regular mode keeps its last frame.
 */
export function stopAppTui(tui: TuiBase, settings: TuiModeSettings): void {
	if (tui instanceof TuiAltScreen) {
		while (tui.hasOverlayEntries) tui.hideOverlay();
		// Without the layout root the screen's parts render one below the other, in full: regular mode's frame.
		tui.setLayoutRoot(undefined);
		tui.stop({ preserveScreen: settings.fullscreenExitOutput === "resume-hint" });
		return;
	}
	tui.stop();
}

/**
 * The copy key in fullscreen mode with `fullscreenCopyOnSelect: false`: copies the mouse selection when there is
 * one; otherwise (and in regular mode) the key does what it did before (the last reply, /copy).
 */
export function bindSelectionCopy(tui: TuiBase, editor: CustomEditor): void {
	if (!(tui instanceof TuiAltScreen)) return;
	const previous = editor.actionHandlers.get("app.message.copy");
	editor.onAction("app.message.copy", () => {
		if (!tui.getCopyOnSelect() && tui.hasActiveSelection()) void tui.copyActiveSelectionToClipboard();
		else previous?.();
	});
}
