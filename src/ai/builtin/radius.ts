/**
 * The Radius gateway as a collection provider (pi-ai 0.87.1's `radiusProvider`): pi-messages models, the
 * catalogue's baseline list for the default gateway, and a catalogue refreshed from the gateway's `/v1/config`
 * (kept in the models store between runs). Signs in with an API key (`RADIUS_API_KEY`) or the gateway's OAuth.
 */
import { DEFAULT_RADIUS_GATEWAY, normalizeRadiusGatewayUrl } from "../auth/oauth/radius-gateway.ts";
import { envApiKeyAuth, lazyOAuth } from "../auth/provider-auth.ts";
import type { StoredCredential } from "../auth/provider-auth-types.ts";
import type { ModelsProvider, RefreshModelsContext } from "../collection/types.ts";
import { getModels } from "../models/index.ts";
import { getApiProvider } from "../registry.ts";
import { failedStream } from "../stream.ts";
import type { Model } from "../types.ts";

export interface RadiusProviderOptions {
	id?: string;
	name?: string;
	gateway?: string;
}

interface GatewayConfig {
	baseUrl: string;
	models: Array<Record<string, unknown>>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** The config with only well-formed model entries, or undefined when its shape is wrong. */
function readConfig(value: unknown): GatewayConfig | undefined {
	if (!isRecord(value) || typeof value.baseUrl !== "string" || !Array.isArray(value.models)) return undefined;
	const models = value.models.filter(
		(m): m is Record<string, unknown> =>
			isRecord(m) &&
			typeof m.id === "string" &&
			typeof m.name === "string" &&
			typeof m.reasoning === "boolean" &&
			Array.isArray(m.input) &&
			isRecord(m.cost) &&
			typeof m.contextWindow === "number" &&
			typeof m.maxTokens === "number",
	);
	return { baseUrl: value.baseUrl, models: models.map((m) => ({ ...m })) };
}

function modelsOf(providerId: string, config: GatewayConfig): Model[] {
	return config.models.map(
		(m) => ({ ...m, api: "pi-messages", provider: providerId, baseUrl: config.baseUrl }) as unknown as Model,
	);
}

/** Models from a login that carried the gateway config (logins written before the models store existed). */
function credentialModels(providerId: string, credential: StoredCredential | undefined): Model[] {
	const config = readConfig((credential as { gatewayConfig?: unknown } | undefined)?.gatewayConfig);
	return config ? modelsOf(providerId, config) : [];
}

async function fetchConfig(gateway: string, token: string | undefined, signal: AbortSignal): Promise<GatewayConfig> {
	const headers: Record<string, string> = { accept: "application/json" };
	if (token) headers.authorization = `Bearer ${token}`;
	const response = await fetch(new URL("/v1/config", gateway), { headers, signal });
	if (!response.ok) {
		const body = (await response.text()).trim();
		const shown = body.length > 512 ? `${body.slice(0, 512)}…` : body;
		throw new Error(`Radius gateway ${gateway} refused /v1/config (HTTP ${response.status}): ${shown}`);
	}
	const config = readConfig(await response.json());
	if (!config) throw new Error(`Radius gateway ${gateway} answered /v1/config with an unexpected shape`);
	return config;
}

export function radiusProvider(options: RadiusProviderOptions = {}): ModelsProvider {
	const id = options.id ?? "radius";
	const name = options.name ?? "Radius";
	const gateway = normalizeRadiusGatewayUrl(options.gateway ?? DEFAULT_RADIUS_GATEWAY);
	const baseline =
		gateway === DEFAULT_RADIUS_GATEWAY ? getModels("radius").map((model) => ({ ...model, provider: id })) : [];
	let dynamic: Model[] = [];
	const publishModels = (context: RefreshModelsContext, models: Model[], persist: boolean) =>
		context.publish({
			...(persist ? { persist: { models, checkedAt: Date.now() } } : {}),
			update: () => {
				dynamic = models;
			},
		});
	const streams = () => getApiProvider("pi-messages");
	return {
		id,
		name,
		auth: {
			apiKey: envApiKeyAuth("Radius API key", ["RADIUS_API_KEY"]),
			oauth: lazyOAuth({
				name,
				load: async () => (await import("../auth/oauth/radius.ts")).createRadiusOAuth({ name, gateway }),
			}),
		},
		getModels: () => {
			const merged = [...baseline];
			for (const model of dynamic) {
				const at = merged.findIndex((entry) => entry.id === model.id);
				if (at >= 0) merged[at] = model;
				else merged.push(model);
			}
			return merged;
		},
		async refreshModels(context) {
			if (context.stored) {
				const restored = context.stored.models.filter((model) => model.provider === id);
				if (!(await publishModels(context, restored, false))) return;
			} else if (context.credential?.type === "oauth") {
				const legacy = credentialModels(id, context.credential);
				if (legacy.length > 0 && !(await publishModels(context, legacy, true))) return;
			}
			if (!context.allowNetwork || context.signal.aborted) return;
			const credential = context.credential as { type: string; access?: string; key?: string } | undefined;
			const token = credential?.type === "oauth" ? credential.access : credential?.key;
			const config = await fetchConfig(gateway, token, context.signal);
			if (context.signal.aborted) return;
			await publishModels(context, modelsOf(id, config), true);
		},
		stream: (model, context, streamOptions) =>
			streams()?.stream(model, context, streamOptions) ?? failedStream(model, 'No API provider for "pi-messages"'),
		streamSimple: (model, context, streamOptions) =>
			streams()?.streamSimple(model, context, streamOptions) ??
			failedStream(model, 'No API provider for "pi-messages"'),
	};
}
