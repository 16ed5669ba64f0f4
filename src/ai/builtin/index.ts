/**
 * pi-ai 0.87.1's `providers/all` collection builders: every built-in provider as a `Provider` (auth methods,
 * catalogue models, stream implementation per API), a `Models` collection holding them all, and the same for image
 * generation. Each call builds fresh objects, as pi's do.
 */
import { builtinOAuth } from "../auth/oauth/registry.ts";
import { envApiKeyAuth } from "../auth/provider-auth.ts";
import type { ApiKeyAuth, ProviderAuth } from "../auth/provider-auth-types.ts";
import { filterProviderModels } from "../auth/provider-model-filters.ts";
import { createImagesModels, createImagesProvider, type ImagesProvider } from "../collection/images.ts";
import { createModels } from "../collection/models.ts";
import { createProvider } from "../collection/provider.ts";
import type { CreateModelsOptions, ModelsProvider, ProviderStreams } from "../collection/types.ts";
import { PROVIDER_ENV_KEYS } from "../env-keys.ts";
import { generateImages, getImageModels } from "../images/registry.ts";
import { getModels } from "../models/index.ts";
import { bedrockApiKeyAuth } from "../providers/bedrock-provider-auth.ts";
import { getApiProvider } from "../registry.ts";
import { anthropicApiKeyAuth, cloudflareApiKeyAuth, vertexApiKeyAuth } from "./auth.ts";
import { radiusProvider } from "./radius.ts";
import { BUILTIN_PROVIDER_FACTS, type BuiltinProviderFacts } from "./table.ts";
import { cloudflareStreams, openCodeStreams } from "./wrappers.ts";

export { type RadiusProviderOptions, radiusProvider } from "./radius.ts";

const SPECIAL_KEY_AUTH: Record<string, () => ApiKeyAuth> = {
	anthropic: () => anthropicApiKeyAuth,
	"amazon-bedrock": () => bedrockApiKeyAuth,
	"google-vertex": () => vertexApiKeyAuth,
	"cloudflare-workers-ai": () => cloudflareApiKeyAuth(false),
	"cloudflare-ai-gateway": () => cloudflareApiKeyAuth(true),
};

/** APIs a provider is wired for beyond those its catalogue models use today (pi pins the gateway's three). */
const PINNED_APIS: Record<string, readonly string[]> = {
	"cloudflare-ai-gateway": ["anthropic-messages", "openai-completions", "openai-responses"],
	opencode: ["anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses"],
};

const WRAPPERS: Record<string, (streams: ProviderStreams) => ProviderStreams> = {
	"cloudflare-ai-gateway": cloudflareStreams,
	"cloudflare-workers-ai": cloudflareStreams,
	opencode: openCodeStreams,
	"opencode-go": openCodeStreams,
};

function authOf(facts: BuiltinProviderFacts): ProviderAuth {
	const special = SPECIAL_KEY_AUTH[facts.id];
	const envVars = PROVIDER_ENV_KEYS[facts.id];
	const apiKey = special ? special() : facts.keyName && envVars ? envApiKeyAuth(facts.keyName, envVars) : undefined;
	const oauth = builtinOAuth(facts.id);
	return { ...(apiKey ? { apiKey } : {}), ...(oauth ? { oauth } : {}) };
}

/** The stream implementation for each API the provider's models use, wrapped where the provider needs it. */
function apisOf(id: string, apis: readonly string[]): ProviderStreams | Partial<Record<string, ProviderStreams>> {
	const wrap = WRAPPERS[id] ?? ((streams: ProviderStreams) => streams);
	const byApi: Partial<Record<string, ProviderStreams>> = {};
	for (const api of apis) {
		const provider = getApiProvider(api);
		if (provider) byApi[api] = wrap(provider);
	}
	const entries = Object.values(byApi);
	return entries.length === 1 && !PINNED_APIS[id] ? (entries[0] as ProviderStreams) : byApi;
}

function builtinProvider(facts: BuiltinProviderFacts): ModelsProvider {
	if (facts.id === "radius") return radiusProvider();
	const models = getModels(facts.id);
	const apis = PINNED_APIS[facts.id] ?? [...new Set(models.map((model) => model.api))];
	return createProvider({
		id: facts.id,
		name: facts.name,
		...(facts.baseUrl ? { baseUrl: facts.baseUrl } : {}),
		auth: authOf(facts),
		models,
		...(facts.id === "github-copilot"
			? {
					filterModels: (list, credential) =>
						filterProviderModels(facts.id, list, credential as Parameters<typeof filterProviderModels>[2]),
				}
			: {}),
		api: apisOf(facts.id, apis),
	});
}

/** Every built-in provider, freshly constructed, in pi's order. */
export function builtinProviders(): ModelsProvider[] {
	return BUILTIN_PROVIDER_FACTS.map(builtinProvider);
}

/** A `Models` collection with every built-in provider set. */
export function builtinModels(options?: CreateModelsOptions) {
	const models = createModels(options);
	for (const provider of builtinProviders()) models.setProvider(provider);
	return models;
}

/** The built-in image-generation providers (OpenRouter), freshly constructed. */
export function builtinImagesProviders(): ImagesProvider[] {
	const envVars = PROVIDER_ENV_KEYS.openrouter ?? ["OPENROUTER_API_KEY"];
	const oauth = builtinOAuth("openrouter");
	return [
		createImagesProvider({
			id: "openrouter",
			name: "OpenRouter",
			auth: { apiKey: envApiKeyAuth("OpenRouter API key", envVars), ...(oauth ? { oauth } : {}) },
			models: getImageModels("openrouter"),
			api: { generateImages },
		}),
	];
}

/** An image collection with every built-in image provider set. */
export function builtinImagesModels(options?: CreateModelsOptions) {
	const models = createImagesModels(options);
	for (const provider of builtinImagesProviders()) models.setProvider(provider);
	return models;
}
