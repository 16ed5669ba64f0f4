/**
 * The interactive mode's pieces. Kept apart from `modes/index.ts` (which the CLI loads at start-up) so that print,
 * JSON and RPC runs do not load the terminal UI toolkit.
 */

export * from "./app/index.ts";
// The footer as pi-coding-agent exports it (same constructor as pi's FooterComponent)
export {
	FooterComponent,
	type FooterDataProvider,
	type FooterSession,
} from "./chrome/index.ts";
export * from "./components/index.ts";
// Extension UI in the interactive mode: dialogs, widgets and ctx.ui on the app's surface
export * from "./dialogs/index.ts";
export * from "./package-config/index.ts";
// Selectors with pi-coding-agent's exported constructors
export {
	ShowImagesSelectorComponent,
	ThinkingSelectorComponent,
	UserMessageSelectorComponent,
} from "./selectors/pi-form.ts";
export type * from "./surface.ts";
export * from "./transcript/index.ts";
export { createInteractiveUi, type InteractiveUiOptions, resetInteractiveUi } from "./ui-context.ts";
export { ExtensionWidgets, MAX_WIDGET_LINES, WidgetArea } from "./widgets.ts";
