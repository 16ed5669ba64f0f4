/** The dialogs extensions open through `ctx.ui` (select/confirm, input, editor), shown in place of the editor. */
export { dialogBorder, keyMatches } from "./common.ts";
export { defaultEditorTheme, ExtensionEditorComponent, type ExtensionEditorOptions } from "./editor.ts";
export { type ExternalEditResult, editInExternalEditor, externalEditorCommand } from "./external-editor.ts";
export { ExtensionInputComponent, type ExtensionInputOptions } from "./input.ts";
export { ExtensionSelectorComponent, type ExtensionSelectorOptions } from "./selector.ts";
