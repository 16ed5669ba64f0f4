/**
 * Where the credential of a request came from, as the second half of an error line the user can act on ("check
 * $ANTHROPIC_API_KEY", "check the apiKey of provider "x" in ~/.pi/agent/models.json", "log in again with /login
 * x"), for a provider that refused it (401/403) or whose account is out of quota.
 */
import { findEnvKeys } from "../env-keys.ts";
import type { Model } from "../types.ts";
import type { ModelRegistry } from "./registry.ts";

export function credentialHint(registry: ModelRegistry, model: Pick<Model, "provider" | "api">): string {
	const { provider } = model;
	const status = registry.authStorage.getAuthStatus(provider);
	const cloud = status.source === "environment" || status.source === undefined;
	if (cloud && model.api === "bedrock-converse-stream") {
		return "check the AWS credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID, AWS_BEARER_TOKEN_BEDROCK, ~/.aws)";
	}
	if (cloud && model.api === "google-vertex") {
		return "check the Google Cloud credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login)";
	}
	switch (status.source) {
		case "runtime":
			return "check the key given with --api-key";
		case "stored":
			return registry.authStorage.get(provider)?.type === "oauth"
				? `log in again with /login ${provider}`
				: `check the key for "${provider}" saved by /login (auth.json)`;
		case "environment": {
			const names = findEnvKeys(provider)?.map((name) => `$${name}`);
			return `check ${names?.join(" / ") ?? "the provider's API key variable"}`;
		}
		case "models_json_key":
		case "models_json_command":
			return `check the apiKey of provider "${provider}" in ${registry.modelsJsonPath ?? "models.json"}`;
		case "fallback":
			return `check the key the extension that registers provider "${provider}" supplies`;
		default:
			return `no key is configured for "${provider}": set its API key or run /login ${provider}`;
	}
}
