/**
 * The app's `InteractiveSurface`: what `ctx.ui` and the built-in dialogs drive. Widgets, footer and header
 * factories get the TUI and the current theme; an extension editor (`setEditorComponent`) takes over the default
 * editor's text, border colour, autocomplete and — when it is a CustomEditor — the app's key handlers.
 */
import { currentTheme, type ResourceLoader, setCurrentTheme, type Theme } from "../../../resources/index.ts";
import type { AutocompleteProvider, Component, EditorComponent, OverlayOptions } from "../../../tui/index.ts";
import type {
	AutocompleteWrapper,
	EditorFactory,
	ExtensionComponent,
	FooterFactory,
	HeaderFactory,
	InteractiveSurface,
	NotifyType,
} from "../surface.ts";
import { ExtensionWidgets } from "../widgets.ts";
import type { InteractiveApp } from "./app.ts";
import type { SessionView } from "./session-view.ts";
import type { StatusArea } from "./status-area.ts";

export interface SurfaceDeps {
	app: InteractiveApp;
	view: SessionView;
	status: StatusArea;
	resources: ResourceLoader;
	isStreaming(): boolean;
	thinkingLevel(): string;
	/** Saves the `theme` setting (setTheme by name). */
	saveTheme?(name: string): void;
	/** The built-in autocomplete provider (commands, files). */
	baseAutocomplete(): AutocompleteProvider | undefined;
	/** Reports a failing extension factory in one line. */
	reportError(source: string, error: unknown): void;
}

type EditorWithHandlers = EditorComponent &
	Component & {
		actionHandlers?: Map<string, () => void>;
		onEscape?: () => void;
		onCtrlD?: () => void;
		onPasteImage?: () => void;
		onExtensionShortcut?: (data: string) => boolean;
	};

export interface AppSurface {
	surface: InteractiveSurface;
	/** Drops everything extensions put on the screen (reload, session replacement). */
	reset(): void;
}

