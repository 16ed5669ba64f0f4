/**
 * The interactive mode's pieces. Kept apart from `modes/index.ts` (which the CLI loads at start-up) so that print,
 * JSON and RPC runs do not load the terminal UI toolkit.
 */

export * from "./app/index.ts";
export * from "./components/index.ts";
export type * from "./surface.ts";
export * from "./transcript/index.ts";
