/**
 * Building blocks of provider auth (pi-ai 0.87.1): the in-memory credential store, the standard api-key method,
 * a lazily loaded OAuth method, the default ambient context, and the one resolution order used by `createModels`
 * and `createImagesModels`: a request's own key → the stored credential (OAuth refreshed under the store's
 * per-provider lock when it expires within five minutes) → ambient auth (environment, files) when nothing is
 * stored. Failures are `ModelsError`s whose message keeps the cause's text.
 */
import { operationSignal, raceWithAbortSignal } from "../abort.ts";
import { formatThrownValue } from "../diagnostics.ts";
import type {
	ApiKeyAuth,
	AuthContext,
	AuthOperationOptions,
	AuthResolutionOverrides,
	AuthResult,
	CredentialInfo,
	CredentialStore,
	OAuthAuth,
	ProviderAuth,
	ProviderAuthInteraction,
	ProviderEnv,
	StoredApiKeyCredential,
	StoredCredential,
} from "./provider-auth-types.ts";
import type { OAuthCredential } from "./types.ts";

export type ModelsErrorCode = "auth" | "oauth" | "provider" | "stream" | "model_source";

/** A failure of the models/auth layer; `message` carries the cause's text, `code` what failed. */
export class ModelsError extends Error {
	readonly code: ModelsErrorCode;
	constructor(code: ModelsErrorCode, message: string, options?: { cause?: unknown }) {
		super(withCause(message, options?.cause), options);
		this.name = "ModelsError";
		this.code = code;
	}
}

function withCause(message: string, cause: unknown): string {
	if (cause === undefined || cause === null) return message;
	const detail = formatThrownValue(cause).trim();
	return !detail || message.includes(detail) ? message : `${message}: ${detail}`;
}

/** Credentials kept in memory; changes to one provider run one after another. */
export class InMemoryCredentialStore implements CredentialStore {
	private readonly credentials = new Map<string, StoredCredential>();
	private readonly chains = new Map<string, Promise<unknown>>();

	private enqueue<T>(providerId: string, task: () => Promise<T>, options?: AuthOperationOptions): Promise<T> {
		const signal = operationSignal(options?.signal);
		const previous = this.chains.get(providerId) ?? Promise.resolve();
		const queued = (async () => {
			await previous.catch(() => {});
			signal.throwIfAborted();
			return task();
		})();
		const tail = queued.catch(() => {});
		this.chains.set(providerId, tail);
		tail.then(() => {
			if (this.chains.get(providerId) === tail) this.chains.delete(providerId);
		});
		return raceWithAbortSignal(queued, signal);
	}

	async read(providerId: string, options?: AuthOperationOptions): Promise<StoredCredential | undefined> {
		options?.signal?.throwIfAborted();
		return this.credentials.get(providerId);
	}

	async list(options?: AuthOperationOptions): Promise<readonly CredentialInfo[]> {
		options?.signal?.throwIfAborted();
		return [...this.credentials].map(([providerId, credential]) => ({ providerId, type: credential.type }));
	}

	/** Runs `fn` on the current credential under the provider's queue; a returned credential replaces it. */
	modify(
		providerId: string,
		fn: (current: StoredCredential | undefined) => Promise<StoredCredential | undefined>,
		options?: AuthOperationOptions,
	): Promise<StoredCredential | undefined> {
		return this.enqueue(
			providerId,
			async () => {
				const current = this.credentials.get(providerId);
				const next = await fn(current);
				options?.signal?.throwIfAborted();
				if (next !== undefined) this.credentials.set(providerId, next);
				return next ?? current;
			},
			options,
		);
	}

	delete(providerId: string, options?: AuthOperationOptions): Promise<void> {
		return this.enqueue(providerId, async () => void this.credentials.delete(providerId), options);
	}
}

/** Ambient auth from this process: non-blank environment variables, and files (`~` = home) that exist. */
export function defaultProviderAuthContext(): AuthContext {
	return {
		async env(name) {
			const value = process.env[name];
			return typeof value === "string" && value.trim().length > 0 ? value : undefined;
		},
		async fileExists(path) {
			try {
				const { access } = await import("node:fs/promises");
				const { homedir } = await import("node:os");
				await access(path.startsWith("~") ? homedir() + path.slice(1) : path);
				return true;
			} catch {
				return false;
			}
		},
	};
}

/**
 * The usual api-key method: a stored key wins, else the first of `envVars` that is set. Its `login` asks for the
 * key with a secret prompt.
 */
export function envApiKeyAuth(name: string, envVars: readonly string[]): ApiKeyAuth {
	return {
		name,
		async login(interaction: ProviderAuthInteraction): Promise<StoredApiKeyCredential> {
			interaction.signal.throwIfAborted();
			const key = await interaction.prompt({ type: "secret", message: `Enter ${name}` });
			interaction.signal.throwIfAborted();
			return { type: "api_key", key };
		},
		async resolve({ ctx, credential, signal }) {
			signal.throwIfAborted();
			if (credential?.key)
				return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
			for (const envVar of envVars) {
				const value = await ctx.env(envVar);
				signal.throwIfAborted();
				if (value) return { auth: { apiKey: value }, source: envVar };
			}
			return undefined;
		},
	};
}

