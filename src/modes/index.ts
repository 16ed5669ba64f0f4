export { exportSessionFileHtml, exportSessionHtml, type HtmlExportOptions, renderSessionHtml } from "./export-html.ts";
export { type JsonModeOptions, runJsonMode } from "./json.ts";
export { type PrintModeOptions, runPrintMode } from "./print.ts";
export { type PromptInput, parseSlashCommand, type RunPromptsOptions, runPrompts } from "./prompts.ts";
export * from "./rpc/index.ts";
export { type RuntimePrintModeOptions, runRuntimePrintMode } from "./runtime-print.ts";
