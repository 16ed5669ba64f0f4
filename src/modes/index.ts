export { type PrintModeOptions, parseSlashCommand, runPrintMode } from "./print.ts";