/** An OAuth method whose implementation is imported by `load` on its first use (login, refresh or toAuth). */
export function lazyOAuth(input: {
	name: string;
	isSubscription?: boolean;
	loginLabel?: string;
	load: () => Promise<OAuthAuth>;
}): OAuthAuth {
	let loading: Promise<OAuthAuth> | undefined;
	const loaded = () => {
		loading ??= input.load();
		return loading;
	};
	return {
		name: input.name,
		isSubscription: input.isSubscription,
		loginLabel: input.loginLabel,
		login: async (interaction) => (await loaded()).login(interaction),
		refresh: async (credential, signal) => (await loaded()).refresh(credential, signal),
		toAuth: async (credential) => (await loaded()).toAuth(credential),
	};
}

export interface AuthOwner {
	id: string;
	auth: ProviderAuth;
}

/** The auth a request to `provider` uses, or undefined when it is not configured. */
export function resolveProviderAuth(
	provider: AuthOwner,
	credentials: CredentialStore,
	ctx: AuthContext,
	overrides?: AuthResolutionOverrides,
): Promise<AuthResult | undefined> {
	const signal = operationSignal(overrides?.signal);
	return raceWithAbortSignal(resolve(provider, credentials, ctx, overrides, signal), signal);
}

async function resolve(
	provider: AuthOwner,
	credentials: CredentialStore,
	base: AuthContext,
	overrides: AuthResolutionOverrides | undefined,
	signal: AbortSignal,
): Promise<AuthResult | undefined> {
	signal.throwIfAborted();
	const ctx = overrides?.env ? withEnv(base, overrides.env) : base;
	const apiKey = provider.auth.apiKey;
	if (overrides?.apiKey !== undefined && apiKey) {
		const credential: StoredApiKeyCredential = { type: "api_key", key: overrides.apiKey, env: overrides.env };
		return resolveApiKey(ctx, apiKey, provider.id, credential, signal);
	}
	const stored = await readCredential(credentials, provider.id, signal);
	if (!stored) return apiKey ? resolveApiKey(ctx, apiKey, provider.id, undefined, signal) : undefined;
	if (stored.type === "oauth" && provider.auth.oauth) {
		return resolveOAuth(credentials, provider.id, provider.auth.oauth, stored, signal, overrides?.minOAuthValidityMs);
	}
	if (stored.type === "api_key" && apiKey) {
		const credential = overrides?.env ? { ...stored, env: { ...stored.env, ...overrides.env } } : stored;
		return resolveApiKey(ctx, apiKey, provider.id, credential as StoredApiKeyCredential, signal);
	}
	return undefined;
}

function withEnv(base: AuthContext, env: ProviderEnv): AuthContext {
	return { env: async (name) => env[name] || (await base.env(name)), fileExists: (path) => base.fileExists(path) };
}

const MIN_OAUTH_VALIDITY_MS = 5 * 60 * 1000;
const OAUTH_REFRESH_TIMEOUT_MS = 15_000;

async function resolveOAuth(
	credentials: CredentialStore,
	providerId: string,
	oauth: OAuthAuth,
	stored: OAuthCredential,
	signal: AbortSignal,
	minValidityMs: number | undefined,
): Promise<AuthResult | undefined> {
	const minimum = Math.max(MIN_OAUTH_VALIDITY_MS, minValidityMs ?? 0);
	const expiresSoon = (credential: OAuthCredential) => Date.now() + minimum >= credential.expires;
	let credential = stored;
	if (expiresSoon(credential)) {
		let post: StoredCredential | undefined;
		try {
			post = await credentials.modify(
				providerId,
				async (current) => {
					// Checked again under the lock: another request may have refreshed meanwhile, or logged out.
					if (current?.type !== "oauth" || !expiresSoon(current)) return undefined;
					try {
						return await oauth.refresh(
							current,
							AbortSignal.any([signal, AbortSignal.timeout(OAUTH_REFRESH_TIMEOUT_MS)]),
						);
					} catch (error) {
						throw new ModelsError("oauth", `OAuth refresh failed for ${providerId}`, { cause: error });
					}
				},
				{ signal },
			);
		} catch (error) {
			if (error instanceof ModelsError) throw error;
			throw new ModelsError("auth", `Credential store modify failed for ${providerId}`, { cause: error });
		}
		if (post?.type !== "oauth") return undefined;
		credential = post;
		if (minValidityMs !== undefined && expiresSoon(credential)) {
			throw new ModelsError("oauth", `OAuth refresh returned a token that expires too soon for ${providerId}`);
		}
	}
	try {
		return { auth: await oauth.toAuth(credential), source: "OAuth" };
	} catch (error) {
		throw new ModelsError("oauth", `OAuth auth derivation failed for ${providerId}`, { cause: error });
	}
}

async function resolveApiKey(
	ctx: AuthContext,
	apiKey: ApiKeyAuth,
	providerId: string,
	credential: StoredApiKeyCredential | undefined,
	signal: AbortSignal,
): Promise<AuthResult | undefined> {
	try {
		return await apiKey.resolve({ ctx, credential, signal });
	} catch (error) {
		throw new ModelsError("auth", `API key auth failed for provider ${providerId}`, { cause: error });
	}
}

export async function readCredential(
	credentials: CredentialStore,
	providerId: string,
	signal: AbortSignal,
): Promise<StoredCredential | undefined> {
	try {
		return await credentials.read(providerId, { signal });
	} catch (error) {
		throw new ModelsError("auth", `Credential store read failed for ${providerId}`, { cause: error });
	}
}
