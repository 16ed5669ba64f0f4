export * from "./reducer.ts";
