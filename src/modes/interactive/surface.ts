/**
 * The contract between the interactive app (the screen: layout, editor, chat, footer) and what drives it from
 * outside — `ctx.ui` for extensions, and the app's own dialogs. The app implements `InteractiveSurface`;
 * `createInteractiveUi` (ui-context.ts) builds every `ctx.ui` member on top of it, so the UI semantics can be
 * tested against a surface made of plain components.
 */
import type { Theme } from "../../resources/index.ts";
import type {
	AutocompleteProvider,
	Component,
	EditorTheme,
	KeybindingsManager,
	OverlayHandle,
	OverlayOptions,
	TuiBase,
	TuiInputListener,
} from "../../tui/index.ts";

export type NotifyType = "info" | "warning" | "error";
export type WidgetPlacement = "aboveEditor" | "belowEditor";

/** A component an extension's factory returned; `dispose` is called when it is replaced or removed. */
export type ExtensionComponent = Component & { dispose?(): void };
export type WidgetFactory = (tui: TuiBase, theme: Theme) => ExtensionComponent;
export type HeaderFactory = (tui: TuiBase, theme: Theme) => ExtensionComponent;
export type FooterFactory = (tui: TuiBase, theme: Theme, footerData: unknown) => ExtensionComponent;
export type EditorFactory = (tui: TuiBase, theme: EditorTheme, keybindings: KeybindingsManager) => Component;
export type AutocompleteWrapper = (current: AutocompleteProvider) => AutocompleteProvider;

export interface WorkingIndicatorOptions {
	frames?: string[];
	intervalMs?: number;
}

/** The app's screen as `ctx.ui` and the built-in dialogs drive it. */
export interface InteractiveSurface {
	readonly tui: TuiBase;
	readonly keybindings: KeybindingsManager;
	/** The run's current theme (read each time: it changes with `setTheme`). */
	theme(): Theme;
	editorTheme(): EditorTheme;
	requestRender(): void;

	/**
	 * Puts `component` where the editor is and focuses it. The returned function puts the editor back (with the
	 * text it had), refocuses it and renders; calling it twice does nothing. A second `replaceEditor` while one is
	 * up replaces the first (whose restore function then does nothing).
	 */
	replaceEditor(component: Component): () => void;
	/** Shows an overlay (the TUI's `showOverlay`), focus and all. */
	showOverlay(component: Component, options?: OverlayOptions): OverlayHandle;
	/** Removes the topmost overlay. */
	hideOverlay(): void;

	/** info → a dim status line (replacing a status line right above it), warning / error → `Warning: …` / `Error: …`. */
	notify(message: string, type?: NotifyType): void;
	/** Footer statuses; undefined removes one. */
	setStatus(key: string, text: string | undefined): void;
	/** Lines or a factory; undefined removes (and disposes) the widget. */
	setWidget(key: string, content: string[] | WidgetFactory | undefined, placement: WidgetPlacement): void;
	setFooter(factory: FooterFactory | undefined): void;
	setHeader(factory: HeaderFactory | undefined): void;
	/** OSC 0 window title. */
	setTitle(title: string): void;

	/** The active editor's text with paste markers expanded. */
	getEditorText(): string;
	setEditorText(text: string): void;
	/** Fed to the active editor as a bracketed paste. */
	pasteToEditor(text: string): void;
	setEditorComponent(factory: EditorFactory | undefined): void;
	getEditorComponent(): EditorFactory | undefined;
	addAutocompleteProvider(wrapper: AutocompleteWrapper): void;

	setWorkingMessage(message?: string): void;
	setWorkingVisible(visible: boolean): void;
	setWorkingIndicator(options?: WorkingIndicatorOptions): void;
	setHiddenThinkingLabel(label?: string): void;

	/** Keyboard input before the focused component sees it; returns the unsubscribe function. */
	addInputListener(listener: TuiInputListener): () => void;

	getAllThemes(): { name: string; path: string | undefined }[];
	getTheme(name: string): Theme | undefined;
	/** By name: switch and save the `theme` setting; a Theme object: switch only. */
	setTheme(theme: string | Theme): { success: boolean; error?: string };

	getToolsExpanded(): boolean;
	/** Also posts `Tool output: expanded|collapsed`. */
	setToolsExpanded(expanded: boolean): void;
}
