/**
 * `ctx.ui` straight on the surface, for the members that need no dialog. Dialogs (`select`, `confirm`, `input`,
 * `editor`, `custom`) answer as dismissed here; `createInteractiveUi` (ui-context.ts) supersedes this object.
 */
import type { InteractiveSurface } from "../surface.ts";

export function basicUi(surface: InteractiveSurface): Record<string, unknown> {
	const ui: Record<string, unknown> = {
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		editor: async () => undefined,
		custom: async () => undefined,
		notify: (message: string, type?: "info" | "warning" | "error") => surface.notify(message, type),
		onTerminalInput: (handler: never) => surface.addInputListener(handler),
		setStatus: (key: string, text: string | undefined) => surface.setStatus(key, text),
		setWorkingMessage: (message?: string) => surface.setWorkingMessage(message),
		setWorkingVisible: (visible: boolean) => surface.setWorkingVisible(visible),
		setWorkingIndicator: (options?: never) => surface.setWorkingIndicator(options),
		setHiddenThinkingLabel: (label?: string) => surface.setHiddenThinkingLabel(label),
		setWidget: (key: string, content: never, options?: { placement?: "aboveEditor" | "belowEditor" }) =>
			surface.setWidget(key, content, options?.placement ?? "aboveEditor"),
		setFooter: (factory: never) => surface.setFooter(factory),
		setHeader: (factory: never) => surface.setHeader(factory),
		setTitle: (title: string) => surface.setTitle(title),
		pasteToEditor: (text: string) => surface.pasteToEditor(text),
		setEditorText: (text: string) => surface.setEditorText(text),
		getEditorText: () => surface.getEditorText(),
		addAutocompleteProvider: (factory: never) => surface.addAutocompleteProvider(factory),
		setEditorComponent: (factory: never) => surface.setEditorComponent(factory),
		getEditorComponent: () => surface.getEditorComponent(),
		getAllThemes: () => surface.getAllThemes(),
		getTheme: (name: string) => surface.getTheme(name),
		setTheme: (theme: never) => surface.setTheme(theme),
		getToolsExpanded: () => surface.getToolsExpanded(),
		setToolsExpanded: (expanded: boolean) => surface.setToolsExpanded(expanded),
	};
	Object.defineProperty(ui, "theme", { enumerable: true, get: () => surface.theme() });
	return ui;
}
