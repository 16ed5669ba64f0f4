/**
 * Which of a provider's models a stored login may use, as pi-ai 0.87.1's providers narrow them: a GitHub Copilot
 * login lists the account's `availableModelIds`, and only those are offered. Kept apart from the logins so the
 * model registry can apply it without loading any login code.
 */

type StoredCredential = { type: string; [field: string]: unknown } | undefined;

/** pi's model filter for a Copilot login: only the account's `availableModelIds` when the credential lists them. */
export function filterCopilotModels<M extends { id: string }>(models: readonly M[], credential: StoredCredential): M[] {
	const ids = credential?.type === "oauth" ? credential.availableModelIds : undefined;
	if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) return [...models];
	const available = new Set(ids);
	return models.filter((model) => available.has(model.id));
}

const FILTERS: Record<string, <M extends { id: string }>(models: readonly M[], credential: StoredCredential) => M[]> = {
	"github-copilot": filterCopilotModels,
};

/** `models` of `provider` narrowed by its stored credential (unchanged for providers without a filter). */
export function filterProviderModels<M extends { id: string }>(
	provider: string,
	models: readonly M[],
	credential: StoredCredential,
): M[] {
	const filter = FILTERS[provider];
	return filter ? filter(models, credential) : [...models];
}
