/**
 * Credentials: `auth.json` (path given by the caller), runtime keys (`--api-key`), the environment, and a
 * configured-key resolver that the model registry installs (models.json / extension `apiKey`).
 *
 * auth.json is `{ "<provider>": {"type":"api_key","key":…} | {"type":"oauth","refresh","access","expires",…} }`,
 * mode 0600. Reads are served from memory (loaded at construction and on `reload()`). Every write re-reads the
 * file under its lock (util/file-lock.ts; a write whose lock was taken away is redone), changes one entry, and
 * lands by write-to-temp + rename, so concurrent writers (in this process or others) lose nothing and readers never
 * see a half-written file. Entries and fields this code does not understand are carried over untouched. A file
 * that cannot be read or parsed is reported once (`getErrors()`, with line and column), treated as empty, and never
 * replaced: writes are refused until the user fixes or removes it.
 *
 * Key order (pi 0.87.1, docs/models.md "Authenticate"): runtime key → auth.json → configured key (models.json or
 * registerProvider `apiKey`) → the provider's environment variables.
 */

import { dirname, resolve } from "node:path";
import {
	describeInvalidJson,
	errorMessage,
	type HeldLock,
	lockFile,
	mkdirSync,
	readFileSync,
	writeFileAtomic,
} from "../../util/index.ts";
import { getEnvApiKey } from "../env-keys.ts";
import { credentialProblem, isRecord, type OAuthMethod, oauthMethodOf, stringEnv } from "./credential-shape.ts";
import { builtinOAuth } from "./oauth/registry.ts";
import { oauthRefreshFailure } from "./oauth-refresh-error.ts";
import type { ModelAuth, OAuthAuth } from "./provider-auth-types.ts";
import { resolveValue, type ValueEnv } from "./resolve-value.ts";
import type {
	ApiKeyResolution,
	AuthStatus,
	AuthStorageOptions,
	ConfiguredKeyResolver,
	Credential,
	OAuthCredential,
	OAuthHandler,
} from "./types.ts";

export type * from "./types.ts";

/** The lock: abandoned after (ms), waited for up to (ms), attempts of a write whose lock was taken away. */
const [LOCK_STALE_MS, LOCK_WAIT_MS, LOCK_ATTEMPTS] = [10_000, 15_000, 3];
/** OAuth tokens are refreshed when they expire within this window (pi-ai 0.87.1's minimum validity). */
const OAUTH_REFRESH_WINDOW_MS = 5 * 60 * 1000;
const OAUTH_REFRESH_TIMEOUT_MS = 15_000;

/** The auth.json lock was taken away while this writer held it: nothing was written. */
class LockLostError extends Error {}

/** In-process queue per file: writers here never race each other for the file lock. */
const writeQueues = new Map<string, Promise<unknown>>();

/** What is wrong with auth.json: the whole file (unreadable, not JSON, not an object) or one provider's entry. */
export type AuthFileIssue =
	| { kind: "unreadable" | "syntax" | "shape"; reason: string }
	| { kind: "entry"; provider: string; reason: string };

type Loaded =
	| { ok: true; data: Record<string, unknown> }
	| { ok: false; kind: "unreadable" | "syntax" | "shape"; reason: string };

export class AuthStorage {
	readonly path: string;
	private readonly env: ValueEnv;
	private readonly now: () => number;
	private credentials = new Map<string, Credential>();
	private diagnostics: string[] = [];
	private issues: AuthFileIssue[] = [];
	private readonly runtimeKeys = new Map<string, string>();
	private configured: ConfiguredKeyResolver | undefined;
	private readonly oauthHandlers = new Map<string, OAuthHandler>();
	private readonly builtinOAuth: (provider: string) => OAuthAuth | undefined;
	/** What a built-in OAuth method derived from the current access token (`toAuth`), per provider. */
	private readonly oauthAuth = new Map<string, { access: string; auth: ModelAuth }>();

	constructor(authPath: string, options: AuthStorageOptions = {}) {
		this.path = resolve(authPath);
		this.env = options.env ?? process.env;
		this.now = options.now ?? Date.now;
		this.builtinOAuth = options.oauthProviders ?? builtinOAuth;
		this.reload();
	}

	static create(authPath: string, options?: AuthStorageOptions): AuthStorage {
		return new AuthStorage(authPath, options);
	}

