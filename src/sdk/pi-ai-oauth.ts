/**
 * `pi-ai/oauth`: the OAuth type surface custom providers and extensions use (type-only in pi 0.87.1), plus a
 * registry for OAuth providers registered here. The built-in logins (src/ai/auth/oauth/) are not listed by it.
 */
import type { Model } from "../ai/index.ts";

export interface OAuthCredentials {
	refresh: string;
	access: string;
	/** Expiry time in ms since the epoch. */
	expires: number;
	[key: string]: unknown;
}

export interface OAuthPrompt {
	message: string;
	placeholder?: string;
	allowEmpty?: boolean;
}

export interface OAuthAuthInfo {
	url: string;
	instructions?: string;
}

export interface OAuthLoginCallbacks {
	onAuth(info: OAuthAuthInfo): void;
	onPrompt(prompt: OAuthPrompt): Promise<string>;
	onProgress?(message: string): void;
	onManualCodeInput?(): Promise<string>;
	signal?: AbortSignal;
}

export interface OAuthProviderInterface {
	id: string;
	name: string;
	login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials>;
	refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials>;
	getApiKey(credentials: OAuthCredentials): string;
	modifyModels?(models: Model[], credentials: OAuthCredentials): Model[];
	usesCallbackServer?: boolean;
}

const providers = new Map<string, OAuthProviderInterface>();

export function registerOAuthProvider(provider: OAuthProviderInterface): void {
	providers.set(provider.id, provider);
}

export function unregisterOAuthProvider(id: string): void {
	providers.delete(id);
}

export function getOAuthProvider(id: string): OAuthProviderInterface | undefined {
	return providers.get(id);
}

export function getOAuthProviders(): OAuthProviderInterface[] {
	return [...providers.values()];
}

/** A usable access token for `providerId`, refreshing it through the provider when it expired. */
export async function getOAuthApiKey(
	providerId: string,
	credentials: Record<string, OAuthCredentials>,
): Promise<{ newCredentials: OAuthCredentials; apiKey: string } | null> {
	const provider = providers.get(providerId);
	const current = credentials[providerId];
	if (!provider || !current) return null;
	const fresh = Date.now() >= current.expires ? await provider.refreshToken(current) : current;
	return { newCredentials: fresh, apiKey: provider.getApiKey(fresh) };
}
