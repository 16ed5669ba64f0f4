/**
 * llama.cpp router support (loaded on first use through `loadLlama()` of ai/index.ts; start-up needs only
 * startup.ts): the router client and its waits, Hugging Face search, the model catalogue, and the login.
 */
export { refreshConfiguredRouter, refreshLlamaModels, selectableModels, writeStoredModels } from "./catalog.ts";
export { formatBytes, inferenceUrl, normalizeServerUrl } from "./format.ts";
export { findHubToken, HubClient, hubUrl, parseHubReference } from "./hub.ts";
export { loginLlama, suggestedServerUrl } from "./login.ts";
export * from "./models.ts";
export { type FetchLike, isConnectionError, RouterClient } from "./router-client.ts";
export { downloadAndWait, downloadProgress, loadAndWait, loadProgress, unloadAndWait } from "./router-wait.ts";
export * from "./startup.ts";
export type * from "./types.ts";
