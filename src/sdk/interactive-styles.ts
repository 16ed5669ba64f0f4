/**
 * The styles the interactive mode draws with, loaded on demand: the editor theme from the run's theme, and
 * Markdown / code highlighting for the transcript (loading the theme helpers installs them, with chalk).
 */
import type { EditorTheme } from "../tui/index.ts";

export interface InteractiveStyles {
	editorTheme(): EditorTheme;
	/** Loads every highlighting grammar (the common ones are there from the start). */
	loadAllHighlightLanguages(): Promise<void>;
}

export async function loadInteractiveStyles(): Promise<InteractiveStyles> {
	const [styles, highlight] = await Promise.all([import("./theme-helpers.ts"), import("./highlight.ts")]);
	return { editorTheme: styles.getEditorTheme, loadAllHighlightLanguages: highlight.loadAllHighlightLanguages };
}
