/**
 * `ctx.ui` where there is no UI (print and JSON modes): every method exists, does nothing, and answers like a
 * user who dismissed the dialog (`undefined`, `false`, `""`). `hasUI` is false alongside it. `theme` is the
 * run's theme, added by the runtime.
 */
export function createNoopUi(): Record<string, unknown> {
	const nothing = () => undefined;
	return {
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		editor: async () => undefined,
		custom: async () => undefined,
		notify: nothing,
		onTerminalInput: () => nothing,
		setStatus: nothing,
		setWorkingMessage: nothing,
		setWorkingVisible: nothing,
		setWorkingIndicator: nothing,
		setHiddenThinkingLabel: nothing,
		setWidget: nothing,
		setFooter: nothing,
		setHeader: nothing,
		setTitle: nothing,
		pasteToEditor: nothing,
		setEditorText: nothing,
		getEditorText: () => "",
		addAutocompleteProvider: nothing,
		setEditorComponent: nothing,
		getEditorComponent: nothing,
		getAllThemes: () => [],
		getTheme: nothing,
		setTheme: () => ({ success: false, error: "UI not available" }),
		getToolsExpanded: () => false,
		setToolsExpanded: nothing,
	};
}
