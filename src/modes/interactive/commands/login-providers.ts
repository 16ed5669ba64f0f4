/**
 * Which providers `/login` can store an API key for, with the names pi 0.87.1 shows and what it asks for: the
 * built-in providers that take a key, plus every provider of models.json or an extension (asked for "API key").
 * Account logins (OAuth) are listed by account-login.ts from the built-in OAuth providers.
 */
import { findEnvKeys, type ModelRegistry } from "../../../ai/index.ts";
import type { ProviderEntry } from "../selectors/provider-picker.ts";

/** id → [display name, what the key is called]. */
const BUILTIN: Record<string, [string, string]> = {
	"amazon-bedrock": ["Amazon Bedrock", "Amazon Bedrock bearer token"],
	"ant-ling": ["Ant Ling", "Ant Ling API key"],
	anthropic: ["Anthropic", "Anthropic API key"],
	"azure-openai-responses": ["Azure OpenAI", "Azure OpenAI API key"],
	baseten: ["Baseten", "Baseten API key"],
	cerebras: ["Cerebras", "Cerebras API key"],
	"cloudflare-ai-gateway": ["Cloudflare AI Gateway", "Cloudflare API key"],
	"cloudflare-workers-ai": ["Cloudflare Workers AI", "Cloudflare API key"],
	deepseek: ["DeepSeek", "DeepSeek API key"],
	fireworks: ["Fireworks", "Fireworks API key"],
	"github-copilot": ["GitHub Copilot", "GitHub Copilot token"],
	google: ["Google", "Gemini API key"],
	"google-vertex": ["Google Vertex AI", "Google Cloud API key"],
	groq: ["Groq", "Groq API key"],
	huggingface: ["Hugging Face", "Hugging Face token"],
	"kimi-coding": ["Kimi For Coding", "Kimi API key"],
	"llama.cpp": ["llama.cpp", "llama.cpp server"],
	meta: ["Meta", "Meta Model API key"],
	minimax: ["MiniMax", "MiniMax API key"],
	"minimax-cn": ["MiniMax CN", "MiniMax CN API key"],
	mistral: ["Mistral", "Mistral API key"],
	moonshotai: ["Moonshot AI", "Moonshot AI API key"],
	"moonshotai-cn": ["Moonshot AI CN", "Moonshot AI API key"],
	nvidia: ["NVIDIA", "NVIDIA API key"],
	openai: ["OpenAI", "OpenAI API key"],
	opencode: ["OpenCode Zen", "OpenCode API key"],
	"opencode-go": ["OpenCode Go", "OpenCode API key"],
	openrouter: ["OpenRouter", "OpenRouter API key"],
	"qwen-token-plan": ["Qwen Token Plan", "Qwen Token Plan API key"],
	"qwen-token-plan-cn": ["Qwen Token Plan CN", "Qwen Token Plan CN API key"],
	"qwen-token-plan-individual": ["Qwen Token Plan Individual", "Qwen Token Plan Individual API key"],
	radius: ["Radius", "Radius API key"],
	together: ["Together", "Together API key"],
	"vercel-ai-gateway": ["Vercel AI Gateway", "Vercel AI Gateway API key"],
	xai: ["xAI", "xAI API key"],
	xiaomi: ["Xiaomi", "Xiaomi API key"],
	"xiaomi-token-plan-ams": ["Xiaomi Token Plan AMS", "Xiaomi Token Plan AMS API key"],
	"xiaomi-token-plan-cn": ["Xiaomi Token Plan CN", "Xiaomi Token Plan CN API key"],
	"xiaomi-token-plan-sgp": ["Xiaomi Token Plan SGP", "Xiaomi Token Plan SGP API key"],
	zai: ["Z.AI", "Z.AI API key"],
	"zai-coding-cn": ["Z.AI Coding CN", "Z.AI Coding CN API key"],
};

/** Providers pi signs in to only with an account (no key to enter). */
export const ACCOUNT_ONLY_PROVIDERS: Record<string, string> = { "openai-codex": "OpenAI Codex" };

export interface LoginProvider extends ProviderEntry {
	/** The prompt: `Enter <what>`. */
	prompt: string;
}

export function providerName(registry: ModelRegistry, id: string): string {
	return BUILTIN[id]?.[0] ?? registry.getProviderName(id);
}

/** Where the provider's credentials come from now (pi's wording), or undefined when it has none. */
function status(registry: ModelRegistry, id: string): { source?: string } | undefined {
	const auth = registry.getAuthStatus(id);
	if (!auth.configured) return undefined;
	switch (auth.source) {
		case "stored":
			return { source: "stored credential" };
		case "environment":
			return { source: findEnvKeys(id)?.join(", ") ?? "environment" };
		case "runtime":
			return { source: "--api-key" };
		case undefined:
			return {};
		default:
			return { source: auth.source };
	}
}

/** Every provider `/login` can store a key for, by name. */
export function loginProviders(registry: ModelRegistry): LoginProvider[] {
	const ids = new Set([...Object.keys(BUILTIN), ...registry.getProviders(), ...registry.getRegisteredProviderIds()]);
	for (const id of Object.keys(ACCOUNT_ONLY_PROVIDERS)) ids.delete(id);
	const entries = [...ids].map((id): LoginProvider => {
		const known = BUILTIN[id];
		const state = status(registry, id);
		return {
			id,
			name: known?.[0] ?? registry.getProviderName(id),
			prompt: `Enter ${known?.[1] ?? "API key"}`,
			...(state ? { status: state } : {}),
		};
	});
	return entries.sort((a, b) => a.name.localeCompare(b.name));
}
