/** `/llama`: the llama.cpp router's models (the dialog loads on first use). */
import type { BuiltinCommand } from "./types.ts";

export const LLAMA_COMMANDS: readonly BuiltinCommand[] = [
	{
		name: "llama",
		description: "Manage llama.cpp router models",
		run: async (c) => (await import("../llama/index.ts")).openLlama(c),
	},
];
