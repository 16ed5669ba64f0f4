/** Fuzzy matching lives in util (the CLI's `--list-models` search uses it too); the TUI re-exports it. */
export { type FuzzyMatch, fuzzyFilter, fuzzyMatch } from "../util/index.ts";
