/**
 * What start-up needs of llama.cpp, kept small (the router client, the hub and the dialog load on first use):
 * whether a router is configured — a `/login llama.cpp` entry in auth.json (`{"type":"api_key","key"?,"env":
 * {"LLAMA_BASE_URL":…}}`) or `LLAMA_BASE_URL` in the environment — and, only then, the models last seen on it, read
 * from `<agentDir>/models-store.json` (pi's catalogue cache) so `pi -p --model llama.cpp/<id>` works without asking
 * the router. Nothing is read when no router is configured.
 */
import { join } from "node:path";
import { errorMessage, readFileSync } from "../../util/index.ts";
import type { AuthStorage } from "../auth/credential-store.ts";
import type { ModelRegistry } from "../model-registry/index.ts";
import type { Model } from "../types.ts";
import { inferenceUrl, normalizeServerUrl } from "./format.ts";
import { LLAMA_PROVIDER_ID, LLAMA_PROVIDER_NAME, toDefinition } from "./models.ts";

type Env = Record<string, string | undefined>;

/** Where the router is and which key its requests carry. */
export interface LlamaConnection {
	serverUrl: string;
	/** The key sent with router and chat requests: the stored one, else `LLAMA_API_KEY`, else "local". */
	apiKey: string;
	source: "stored credential" | "LLAMA_BASE_URL";
}

/** pi's catalogue cache, next to models.json. */
export function modelsStorePath(agentDir: string): string {
	return join(agentDir, "models-store.json");
}

/** The configured router, or undefined when neither auth.json nor the environment names one. */
export function llamaConnection(authStorage: AuthStorage, env: Env = process.env): LlamaConnection | undefined {
	const stored = authStorage.get(LLAMA_PROVIDER_ID);
	const credential = stored?.type === "api_key" ? stored : undefined;
	const raw = credential?.env?.LLAMA_BASE_URL?.trim() || env.LLAMA_BASE_URL?.trim();
	if (!raw) return undefined;
	let serverUrl: string;
	try {
		serverUrl = normalizeServerUrl(raw);
	} catch {
		return undefined;
	}
	const storedKey = typeof credential?.key === "string" ? authStorage.getApiKey(LLAMA_PROVIDER_ID) : undefined;
	return {
		serverUrl,
		apiKey: storedKey || env.LLAMA_API_KEY || "local",
		source: credential ? "stored credential" : "LLAMA_BASE_URL",
	};
}

/** The llama.cpp models of models-store.json, with a one-line warning when the file cannot be used. */
export function readStoredModels(path: string): { models: Model[]; warning?: string } {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch {
		return { models: [] };
	}
	try {
		const data = JSON.parse(text.replace(/^\uFEFF/, "")) as Record<string, { models?: unknown } | undefined>;
		const models = data?.[LLAMA_PROVIDER_ID]?.models;
		if (!Array.isArray(models)) return { models: [] };
		return {
			models: models.filter(
				(m): m is Model =>
					typeof m?.id === "string" && m.provider === LLAMA_PROVIDER_ID && m.api === "openai-completions",
			),
		};
	} catch (error) {
		return { models: [], warning: `${path}: ${errorMessage(error)}; cached llama.cpp models are ignored` };
	}
}

/** Makes `models` the llama.cpp provider's models (requests go to the router's `/v1`). */
export function applyLlamaModels(
	registry: ModelRegistry,
	connection: LlamaConnection,
	models: readonly Model[],
	env: Env = process.env,
): void {
	registry.registerProvider(LLAMA_PROVIDER_ID, {
		name: LLAMA_PROVIDER_NAME,
		api: "openai-completions",
		baseUrl: inferenceUrl(connection.serverUrl),
		// Used when auth.json holds no key for it: the variable (read per request) or llama.cpp's "no key".
		apiKey: env.LLAMA_API_KEY ? "$LLAMA_API_KEY" : "local",
		models: models.map(toDefinition),
	});
}

/**
 * At start-up: when a router is configured, offer the models last seen on it. Returns warnings (one line each).
 */
export function attachLlamaProvider(
	registry: ModelRegistry,
	authStorage: AuthStorage,
	agentDir: string,
	env: Env = process.env,
): string[] {
	const connection = llamaConnection(authStorage, env);
	if (!connection) return [];
	const stored = readStoredModels(modelsStorePath(agentDir));
	applyLlamaModels(registry, connection, stored.models, env);
	return stored.warning ? [stored.warning] : [];
}