	/** Re-reads auth.json (another process may have changed it). */
	reload(): void {
		this.diagnostics = [];
		this.issues = [];
		const loaded = this.readFile();
		if (!loaded.ok) {
			this.issues.push({ kind: loaded.kind, reason: loaded.reason });
			this.diagnostics.push(
				`${this.path}: ${loaded.reason}; stored credentials are ignored and the file will not be overwritten until it is fixed or removed`,
			);
			this.credentials = new Map();
			return;
		}
		this.adopt(loaded.data);
	}

	/** Problems found in auth.json (one line each). */
	getErrors(): string[] {
		return [...this.diagnostics];
	}

	/** The same problems as data: what is wrong with the file as a whole, or with which provider's entry. */
	getIssues(): AuthFileIssue[] {
		return this.issues.map((issue) => ({ ...issue }));
	}

	get(provider: string): Credential | undefined {
		const credential = this.credentials.get(provider);
		return credential ? structuredClone(credential) : undefined;
	}

	has(provider: string): boolean {
		return this.credentials.has(provider);
	}

	/** Providers with a usable stored credential. */
	list(): string[] {
		return [...this.credentials.keys()];
	}

	/** Stores (or replaces) a provider's credential. Rejects when auth.json is unreadable or invalid. */
	async set(provider: string, credential: Credential): Promise<void> {
		const problem = credentialProblem(credential);
		if (problem) throw new Error(`Cannot store credential for "${provider}": ${problem}`);
		const copy = structuredClone(credential);
		await this.update((data) => {
			data[provider] = copy;
			return true;
		});
	}

	async remove(provider: string): Promise<void> {
		await this.update((data) => {
			delete data[provider];
			return true;
		});
	}

	/** Installs (or with undefined removes) the OAuth handler of a provider (`registerProvider(…, {oauth})`). */
	setOAuthHandler(provider: string, handler: OAuthHandler | undefined): void {
		if (handler) this.oauthHandlers.set(provider, handler);
		else this.oauthHandlers.delete(provider);
	}

	/** The OAuth method of `provider`: an extension's `registerProvider(…, {oauth})` wins over the built-in one. */
	private oauthMethod(provider: string): OAuthMethod | undefined {
		return oauthMethodOf(this.oauthHandlers.get(provider), this.builtinOAuth(provider), () => {
			const derived = this.oauthAuth.get(provider);
			return derived && { access: derived.access, apiKey: derived.auth.apiKey };
		});
	}

	private expiresSoon(credential: OAuthCredential): boolean {
		return this.now() + OAUTH_REFRESH_WINDOW_MS >= credential.expires;
	}

	/** True when the provider's stored OAuth tokens expire soon and its OAuth method can refresh them. */
	canRefresh(provider: string): boolean {
		const stored = this.credentials.get(provider);
		return stored?.type === "oauth" && this.oauthMethod(provider) !== undefined && this.expiresSoon(stored);
	}

	/**
	 * Makes the provider's stored OAuth tokens usable for a request: when they expire within five minutes they are
	 * refreshed through the provider's OAuth method by exactly one process. The refresh runs under the auth.json
	 * lock after re-reading the file; when another process (or request) refreshed meanwhile its tokens are taken
	 * and no refresh is sent. A failed refresh leaves auth.json as it was and rejects with one line; a refresh
	 * token the provider no longer accepts says which provider to log in to again.
	 */
	async refreshOAuthIfExpired(provider: string, signal?: AbortSignal): Promise<void> {
		const method = this.oauthMethod(provider);
		const stored = this.credentials.get(provider);
		if (!method || stored?.type !== "oauth") return;
		if (this.expiresSoon(stored)) {
			let refreshed: { from: string; fresh: OAuthCredential } | undefined;
			await this.update(async (data) => {
				const current = data[provider];
				// Checked again under the lock: another process may have refreshed, or logged out.
				if (credentialProblem(current) !== undefined) return false;
				const credential = current as Credential;
				if (credential.type !== "oauth" || !this.expiresSoon(credential)) return false;
				// A write redone after a lost lock reuses the tokens already fetched: a refresh token may be single-use.
				if (refreshed?.from !== credential.refresh) {
					const timeout = AbortSignal.timeout(OAUTH_REFRESH_TIMEOUT_MS);
					let fresh: OAuthCredential;
					try {
						fresh = await method.refresh(credential, signal ? AbortSignal.any([signal, timeout]) : timeout);
					} catch (error) {
						throw oauthRefreshFailure(provider, error);
					}
					const problem = credentialProblem(fresh);
					if (problem) throw new Error(`OAuth token refresh for "${provider}" returned unusable tokens: ${problem}`);
					refreshed = { from: credential.refresh, fresh };
				}
				data[provider] = refreshed.fresh;
				return true;
			});
		}
		const current = this.credentials.get(provider);
		if (current?.type !== "oauth" || !method.toAuth || this.oauthAuth.get(provider)?.access === current.access) return;
		this.oauthAuth.set(provider, { access: current.access, auth: await method.toAuth(current) });
	}

