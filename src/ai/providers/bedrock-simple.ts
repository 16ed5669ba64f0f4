/**
 * `streamSimple` for Bedrock: pi-ai 0.87.1's common options (the output limit fitted to the context window) plus
 * the tool choice; a reasoning level turns thinking on. Claude models with a token budget get the budget added to
 * the output limit and kept 1024 tokens below it; adaptive-thinking Claude models and other models get the level
 * as it is. Bedrock-only options (region, profile, bearer token) are not carried over, as in pi.
 */
import type { Context, Model, SimpleStreamOptions } from "../types.ts";
import { adaptiveThinking, type BedrockOptions, isClaude } from "./bedrock-request.ts";
import { clampMaxTokensToContext } from "./context-estimate.ts";
import { adjustMaxTokensForThinking, MIN_ANSWER_TOKENS } from "./simple-options.ts";

const COMMON = [
	"temperature",
	"signal",
	"apiKey",
	"cacheRetention",
	"sessionId",
	"headers",
	"onPayload",
	"onResponse",
	"timeoutMs",
	"maxRetries",
	"maxRetryDelayMs",
	"metadata",
	"env",
] as const;

export function bedrockSimpleOptions(
	model: Model,
	context: Context,
	options: SimpleStreamOptions | undefined,
): BedrockOptions {
	const base: BedrockOptions = {};
	for (const key of COMMON) if (options?.[key] !== undefined) (base as Record<string, unknown>)[key] = options[key];
	base.maxTokens = clampMaxTokensToContext(model, context, options?.maxTokens ?? model.maxTokens);
	if (options?.toolChoice !== undefined) base.toolChoice = options.toolChoice as BedrockOptions["toolChoice"];
	const level = options?.reasoning;
	if (!level) return base;
	const budgets = options?.thinkingBudgets;
	if (!isClaude(model) || adaptiveThinking(model)) {
		return { ...base, reasoning: level, ...(budgets ? { thinkingBudgets: budgets } : {}) };
	}
	const adjusted = adjustMaxTokensForThinking(base.maxTokens, model.maxTokens, level, budgets);
	const maxTokens = clampMaxTokensToContext(model, context, adjusted.maxTokens);
	const key = level === "xhigh" || level === "max" ? "high" : level;
	return {
		...base,
		maxTokens,
		reasoning: level,
		thinkingBudgets: {
			...(budgets ?? {}),
			[key]: Math.min(adjusted.thinkingBudget, Math.max(0, maxTokens - MIN_ANSWER_TOKENS)),
		},
	};
}
