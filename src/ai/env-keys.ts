/**
 * API keys from the environment, per provider, as pi-ai 0.87.1 reads them. `PROVIDER_ENV_KEYS` lists the
 * variables that hold a key (first set one wins); Anthropic's `ANTHROPIC_AUTH_TOKEN` also counts as configured
 * (`findEnvKeys`) but is sent as a bearer token, never as the key.
 */
import { hasVertexAmbientAuth } from "./gcp/ambient.ts";

/** What pi-ai's `getEnvApiKey` returns for a provider configured by ambient credentials rather than a key. */
export const AMBIENT_AUTH_MARKER = "<authenticated>";

import { hasBedrockAmbientCredentials } from "./aws/credentials.ts";

export const ANTHROPIC_AUTH_TOKEN_ENV = "ANTHROPIC_AUTH_TOKEN";
export const ANTHROPIC_OAUTH_TOKEN_ENV = "ANTHROPIC_OAUTH_TOKEN";
export const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";

export const PROVIDER_ENV_KEYS: Readonly<Record<string, readonly string[]>> = {
	anthropic: [ANTHROPIC_OAUTH_TOKEN_ENV, ANTHROPIC_API_KEY_ENV],
	"github-copilot": ["COPILOT_GITHUB_TOKEN"],
	"ant-ling": ["ANT_LING_API_KEY"],
	"qwen-token-plan": ["QWEN_TOKEN_PLAN_API_KEY"],
	"qwen-token-plan-cn": ["QWEN_TOKEN_PLAN_CN_API_KEY"],
	"qwen-token-plan-individual": ["QWEN_TOKEN_PLAN_API_KEY"],
	openai: ["OPENAI_API_KEY"],
	"azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
	nvidia: ["NVIDIA_API_KEY"],
	deepseek: ["DEEPSEEK_API_KEY"],
	google: ["GEMINI_API_KEY"],
	"google-vertex": ["GOOGLE_CLOUD_API_KEY"],
	groq: ["GROQ_API_KEY"],
	cerebras: ["CEREBRAS_API_KEY"],
	xai: ["XAI_API_KEY"],
	radius: ["RADIUS_API_KEY"],
	openrouter: ["OPENROUTER_API_KEY"],
	"vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
	zai: ["ZAI_API_KEY"],
	"zai-coding-cn": ["ZAI_CODING_CN_API_KEY"],
	mistral: ["MISTRAL_API_KEY"],
	minimax: ["MINIMAX_API_KEY"],
	"minimax-cn": ["MINIMAX_CN_API_KEY"],
	moonshotai: ["MOONSHOT_API_KEY"],
	"moonshotai-cn": ["MOONSHOT_API_KEY"],
	huggingface: ["HF_TOKEN"],
	fireworks: ["FIREWORKS_API_KEY"],
	together: ["TOGETHER_API_KEY"],
	baseten: ["BASETEN_API_KEY"],
	opencode: ["OPENCODE_API_KEY"],
	"opencode-go": ["OPENCODE_API_KEY"],
	"kimi-coding": ["KIMI_API_KEY"],
	meta: ["META_API_KEY"],
	"cloudflare-workers-ai": ["CLOUDFLARE_API_KEY"],
	"cloudflare-ai-gateway": ["CLOUDFLARE_API_KEY"],
	xiaomi: ["XIAOMI_API_KEY"],
	"xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
	"xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
	"xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
};

/** The key for `provider` from `env` (default: this process's environment), or undefined. */
export function getEnvApiKey(provider: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
	for (const name of PROVIDER_ENV_KEYS[provider] ?? []) {
		const value = env[name];
		if (value && value.trim() !== "") return value.trim();
	}
	return ambientAuth(provider, env);
}

/**
 * Ambient credentials that count as configured: Vertex AI through Application Default Credentials (file + project +
 * location), Bedrock through the AWS credential chain (environment, profiles, SSO, container).
 */
function ambientAuth(provider: string, env: Record<string, string | undefined>): string | undefined {
	if (provider === "google-vertex" && hasVertexAmbientAuth(env)) return AMBIENT_AUTH_MARKER;
	if (provider === "amazon-bedrock" && hasBedrockAmbientCredentials(env)) return AMBIENT_AUTH_MARKER;
	return undefined;
}

/**
 * The variables that configure `provider` and are set, in pi's order (Anthropic: auth token, OAuth token, API
 * key), or undefined when none is. `env` entries take priority over the process environment.
 */
export function findEnvKeys(provider: string, env?: Record<string, string | undefined>): string[] | undefined {
	const names =
		provider === "anthropic"
			? [ANTHROPIC_AUTH_TOKEN_ENV, ...(PROVIDER_ENV_KEYS.anthropic ?? [])]
			: PROVIDER_ENV_KEYS[provider];
	const found = (names ?? []).filter((name) => !!(env?.[name] || process.env[name]));
	return found.length > 0 ? found : undefined;
}

/**
 * pi-ai's `getEnvApiKey(provider, env?)` as extensions call it: `env` entries over the process environment, values
 * as set (not trimmed), and Anthropic's auth token never used as the key.
 */
export function getEnvApiKeyWithOverlay(
	provider: string,
	env?: Record<string, string | undefined>,
): string | undefined {
	const found = findEnvKeys(provider, env);
	const name = provider === "anthropic" ? found?.find((key) => key !== ANTHROPIC_AUTH_TOKEN_ENV) : found?.[0];
	if (name) return env?.[name] || process.env[name] || undefined;
	return ambientAuth(provider, env ? { ...process.env, ...env } : process.env);
}
