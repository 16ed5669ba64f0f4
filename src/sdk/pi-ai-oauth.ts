/** `pi-ai/oauth`: OAuth provider types and helpers. Login flows arrive with the LLM issue. */
export {};
