export { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_TOKENS, mergeCompat } from "./compose.ts";
export { credentialHint } from "./credential-hint.ts";
export { ModelRegistry } from "./registry.ts";
export { type ModelsJson, modelsJsonSchema, parseModelsJson, readModelsJson } from "./schema.ts";
export type { ModelDefinition, ModelOverride, ModelRegistryOptions, ProviderConfig } from "./types.ts";
