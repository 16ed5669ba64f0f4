/**
 * The providers pi signs in to with an account (OAuth), built in. Each flow is imported on its first use (login,
 * refresh or request), so start-up loads none of them. Names and labels are pi-ai 0.87.1's.
 */
import { lazyOAuth } from "../provider-auth.ts";
import type { OAuthAuth } from "../provider-auth-types.ts";

export interface BuiltinOAuthProvider {
	/** Provider id (the auth.json key). */
	id: string;
	/** The provider's display name. */
	providerName: string;
	oauth: OAuthAuth;
}

const PROVIDERS: readonly BuiltinOAuthProvider[] = [
	{
		id: "anthropic",
		providerName: "Anthropic",
		oauth: lazyOAuth({
			name: "Anthropic (Claude Pro/Max)",
			isSubscription: true,
			load: async () => (await import("./anthropic.ts")).anthropicOAuth,
		}),
	},
	{
		id: "openai-codex",
		providerName: "OpenAI Codex",
		oauth: lazyOAuth({
			name: "OpenAI (ChatGPT Plus/Pro)",
			isSubscription: true,
			load: async () => (await import("./openai-codex.ts")).openaiCodexOAuth,
		}),
	},
	{
		id: "openrouter",
		providerName: "OpenRouter",
		oauth: lazyOAuth({
			name: "OpenRouter OAuth",
			loginLabel: "Sign in with OpenRouter",
			load: async () => (await import("./openrouter.ts")).openRouterOAuth,
		}),
	},
	{
		id: "github-copilot",
		providerName: "GitHub Copilot",
		oauth: lazyOAuth({
			name: "GitHub Copilot",
			isSubscription: true,
			load: async () => (await import("./github-copilot.ts")).githubCopilotOAuth,
		}),
	},
	{
		id: "kimi-coding",
		providerName: "Kimi For Coding",
		oauth: lazyOAuth({
			name: "Kimi Code (subscription)",
			isSubscription: true,
			loginLabel: "Sign in with Kimi Code",
			load: async () => (await import("./kimi-coding.ts")).kimiCodingOAuth,
		}),
	},
	{
		id: "meta",
		providerName: "Meta",
		oauth: lazyOAuth({
			name: "Meta (Muse subscription)",
			isSubscription: true,
			loginLabel: "Sign in with Meta",
			load: async () => (await import("./meta.ts")).metaOAuth,
		}),
	},
	{
		id: "xai",
		providerName: "xAI",
		oauth: lazyOAuth({
			name: "xAI (Grok/X subscription)",
			isSubscription: true,
			loginLabel: "Sign in with SuperGrok or X Premium",
			load: async () => (await import("./xai.ts")).xaiOAuth,
		}),
	},
	{
		id: "radius",
		providerName: "Radius",
		oauth: lazyOAuth({ name: "Radius", load: async () => (await import("./radius.ts")).radiusOAuth }),
	},
];

const BY_ID = new Map(PROVIDERS.map((p) => [p.id, p] as const));

export function builtinOAuthProviders(): readonly BuiltinOAuthProvider[] {
	return PROVIDERS;
}

/** The built-in OAuth method of `providerId`, or undefined. */
export function builtinOAuth(providerId: string): OAuthAuth | undefined {
	return BY_ID.get(providerId)?.oauth;
}
