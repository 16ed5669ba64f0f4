/** `pi-ai/models`: the model catalogue lookups. Filled by the LLM issue. */
export {};
