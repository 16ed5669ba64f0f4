export * from "./commit.ts";
export * from "./fork.ts";
export type * from "./types.ts";
export * from "./values.ts";
