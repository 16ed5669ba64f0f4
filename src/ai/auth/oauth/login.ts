/**
 * Signing in to a built-in OAuth provider and storing the result: the provider's flow runs to the end first, and
 * only a complete credential is written to auth.json (locked, atomic, mode 0600). A cancelled or failed login
 * writes nothing, so auth.json stays exactly as it was.
 */
import type { AuthStorage } from "../credential-store.ts";
import type { ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import { builtinOAuth, builtinOAuthProviders } from "./registry.ts";

export { LOGIN_CANCELLED } from "./cancel.ts";

/** Ids and names of the providers with a built-in account login. */
export function oauthLoginProviders(): { id: string; name: string; loginName: string; loginLabel?: string }[] {
	return builtinOAuthProviders().map((p) => ({
		id: p.id,
		name: p.providerName,
		loginName: p.oauth.name,
		...(p.oauth.loginLabel ? { loginLabel: p.oauth.loginLabel } : {}),
	}));
}

export async function loginWithOAuth(
	storage: AuthStorage,
	provider: string,
	interaction: ProviderAuthInteraction,
): Promise<OAuthCredential> {
	const oauth = builtinOAuth(provider);
	if (!oauth) throw new Error(`"${provider}" has no account login`);
	const credential = await oauth.login(interaction);
	interaction.signal.throwIfAborted();
	await storage.set(provider, credential);
	return credential;
}
