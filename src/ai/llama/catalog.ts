/**
 * Refreshing the llama.cpp models from the router: `GET /models`, router autoload (asked only when there are
 * unloaded presets), the chat template of each loaded model (`/props?model=…&autoload=false`; sleeping models are
 * not asked, which would wake them), then the provider's models are replaced and written to models-store.json in
 * pi's shape (`{"llama.cpp": {"models": [...], "checkedAt": <ms>}}`; other providers' entries are kept). The write
 * is locked and atomic, like auth.json's.
 */
import { dirname } from "node:path";
import { errorMessage, mkdirSync, readFileSync, writeFileAtomic } from "../../util/index.ts";
import type { AuthStorage } from "../auth/credential-store.ts";
import type { ModelRegistry } from "../model-registry/index.ts";
import type { Model } from "../types.ts";
import { isSelectable, LLAMA_PROVIDER_ID, toModel } from "./models.ts";
import { RouterClient } from "./router-client.ts";
import { applyLlamaModels, type LlamaConnection, llamaConnection, modelsStorePath } from "./startup.ts";
import type { RouterModel } from "./types.ts";

async function autoloadEnabled(client: RouterClient, catalog: RouterModel[], signal?: AbortSignal): Promise<boolean> {
	if (!catalog.some((m) => m.status.value === "unloaded" && m.source === "preset")) return false;
	try {
		return (await client.props(signal ? { signal } : {})).models_autoload === true;
	} catch {
		return false;
	}
}

/** The models `/model` should offer for this router catalogue. */
export async function selectableModels(
	client: RouterClient,
	catalog: RouterModel[],
	signal?: AbortSignal,
): Promise<Model[]> {
	const autoload = await autoloadEnabled(client, catalog, signal);
	return Promise.all(
		catalog
			.filter((m) => isSelectable(m, autoload))
			.map(async (m) => {
				if (m.status.value !== "loaded") return toModel(m, client.serverUrl);
				const props = await client.props({ model: m.id, ...(signal ? { signal } : {}) }).catch(() => undefined);
				return toModel(m, client.serverUrl, props);
			}),
	);
}

/** Writes the llama.cpp entry of models-store.json (locked; the rest of the file is kept). */
export async function writeStoredModels(path: string, models: readonly Model[]): Promise<void> {
	mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
	const { default: lockfile } = await import("proper-lockfile");
	let release: () => Promise<void>;
	try {
		release = await lockfile.lock(path, {
			realpath: false,
			stale: 10_000,
			retries: { retries: 40, factor: 1.3, minTimeout: 10, maxTimeout: 250 },
		});
	} catch (error) {
		throw new Error(`Cannot lock ${path}: ${errorMessage(error)}`);
	}
	try {
		let data: Record<string, unknown> = {};
		try {
			const parsed = JSON.parse(readFileSync(path, "utf8").replace(/^\uFEFF/, "")) as unknown;
			if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
				data = parsed as Record<string, unknown>;
			}
		} catch {
			// missing or unreadable: the cache starts again
		}
		data[LLAMA_PROVIDER_ID] = { models, checkedAt: Date.now() };
		try {
			writeFileAtomic(path, JSON.stringify(data, null, 2), 0o600);
		} catch (error) {
			throw new Error(`Cannot write ${path}: ${errorMessage(error)}`);
		}
	} finally {
		await release().catch(() => {});
	}
}

export interface RefreshOptions {
	agentDir: string;
	/** A catalogue just read (skips the `GET /models`). */
	catalog?: RouterModel[];
	signal?: AbortSignal;
	env?: Record<string, string | undefined>;
}

/**
 * Reads the router's models, makes the selectable ones the llama.cpp provider's models and caches them. Returns
 * the router's catalogue (every model, whatever its state).
 */
export async function refreshLlamaModels(
	registry: ModelRegistry,
	client: RouterClient,
	connection: LlamaConnection,
	options: RefreshOptions,
): Promise<RouterModel[]> {
	const signal = options.signal;
	const catalog = options.catalog ?? (await client.list(signal ? { signal } : {}));
	const models = await selectableModels(client, catalog, signal);
	applyLlamaModels(registry, connection, models, options.env);
	await writeStoredModels(modelsStorePath(options.agentDir), models);
	return catalog;
}

/**
 * The configured router's models, refreshed quietly (start-up of the terminal UI and RPC mode when not offline,
 * as pi refreshes dynamic catalogues): on any failure the cached models stay.
 */
export async function refreshConfiguredRouter(
	registry: ModelRegistry,
	authStorage: AuthStorage,
	agentDir: string,
	env: Record<string, string | undefined> = process.env,
): Promise<void> {
	const connection = llamaConnection(authStorage, env);
	if (!connection) return;
	const client = new RouterClient(connection.serverUrl, connection.apiKey);
	await refreshLlamaModels(registry, client, connection, { agentDir, signal: AbortSignal.timeout(15_000), env }).catch(
		() => {},
	);
}
