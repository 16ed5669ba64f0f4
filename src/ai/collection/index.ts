export * from "./images.ts";
export { lazyApi, lazyStream } from "./lazy.ts";
export { createModels } from "./models.ts";
export { createProvider, InMemoryModelsStore } from "./provider.ts";
export type * from "./types.ts";
