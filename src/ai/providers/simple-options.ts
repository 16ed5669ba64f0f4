/** Mapping the unified reasoning level of `streamSimple` onto what each API expects (pi-ai's rules). */
import { clampThinkingLevel } from "../models/index.ts";
import type {
	CacheRetention,
	Context,
	Model,
	SimpleStreamOptions,
	StreamOptions,
	ThinkingBudgets,
	ThinkingLevel,
} from "../types.ts";
import { clampMaxTokensToContext } from "./context-estimate.ts";

/** Token budgets per level; xhigh and max use high's (pi-ai has no larger default). */
export const DEFAULT_THINKING_BUDGETS = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
} as const;

/** Tokens always left for the answer when a thinking budget shares the response ceiling. */
export const MIN_ANSWER_TOKENS = 1024;

type BudgetLevel = keyof typeof DEFAULT_THINKING_BUDGETS;

function budgetLevel(level: ThinkingLevel): BudgetLevel {
	return level === "xhigh" || level === "max" ? "high" : level;
}

/** Token budget for a level (custom budgets override the defaults; xhigh and max read high's). */
export function thinkingBudget(level: ThinkingLevel, budgets?: ThinkingBudgets): number {
	const key = budgetLevel(level);
	return budgets?.[key] ?? DEFAULT_THINKING_BUDGETS[key];
}

/**
 * The response ceiling and the thinking budget within it: with an explicit cap the budget is added on top (up to the
 * model's limit); the budget shrinks when it would leave no room for an answer.
 */
export function adjustMaxTokensForThinking(
	baseMaxTokens: number | undefined,
	modelMaxTokens: number,
	level: ThinkingLevel,
	budgets?: ThinkingBudgets,
): { maxTokens: number; thinkingBudget: number } {
	let budget = thinkingBudget(level, budgets);
	const maxTokens = baseMaxTokens === undefined ? modelMaxTokens : Math.min(baseMaxTokens + budget, modelMaxTokens);
	if (maxTokens <= budget) budget = Math.min(budget, Math.max(0, maxTokens - MIN_ANSWER_TOKENS));
	return { maxTokens, thinkingBudget: budget };
}

/** The level a model can do (its map may rule levels out), or "off". */
export function supportedLevel(model: Model, level: ThinkingLevel): ThinkingLevel | undefined {
	const clamped = clampThinkingLevel(model, level);
	return clamped === "off" ? undefined : clamped;
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

/**
 * The prompt-cache retention of a request: the option, else "long" when `PI_CACHE_RETENTION=long` (in the
 * options' `env`, else the process environment), else "short" (pi-ai's rule for Anthropic and OpenAI).
 */
export function cacheRetention(options: StreamOptions | undefined): CacheRetention {
	if (options?.cacheRetention) return options.cacheRetention;
	const env = (options?.env as Record<string, string | undefined> | undefined) ?? process.env;
	return env.PI_CACHE_RETENTION === "long" ? "long" : "short";
}

/** Output limit for a request: explicit option, else the model's limit; lowered to fit the context window. */
export function maxOutputTokens(model: Model, context: Context, options: SimpleStreamOptions | undefined): number {
	return clampMaxTokensToContext(model, context, options?.maxTokens ?? model.maxTokens);
}
