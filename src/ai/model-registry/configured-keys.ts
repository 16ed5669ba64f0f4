/**
 * The keys models.json and extensions configure for providers (`apiKey`: a literal, an environment variable name
 * or a `!command`), as the credential store asks for them: whether one is configured and from where, and its
 * value resolved at request time, or a one-line error naming where it was set.
 */
import type { AuthStatus, ConfiguredKeyResolver } from "../auth/credential-store.ts";
import { isValueConfigured, resolveValue, type ValueEnv, valueKind } from "../auth/resolve-value.ts";

/** A provider's configured key as written, and whether an extension (rather than models.json) set it. */
export type RawKey = { raw: string; fromExtension: boolean };

export interface ConfiguredKeySource {
	rawApiKey(provider: string): RawKey | undefined;
	valueOptions(): { baseEnv: ValueEnv; cache: boolean };
	/** models.json's path, for errors. */
	readonly modelsJsonPath: string | undefined;
}

/** Whether `provider` has a configured key, and its source. */
export function configuredKeyStatus(source: ConfiguredKeySource, provider: string): AuthStatus | undefined {
	const key = source.rawApiKey(provider);
	if (!key) return undefined;
	const options = source.valueOptions();
	switch (valueKind(key.raw, options)) {
		case "command":
			return { configured: true, source: "models_json_command" };
		case "environment":
			return isValueConfigured(key.raw, options) ? { configured: true, source: "environment" } : { configured: false };
		default:
			return { configured: true, source: key.fromExtension ? "fallback" : "models_json_key" };
	}
}

/** The resolver the credential store consults for configured keys. */
export function configuredKeyResolver(source: ConfiguredKeySource): ConfiguredKeyResolver {
	return {
		status: (provider) => configuredKeyStatus(source, provider),
		resolve: (provider) => {
			const key = source.rawApiKey(provider);
			if (!key) return undefined;
			const status = configuredKeyStatus(source, provider)?.source;
			const result = resolveValue(key.raw, source.valueOptions());
			if (result.ok) return status ? { apiKey: result.value, source: status } : { apiKey: result.value };
			const where = key.fromExtension ? `provider "${provider}" (registerProvider)` : source.modelsJsonPath;
			return { error: `${where}: apiKey for provider "${provider}": ${result.error}` };
		},
	};
}