	/** Headers a built-in OAuth method derived for the provider's current token (empty when none). */
	getOAuthHeaders(provider: string): Record<string, string> {
		const current = this.credentials.get(provider);
		const derived = this.oauthAuth.get(provider);
		return current?.type === "oauth" && derived?.access === current.access ? { ...derived.auth.headers } : {};
	}

	/** The stored login's base URL (derived by a built-in OAuth method, e.g. Copilot's `proxy-ep`) and API-key
	 * entry `env` (AWS_PROFILE, GOOGLE_CLOUD_PROJECT…) for a request, as pi; none under a `--api-key`. */
	getRequestOverrides(provider: string): { baseUrl?: string; env?: Record<string, string> } {
		if (this.runtimeKeys.get(provider)) return {};
		const current = this.credentials.get(provider);
		if (current?.type === "api_key") {
			return current.env && Object.keys(current.env).length > 0 ? { env: { ...current.env } } : {};
		}
		const derived = this.oauthAuth.get(provider);
		const baseUrl = current && derived?.access === current.access ? derived.auth.baseUrl : undefined;
		return baseUrl ? { baseUrl } : {};
	}

	/** Whether `provider` has an OAuth method (built in or registered by an extension). */
	hasOAuth(provider: string): boolean {
		return this.oauthMethod(provider) !== undefined;
	}

	/** A key for this process only (`--api-key`); never written to disk. */
	setRuntimeApiKey(provider: string, apiKey: string): void {
		this.runtimeKeys.set(provider, apiKey);
	}

	removeRuntimeApiKey(provider: string): void {
		this.runtimeKeys.delete(provider);
	}

	/** The registry installs its models.json / registerProvider key lookup here (undefined removes it). */
	setConfiguredKeyResolver(resolver: ConfiguredKeyResolver | undefined): void {
		this.configured = resolver;
	}

	/** Where a key would come from, without running commands or reading secrets. */
	getAuthStatus(provider: string): AuthStatus {
		if (this.runtimeKeys.has(provider)) return { configured: true, source: "runtime" };
		if (this.credentials.has(provider)) return { configured: true, source: "stored" };
		if (getEnvApiKey(provider, this.env as NodeJS.ProcessEnv)) return { configured: true, source: "environment" };
		const configured = this.configured?.status(provider);
		if (configured) return configured;
		return { configured: false };
	}

	/** The key for `provider` in pi's order, or the reason a configured source produced none. */
	resolveApiKey(provider: string): ApiKeyResolution {
		const runtime = this.runtimeKeys.get(provider);
		if (runtime !== undefined && runtime !== "") return { apiKey: runtime, source: "runtime" };
		const stored = this.credentials.get(provider);
		if (stored && (stored.type === "oauth" || stored.key !== undefined)) return this.resolveStored(provider, stored);
		// Order (issue 3 of this project, as pi 0.73): runtime → auth.json → environment → models.json/extension key.
		const fromEnv = getEnvApiKey(provider, this.env as NodeJS.ProcessEnv);
		if (fromEnv) return { apiKey: fromEnv, source: "environment" };
		const configured = this.configured?.resolve(provider);
		if (configured && (configured.apiKey !== undefined || configured.error !== undefined)) return configured;
		return {};
	}

	getApiKey(provider: string): string | undefined {
		return this.resolveApiKey(provider).apiKey;
	}

	// ---- internals -----------------------------------------------------------------------------------------

