/** Mapping the unified reasoning level of `streamSimple` onto what each API expects. */
import type { Model, SimpleStreamOptions, ThinkingBudgets, ThinkingLevel } from "../types.ts";

export const DEFAULT_THINKING_BUDGETS: Required<ThinkingBudgets> = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
	xhigh: 32768,
	max: 32768,
};

/** Token budget for a level (custom budgets override the defaults). */
export function thinkingBudget(level: ThinkingLevel, budgets?: ThinkingBudgets): number {
	return budgets?.[level] ?? DEFAULT_THINKING_BUDGETS[level];
}

/**
 * The provider value for a level: the model's `thinkingLevelMap` wins (`null` = unsupported → undefined), else the
 * level name itself, with `xhigh`/`max` folded to `high` for providers that know only low/medium/high.
 */
export function mapThinkingLevel(model: Model, level: ThinkingLevel, foldHigh = true): string | undefined {
	const mapped = model.thinkingLevelMap?.[level];
	if (mapped === null) return undefined;
	if (typeof mapped === "string") return mapped;
	if (foldHigh && (level === "xhigh" || level === "max")) return "high";
	if (foldHigh && level === "minimal") return "low";
	return level;
}

/** Output limit for a request: explicit option, else the model's limit. */
export function maxOutputTokens(model: Model, options: SimpleStreamOptions | undefined): number {
	return options?.maxTokens ?? model.maxTokens;
}
