/** `pi-ai/providers/all`: registers every built-in provider. Filled by the LLM issue. */
export {};
