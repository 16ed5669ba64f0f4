/**
 * GitHub Copilot's per-account model list, as pi-ai 0.87.1 reads it after login and on every token refresh:
 * `GET <base>/models` says which models the account's picker offers (stored as `availableModelIds` in auth.json,
 * which narrows the model list), and at login the models whose policy is still "unconfigured" and that pi knows
 * are switched on with `POST <base>/models/<id>/policy` (best effort; an exhausted 429 stops the batch).
 */
import { getModels } from "../../models/index.ts";
import type { OAuthCredential } from "../types.ts";
import type { JsonReply, ResolvedDeps } from "./device-http.ts";
import { requestJson } from "./device-http.ts";

export const COPILOT_HEADERS: Readonly<Record<string, string>> = {
	"User-Agent": "GitHubCopilotChat/0.35.0",
	"Editor-Version": "vscode/1.107.0",
	"Editor-Plugin-Version": "copilot-chat/0.35.0",
	"Copilot-Integration-Id": "vscode-chat",
};
export const COPILOT_API_VERSION = "2026-06-01";
export const COPILOT_INDIVIDUAL_BASE_URL = "https://api.individual.githubcopilot.com";
const ATTEMPT_TIMEOUT_MS = 5000;

export interface RetryBudget {
	maxRetries: number;
	maxElapsedMs: number;
}
export const LOGIN_RETRIES: RetryBudget = { maxRetries: 2, maxElapsedMs: 5000 };
export const NO_RETRIES: RetryBudget = { maxRetries: 0, maxElapsedMs: 0 };

/** The API base URL for a Copilot token: its `proxy-ep` with `proxy.` → `api.`, else the enterprise or individual host. */
export function copilotBaseUrl(token: string | undefined, enterpriseDomain?: string): string {
	const proxy = token?.match(/proxy-ep=([^;]+)/)?.[1];
	if (proxy) return `https://${proxy.replace(/^proxy\./, "api.")}`;
	if (enterpriseDomain) return `https://copilot-api.${enterpriseDomain}`;
	return COPILOT_INDIVIDUAL_BASE_URL;
}

/** Requests with a 5 s limit per attempt, retrying 429 (Retry-After, else 0.5 s · 2^n) within the budget. */
async function requestWithRetry(
	deps: ResolvedDeps,
	url: string,
	init: { method?: "GET" | "POST"; headers: Record<string, string>; body?: string },
	signal: AbortSignal,
	budget: RetryBudget,
): Promise<JsonReply> {
	const limited = budget.maxRetries > 0 && budget.maxElapsedMs > 0;
	const deadline = limited ? deps.clock.now() + budget.maxElapsedMs : Number.POSITIVE_INFINITY;
	const outer = limited ? AbortSignal.any([signal, AbortSignal.timeout(budget.maxElapsedMs)]) : signal;
	for (let retry = 0; ; retry++) {
		const reply = await requestJson(deps, url, { ...init, signal: outer, timeoutMs: ATTEMPT_TIMEOUT_MS });
		if (reply.status !== 429 || retry === budget.maxRetries) return reply;
		let delayMs = 500 * 2 ** retry;
		const retryAfter = reply.headers.get("retry-after");
		if (retryAfter) {
			const seconds = Number.parseFloat(retryAfter);
			delayMs = Number.isNaN(seconds) ? Date.parse(retryAfter) - deps.clock.now() : seconds * 1000;
			if (!Number.isFinite(delayMs)) return reply;
		}
		delayMs = Math.max(0, delayMs);
		if (delayMs >= deadline - deps.clock.now()) return reply;
		await deps.clock.sleep(delayMs, outer);
	}
}

interface AccountModel {
	id: string;
	picker: boolean;
	policy: unknown;
}

function record(value: unknown): Record<string, unknown> | undefined {
	return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

/** Which models the account offers, and which of pi's models still need their policy switched on. */
export function parseCopilotModels(
	raw: unknown,
	allowPolicyFallback: boolean,
): { availableModelIds: string[]; policyModelIds: string[] } {
	const data = record(raw)?.data;
	if (!Array.isArray(data)) throw new Error("Invalid Copilot models response");
	const models: AccountModel[] = [];
	for (const entry of data) {
		const item = record(entry);
		if (!item || typeof item.id !== "string") continue;
		if (record(record(item.capabilities)?.supports)?.tool_calls === false) continue;
		models.push({ id: item.id, picker: item.model_picker_enabled === true, policy: record(item.policy)?.state });
	}
	const picked = models.filter((m) => m.picker && m.policy !== "disabled").map((m) => m.id);
	// Some individual accounts report every picker flag false despite enabled policies.
	const fallback = allowPolicyFallback && picked.length === 0;
	const availableModelIds = fallback ? models.filter((m) => m.policy === "enabled").map((m) => m.id) : picked;
	const known = new Set(getModels("github-copilot").map((m) => m.id));
	const policyModelIds = models
		.filter((m) => m.policy === "unconfigured" && known.has(m.id) && (m.picker || fallback))
		.map((m) => m.id);
	return { availableModelIds, policyModelIds };
}

export async function fetchCopilotModels(
	deps: ResolvedDeps,
	copilotToken: string,
	enterpriseDomain: string | undefined,
	signal: AbortSignal,
	budget: RetryBudget,
): Promise<{ availableModelIds: string[]; policyModelIds: string[] }> {
	const base = copilotBaseUrl(copilotToken, enterpriseDomain);
	const reply = await requestWithRetry(
		deps,
		`${base}/models`,
		{
			headers: {
				Accept: "application/json",
				Authorization: `Bearer ${copilotToken}`,
				...COPILOT_HEADERS,
				"X-GitHub-Api-Version": COPILOT_API_VERSION,
			},
		},
		signal,
		budget,
	);
	if (!reply.ok) throw new Error(`${reply.status} ${reply.statusText}: ${reply.text}`);
	return parseCopilotModels(reply.json, base === COPILOT_INDIVIDUAL_BASE_URL);
}

/** Switches the models on one by one; returns those that took. An exhausted 429 stops the batch. */
export async function enableCopilotModels(
	deps: ResolvedDeps,
	credential: OAuthCredential,
	modelIds: readonly string[],
	enterpriseDomain: string | undefined,
	signal: AbortSignal,
): Promise<string[]> {
	const base = copilotBaseUrl(credential.access, enterpriseDomain);
	const enabled: string[] = [];
	for (const id of modelIds) {
		let reply: JsonReply;
		try {
			reply = await requestWithRetry(
				deps,
				`${base}/models/${id}/policy`,
				{
					method: "POST",
					headers: {
						"Content-Type": "application/json",
						Authorization: `Bearer ${credential.access}`,
						...COPILOT_HEADERS,
						"openai-intent": "chat-policy",
						"x-interaction-type": "chat-policy",
					},
					body: JSON.stringify({ state: "enabled" }),
				},
				signal,
				LOGIN_RETRIES,
			);
		} catch (error) {
			if (signal.aborted) throw error;
			continue;
		}
		if (reply.status === 429) break;
		if (reply.ok) enabled.push(id);
	}
	return enabled;
}
