/**
 * Facts of pi-ai 0.87.1's built-in providers as explicit-collection `Provider`s (`builtinProviders()`): the display
 * name, the provider-level base URL where pi declares one, and the label of the api-key method. The environment
 * variables come from `PROVIDER_ENV_KEYS` and the OAuth methods from the login registry, so each fact lives once.
 * Order is pi's (alphabetical by id); `radius` is built separately (its catalogue is refreshed from the gateway).
 */
export interface BuiltinProviderFacts {
	readonly id: string;
	readonly name: string;
	readonly baseUrl?: string;
	/** Label of the api-key method; absent when the provider signs in only with an account (Codex). */
	readonly keyName?: string;
}

const facts = (id: string, name: string, keyName: string | undefined, baseUrl?: string): BuiltinProviderFacts => ({
	id,
	name,
	...(keyName ? { keyName } : {}),
	...(baseUrl ? { baseUrl } : {}),
});

export const BUILTIN_PROVIDER_FACTS: readonly BuiltinProviderFacts[] = [
	facts("amazon-bedrock", "Amazon Bedrock", "AWS credentials or bearer token"),
	facts("ant-ling", "Ant Ling", "Ant Ling API key", "https://api.ant-ling.com/v1"),
	facts("anthropic", "Anthropic", "Anthropic API key", "https://api.anthropic.com"),
	facts("azure-openai-responses", "Azure OpenAI", "Azure OpenAI API key"),
	facts("baseten", "Baseten", "Baseten API key", "https://inference.baseten.co/v1"),
	facts("cerebras", "Cerebras", "Cerebras API key", "https://api.cerebras.ai/v1"),
	facts("cloudflare-ai-gateway", "Cloudflare AI Gateway", "Cloudflare API key"),
	facts("cloudflare-workers-ai", "Cloudflare Workers AI", "Cloudflare API key"),
	facts("deepseek", "DeepSeek", "DeepSeek API key", "https://api.deepseek.com"),
	facts("fireworks", "Fireworks", "Fireworks API key", "https://api.fireworks.ai/inference"),
	facts("github-copilot", "GitHub Copilot", "GitHub Copilot token", "https://api.individual.githubcopilot.com"),
	facts("google", "Google", "Gemini API key", "https://generativelanguage.googleapis.com/v1beta"),
	facts("google-vertex", "Google Vertex AI", "Google Cloud credentials"),
	facts("groq", "Groq", "Groq API key", "https://api.groq.com/openai/v1"),
	facts("huggingface", "Hugging Face", "Hugging Face token", "https://router.huggingface.co/v1"),
	facts("kimi-coding", "Kimi For Coding", "Kimi API key", "https://api.kimi.com/coding"),
	facts("meta", "Meta", "Meta Model API key", "https://api.meta.ai/v1"),
	facts("minimax", "MiniMax", "MiniMax API key", "https://api.minimax.io/anthropic"),
	facts("minimax-cn", "MiniMax CN", "MiniMax CN API key", "https://api.minimaxi.com/anthropic"),
	facts("mistral", "Mistral", "Mistral API key", "https://api.mistral.ai"),
	facts("moonshotai", "Moonshot AI", "Moonshot AI API key", "https://api.moonshot.ai/v1"),
	facts("moonshotai-cn", "Moonshot AI CN", "Moonshot AI API key", "https://api.moonshot.cn/v1"),
	facts("nvidia", "NVIDIA", "NVIDIA API key", "https://integrate.api.nvidia.com/v1"),
	facts("openai", "OpenAI", "OpenAI API key", "https://api.openai.com/v1"),
	facts("openai-codex", "OpenAI Codex", undefined, "https://chatgpt.com/backend-api"),
	facts("opencode", "OpenCode Zen", "OpenCode API key"),
	facts("opencode-go", "OpenCode Go", "OpenCode API key"),
	facts("openrouter", "OpenRouter", "OpenRouter API key", "https://openrouter.ai/api/v1"),
	facts(
		"qwen-token-plan",
		"Qwen Token Plan",
		"Qwen Token Plan API key",
		"https://token-plan.ap-southeast-1.maas.aliyuncs.com/compatible-mode/v1",
	),
	facts(
		"qwen-token-plan-cn",
		"Qwen Token Plan CN",
		"Qwen Token Plan CN API key",
		"https://token-plan.cn-beijing.maas.aliyuncs.com/compatible-mode/v1",
	),
	facts(
		"qwen-token-plan-individual",
		"Qwen Token Plan Individual",
		"Qwen Token Plan Individual API key",
		"https://token-plan.ap-southeast-1.maas.aliyuncs.com/compatible-mode/v1",
	),
	facts("radius", "Radius", "Radius API key"),
	facts("together", "Together", "Together API key", "https://api.together.ai/v1"),
	facts("vercel-ai-gateway", "Vercel AI Gateway", "Vercel AI Gateway API key", "https://ai-gateway.vercel.sh"),
	facts("xai", "xAI", "xAI API key", "https://api.x.ai/v1"),
	facts("xiaomi", "Xiaomi", "Xiaomi API key", "https://api.xiaomimimo.com/v1"),
	facts(
		"xiaomi-token-plan-ams",
		"Xiaomi Token Plan AMS",
		"Xiaomi Token Plan AMS API key",
		"https://token-plan-ams.xiaomimimo.com/v1",
	),
	facts(
		"xiaomi-token-plan-cn",
		"Xiaomi Token Plan CN",
		"Xiaomi Token Plan CN API key",
		"https://token-plan-cn.xiaomimimo.com/v1",
	),
	facts(
		"xiaomi-token-plan-sgp",
		"Xiaomi Token Plan SGP",
		"Xiaomi Token Plan SGP API key",
		"https://token-plan-sgp.xiaomimimo.com/v1",
	),
	facts("zai", "Z.AI", "Z.AI API key", "https://api.z.ai/api/coding/paas/v4"),
	facts("zai-coding-cn", "Z.AI Coding CN", "Z.AI Coding CN API key", "https://open.bigmodel.cn/api/coding/paas/v4"),
];
