export * from "./paths.ts";
export * from "./resolve.ts";
export * from "./resources.ts";
export * from "./source.ts";
export * from "./types.ts";
