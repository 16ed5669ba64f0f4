export * from "./paths.ts";
export * from "./source.ts";
export * from "./types.ts";
