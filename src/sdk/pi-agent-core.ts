/** `pi-agent-core`: the agent loop. Filled by the agent issue. */
export {};
