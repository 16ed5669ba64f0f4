export { parseSlashCommand, type PrintModeOptions, runPrintMode } from "./print.ts";
