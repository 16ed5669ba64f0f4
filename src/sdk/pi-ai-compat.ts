/** `pi-ai/compat`: provider construction for custom providers. Filled by the LLM issue. */
export * from "./pi-ai.ts";
