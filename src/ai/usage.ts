/** Token usage and its cost in USD (model prices are per million tokens). */
import type { Model, Usage } from "./types.ts";

export function emptyUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** Fills `usage.cost` from the model's prices and returns it. */
export function calculateCost(model: Pick<Model, "cost">, usage: Usage): Usage["cost"] {
	const c = model.cost;
	usage.cost.input = (c.input / 1_000_000) * usage.input;
	usage.cost.output = (c.output / 1_000_000) * usage.output;
	usage.cost.cacheRead = (c.cacheRead / 1_000_000) * usage.cacheRead;
	usage.cost.cacheWrite = (c.cacheWrite / 1_000_000) * usage.cacheWrite;
	usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
	return usage.cost;
}