export function createAppSurface(d: SurfaceDeps): AppSurface {
	const { app, view, status } = d;
	const tui = app.tui;
	const widgets = new ExtensionWidgets(tui, (message) => surface.notify(message, "error"));
	app.layout.widgetsAbove.addChild(widgets.above);
	app.layout.widgetsBelow.addChild(widgets.below);
	let editorFactory: EditorFactory | undefined;
	let customFooter: ExtensionComponent | undefined;
	const wrappers: AutocompleteWrapper[] = [];
	const inputListeners = new Set<() => void>();

	const autocomplete = (): AutocompleteProvider | undefined => {
		let provider = d.baseAutocomplete();
		if (!provider) return undefined;
		for (const wrap of wrappers) {
			try {
				provider = wrap(provider);
			} catch (error) {
				d.reportError("addAutocompleteProvider", error);
			}
		}
		return provider;
	};

	const surface: InteractiveSurface = {
		tui,
		keybindings: app.keybindings,
		theme: () => currentTheme(),
		editorTheme: () => app.options.editorTheme(),
		requestRender: () => tui.requestRender(),
		replaceEditor: (component) => app.layout.replaceEditor(component),
		showOverlay: (component: Component, options?: OverlayOptions) => tui.showOverlay(component, options),
		hideOverlay: () => tui.hideOverlay(),
		notify(message: string, type: NotifyType = "info") {
			if (type === "error") app.chat.showError(message);
			else if (type === "warning") app.chat.showWarning(message);
			else app.chat.showStatus(message);
			tui.requestRender();
		},
		setStatus(key, text) {
			view.footerData.setExtensionStatus(key, text);
			tui.requestRender();
		},
		setWidget(key, content, placement) {
			widgets.set(key, content, placement);
		},
		setFooter(factory: FooterFactory | undefined) {
			customFooter?.dispose?.();
			customFooter = undefined;
			if (factory) {
				customFooter = fromFactory(() => factory(tui, currentTheme(), view.footerData), d, "setFooter");
			}
			app.layout.setFooter(customFooter ?? view.footer);
		},
		setHeader(factory: HeaderFactory | undefined) {
			const component = factory ? fromFactory(() => factory(tui, currentTheme()), d, "setHeader") : undefined;
			app.header.setCustomHeader(component);
			tui.requestRender();
		},
		setTitle: (title) => tui.terminal.setTitle(title),
		getEditorText: () => app.editor.getExpandedText?.() ?? app.editor.getText(),
		setEditorText(text) {
			app.editor.setText(text);
			tui.requestRender();
		},
		pasteToEditor(text) {
			const editor = app.editor as Component;
			if (editor.handleInput) editor.handleInput(`\x1b[200~${text}\x1b[201~`);
			else app.editor.setText(app.editor.getText() + text);
			tui.requestRender();
		},
		setEditorComponent(factory) {
			editorFactory = factory;
			const previous = app.editor;
			let next: EditorWithHandlers = app.defaultEditor as EditorWithHandlers;
			if (factory) {
				const made = fromFactory(
					() => factory(tui, app.options.editorTheme(), app.keybindings) as ExtensionComponent,
					d,
					"setEditorComponent",
				);
				if (made) next = made as unknown as EditorWithHandlers;
			}
			if (next !== app.defaultEditor) adoptDefaultEditor(next, app.defaultEditor as EditorWithHandlers);
			next.setText(previous.getText());
			const provider = autocomplete();
			if (provider) next.setAutocompleteProvider?.(provider);
			if (previous !== app.defaultEditor && previous !== next) (previous as ExtensionComponent).dispose?.();
			app.layout.setEditor(next);
			view.updateBorderColor();
			status.reattach();
		},
		getEditorComponent: () => editorFactory,
		addAutocompleteProvider(wrapper) {
			wrappers.push(wrapper);
			const provider = autocomplete();
			if (provider) {
				app.defaultEditor.setAutocompleteProvider(provider);
				if (app.editor !== app.defaultEditor) app.editor.setAutocompleteProvider?.(provider);
			}
		},
		setWorkingMessage: (message) => status.setWorkingMessage(message),
		setWorkingVisible: (visible) => status.setWorkingVisible(visible, d.isStreaming(), d.thinkingLevel()),
		setWorkingIndicator: (options) => status.setWorkingIndicator(options),
		setHiddenThinkingLabel(label) {
			app.chat.setHiddenThinkingLabel(label);
			tui.requestRender();
		},
		addInputListener(listener) {
			const off = tui.addInputListener(listener);
			inputListeners.add(off);
			return () => {
				inputListeners.delete(off);
				off();
			};
		},
		getAllThemes: () => d.resources.getThemes().themes.map((t) => ({ name: t.name ?? "", path: t.sourcePath })),
		getTheme: (name) => d.resources.getTheme(name),
		setTheme(theme: string | Theme) {
			const next = typeof theme === "string" ? d.resources.getTheme(theme) : theme;
			if (!next) return { success: false, error: `Theme not found: ${String(theme)}` };
			setCurrentTheme(next);
			if (typeof theme === "string") d.saveTheme?.(theme);
			tui.invalidate();
			view.updateBorderColor();
			tui.requestRender();
			return { success: true };
		},
		getToolsExpanded: () => app.toolsExpanded,
		setToolsExpanded: (expanded) => app.setToolsExpanded(expanded),
	};
	const reset = () => {
		while (tui.hasOverlay()) tui.hideOverlay();
		if (!app.layout.isEditorShown()) app.layout.showEditor();
		for (const off of inputListeners) off();
		inputListeners.clear();
		widgets.clear();
		if (customFooter) surface.setFooter(undefined);
		if (app.header.getCustomHeader()) surface.setHeader(undefined);
		if (editorFactory) surface.setEditorComponent(undefined);
		view.footerData.clearExtensionStatuses();
		wrappers.length = 0;
		const provider = d.baseAutocomplete();
		if (provider) app.defaultEditor.setAutocompleteProvider(provider);
		status.setWorkingMessage(undefined);
		status.setWorkingIndicator(undefined);
		status.workingVisible = true;
		app.chat.setHiddenThinkingLabel(undefined);
		view.updateTitle();
		tui.requestRender();
	};
	return { surface, reset };
}

function fromFactory(make: () => ExtensionComponent, d: SurfaceDeps, source: string): ExtensionComponent | undefined {
	try {
		return make();
	} catch (error) {
		d.reportError(source, error);
		return undefined;
	}
}

/** A CustomEditor from an extension keeps the app's keys: action handlers, Escape, Ctrl+D, paste, shortcuts. */
function adoptDefaultEditor(next: EditorWithHandlers, base: EditorWithHandlers): void {
	if (base.onSubmit) next.onSubmit = base.onSubmit;
	if (base.onChange) next.onChange = base.onChange;
	if (!(next.actionHandlers instanceof Map)) return;
	for (const [action, handler] of base.actionHandlers ?? []) next.actionHandlers.set(action, handler);
	if (base.onEscape) next.onEscape = base.onEscape;
	if (base.onCtrlD) next.onCtrlD = base.onCtrlD;
	if (base.onPasteImage) next.onPasteImage = base.onPasteImage;
	if (base.onExtensionShortcut) next.onExtensionShortcut = base.onExtensionShortcut;
}
