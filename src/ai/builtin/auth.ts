/**
 * The api-key methods of built-in providers whose keys are more than one environment variable (pi-ai 0.87.1's
 * rules, in our code): Anthropic also takes a bearer token; Vertex takes an API key or Application Default
 * Credentials with a project and location; Cloudflare needs an account id (and a gateway id for AI Gateway)
 * beside the key, from a stored login or the environment, field by field.
 */

import type { ApiKeyAuth, ApiKeyAuthInput, StoredApiKeyCredential } from "../auth/provider-auth-types.ts";
import { ANTHROPIC_API_KEY_ENV, ANTHROPIC_AUTH_TOKEN_ENV, ANTHROPIC_OAUTH_TOKEN_ENV } from "../env-keys.ts";

const STORED = "stored credential";

/** `ctx.env(name)` between abort checks. */
async function envOf(input: ApiKeyAuthInput, name: string): Promise<string | undefined> {
	input.signal.throwIfAborted();
	const value = await input.ctx.env(name);
	input.signal.throwIfAborted();
	return value;
}

export const anthropicApiKeyAuth: ApiKeyAuth = {
	name: "Anthropic API key",
	async login(interaction) {
		interaction.signal.throwIfAborted();
		const key = await interaction.prompt({ type: "secret", message: "Enter Anthropic API key" });
		interaction.signal.throwIfAborted();
		return { type: "api_key", key };
	},
	async resolve(input) {
		input.signal.throwIfAborted();
		const { credential } = input;
		if (credential?.key) return { auth: { apiKey: credential.key }, env: credential.env, source: STORED };
		const token = await envOf(input, ANTHROPIC_AUTH_TOKEN_ENV);
		if (token) return { auth: { headers: { Authorization: `Bearer ${token}` } }, source: ANTHROPIC_AUTH_TOKEN_ENV };
		for (const name of [ANTHROPIC_OAUTH_TOKEN_ENV, ANTHROPIC_API_KEY_ENV]) {
			const apiKey = await envOf(input, name);
			if (apiKey) return { auth: { apiKey }, source: name };
		}
		return undefined;
	},
};

const VERTEX_DEFAULT_ADC = "~/.config/gcloud/application_default_credentials.json";

export const vertexApiKeyAuth: ApiKeyAuth = {
	name: "Google Cloud credentials",
	async login(interaction) {
		interaction.signal.throwIfAborted();
		const method = await interaction.prompt({
			type: "select",
			message: "How should pi reach Google Vertex AI?",
			options: [
				{ id: "api-key", label: "Google Cloud API key" },
				{ id: "adc", label: "Application Default Credentials" },
				{ id: "service-account", label: "Service account credentials file" },
			],
		});
		interaction.signal.throwIfAborted();
		if (method === "api-key") {
			const key = await interaction.prompt({ type: "secret", message: "Google Cloud API key" });
			return { type: "api_key", key };
		}
		if (method !== "adc" && method !== "service-account")
			throw new Error(`Unknown Vertex AI sign-in method: ${method}`);
		const project = await interaction.prompt({ type: "text", message: "Google Cloud project id" });
		const location = await interaction.prompt({ type: "text", message: "Google Cloud location (e.g. us-central1)" });
		const file =
			method === "service-account"
				? await interaction.prompt({ type: "text", message: "Path of the service account JSON file" })
				: undefined;
		const env: Record<string, string> = { GOOGLE_CLOUD_PROJECT: project, GOOGLE_CLOUD_LOCATION: location };
		if (file) env.GOOGLE_APPLICATION_CREDENTIALS = file;
		return { type: "api_key", env } satisfies StoredApiKeyCredential;
	},
	async resolve(input) {
		const { credential } = input;
		const key = credential?.key ?? (await envOf(input, "GOOGLE_CLOUD_API_KEY"));
		if (key) return { auth: { apiKey: key }, source: credential?.key ? STORED : "GOOGLE_CLOUD_API_KEY" };
		const stored = credential?.env;
		const file = stored?.GOOGLE_APPLICATION_CREDENTIALS ?? (await envOf(input, "GOOGLE_APPLICATION_CREDENTIALS"));
		const hasFile = await input.ctx.fileExists(file ?? VERTEX_DEFAULT_ADC);
		input.signal.throwIfAborted();
		const project =
			stored?.GOOGLE_CLOUD_PROJECT ??
			(await envOf(input, "GOOGLE_CLOUD_PROJECT")) ??
			(await envOf(input, "GCLOUD_PROJECT"));
		const location = stored?.GOOGLE_CLOUD_LOCATION ?? (await envOf(input, "GOOGLE_CLOUD_LOCATION"));
		if (!hasFile || !project || !location) return undefined;
		return { auth: {}, env: stored, source: credential ? STORED : "gcloud application default credentials" };
	},
};

export const CLOUDFLARE_ACCOUNT_ID = "CLOUDFLARE_ACCOUNT_ID";
export const CLOUDFLARE_GATEWAY_ID = "CLOUDFLARE_GATEWAY_ID";

/** A stored field (the key, or an env entry) wins over the environment, one field at a time. */
async function cloudflareField(input: ApiKeyAuthInput, name: string): Promise<string | undefined> {
	const credential = input.credential;
	const stored = credential ? (name === "CLOUDFLARE_API_KEY" ? credential.key : credential.env?.[name]) : undefined;
	return stored ?? (await envOf(input, name));
}

/** Cloudflare's key method: Workers AI sends the key as usual; AI Gateway sends it in `cf-aig-authorization`. */
export function cloudflareApiKeyAuth(gateway: boolean): ApiKeyAuth {
	return {
		name: "Cloudflare API key",
		async login(interaction) {
			const key = await interaction.prompt({ type: "secret", message: "Cloudflare API key" });
			const env: Record<string, string> = {
				[CLOUDFLARE_ACCOUNT_ID]: await interaction.prompt({ type: "text", message: "Cloudflare account id" }),
			};
			if (gateway) env[CLOUDFLARE_GATEWAY_ID] = await interaction.prompt({ type: "text", message: "AI Gateway id" });
			return { type: "api_key", key, env };
		},
		async resolve(input) {
			const apiKey = await cloudflareField(input, "CLOUDFLARE_API_KEY");
			const account = await cloudflareField(input, CLOUDFLARE_ACCOUNT_ID);
			const gatewayId = gateway ? await cloudflareField(input, CLOUDFLARE_GATEWAY_ID) : undefined;
			if (!apiKey || !account || (gateway && !gatewayId)) return undefined;
			const env: Record<string, string> = { [CLOUDFLARE_ACCOUNT_ID]: account };
			if (gatewayId) env[CLOUDFLARE_GATEWAY_ID] = gatewayId;
			const source = input.credential ? STORED : "CLOUDFLARE_API_KEY";
			if (!gateway) return { auth: { apiKey }, env, source };
			return { auth: { headers: { "cf-aig-authorization": `Bearer ${apiKey}` } }, env, source };
		},
	};
}