	private resolveStored(provider: string, credential: Credential): ApiKeyResolution {
		if (credential.type === "oauth") {
			if (this.now() < credential.expires) {
				const method = this.oauthMethod(provider);
				return { apiKey: method ? method.apiKey(credential) : credential.access, source: "stored" };
			}
			const when = new Date(credential.expires).toISOString();
			return {
				source: "stored",
				error: `OAuth token for "${provider}" in ${this.path} expired at ${when}; log in again (/login ${provider})`,
			};
		}
		const result = resolveValue(credential.key ?? "", { cache: true, env: credential.env, baseEnv: this.env });
		if (result.ok) return { apiKey: result.value, source: "stored" };
		return { source: "stored", error: `${this.path}: key for "${provider}": ${result.error}` };
	}

	private readFile(): Loaded {
		let text: string;
		try {
			text = readFileSync(this.path, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, data: {} };
			return { ok: false, kind: "unreadable", reason: `cannot read: ${errorMessage(error)}` };
		}
		if (text.trim() === "") return { ok: true, data: {} };
		let parsed: unknown;
		try {
			parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
		} catch (error) {
			return { ok: false, kind: "syntax", reason: describeInvalidJson(text) ?? `invalid JSON: ${errorMessage(error)}` };
		}
		if (!isRecord(parsed)) return { ok: false, kind: "shape", reason: "expected a JSON object of provider entries" };
		return { ok: true, data: parsed };
	}

	/** Takes valid entries into memory; reports the others (they stay in the file untouched). */
	private adopt(data: Record<string, unknown>): void {
		const next = new Map<string, Credential>();
		for (const [provider, value] of Object.entries(data)) {
			const problem = credentialProblem(value);
			if (problem) {
				this.issues.push({ kind: "entry", provider, reason: problem });
				this.diagnostics.push(`${this.path}: entry "${provider}" ignored: ${problem}`);
				continue;
			}
			const credential = structuredClone(value) as Credential;
			if (credential.type === "api_key" && credential.env !== undefined) credential.env = stringEnv(credential.env);
			next.set(provider, credential);
		}
		this.credentials = next;
	}

	/** Runs `change` on the file's current entries under the lock; it returns false to write nothing. */
	private update(change: (data: Record<string, unknown>) => boolean | Promise<boolean>): Promise<void> {
		const previous = writeQueues.get(this.path) ?? Promise.resolve();
		const attempt = () => this.retriedUpdate(change);
		const run = previous.then(attempt, attempt);
		const settled = run.catch(() => undefined);
		writeQueues.set(this.path, settled);
		void settled.then(() => {
			if (writeQueues.get(this.path) === settled) writeQueues.delete(this.path);
		});
		return run;
	}

	/** A write whose lock was taken away while held is redone from a fresh read, a few times. */
	private async retriedUpdate(change: (data: Record<string, unknown>) => boolean | Promise<boolean>): Promise<void> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await this.lockedUpdate(change);
			} catch (error) {
				if (!(error instanceof LockLostError)) throw error;
				if (attempt >= LOCK_ATTEMPTS) throw new Error(`${error.message} (gave up after ${attempt} attempts)`);
			}
		}
	}

	private async lockedUpdate(change: (data: Record<string, unknown>) => boolean | Promise<boolean>): Promise<void> {
		mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
		let lock: HeldLock;
		try {
			lock = await lockFile(this.path, { stale: LOCK_STALE_MS, waitMs: LOCK_WAIT_MS });
		} catch (error) {
			throw new Error(`Cannot lock ${this.path}: ${errorMessage(error)}`);
		}
		try {
			const loaded = this.readFile();
			if (!loaded.ok) {
				throw new Error(
					`Refusing to write ${this.path}: ${loaded.reason}. The file was left unchanged; fix or remove it first.`,
				);
			}
			const write = await change(loaded.data);
			if (write === false) {
				this.adopt(loaded.data);
				return;
			}
			// Taken away meanwhile (removed, taken over as stale, refreshed too late): another writer may have written.
			if (!lock.held()) throw new LockLostError(`${this.path}: the file lock was lost while writing; not written`);
			this.writeAtomically(`${JSON.stringify(loaded.data, null, 2)}\n`);
			this.diagnostics = [];
			this.adopt(loaded.data);
		} finally {
			await lock.release();
		}
	}

	private writeAtomically(text: string): void {
		try {
			writeFileAtomic(this.path, text, 0o600, true);
		} catch (error) {
			throw new Error(`Cannot write ${this.path}: ${errorMessage(error)}`);
		}
	}
}
