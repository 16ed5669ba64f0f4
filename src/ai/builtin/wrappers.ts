/**
 * Per-provider adjustments between a collection provider and the wire API (pi-ai 0.87.1's behaviour): Cloudflare
 * models carry `{CLOUDFLARE_ACCOUNT_ID}` / `{CLOUDFLARE_GATEWAY_ID}` in their base URL, filled from the env the
 * auth resolved; OpenCode routes a conversation by an `x-opencode-session` header holding the session id.
 */
import type { ProviderStreams } from "../collection/types.ts";
import type { Model, StreamOptions } from "../types.ts";

const PLACEHOLDERS = ["CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_GATEWAY_ID"] as const;

/** `model` with its Cloudflare placeholders replaced by the values `env` has (the rest stay as they are). */
export function fillCloudflareBaseUrl(model: Model, env: Record<string, string | undefined> | undefined): Model {
	if (!env || !model.baseUrl.includes("{")) return model;
	let baseUrl = model.baseUrl;
	for (const name of PLACEHOLDERS) {
		const value = env[name];
		if (value) baseUrl = baseUrl.replaceAll(`{${name}}`, value);
	}
	return baseUrl === model.baseUrl ? model : { ...model, baseUrl };
}

export function cloudflareStreams(streams: ProviderStreams): ProviderStreams {
	const env = (options?: StreamOptions) => options?.env as Record<string, string | undefined> | undefined;
	return {
		stream: (model, context, options) => streams.stream(fillCloudflareBaseUrl(model, env(options)), context, options),
		streamSimple: (model, context, options) =>
			streams.streamSimple(fillCloudflareBaseUrl(model, env(options)), context, options),
	};
}

export const OPENCODE_SESSION_HEADER = "x-opencode-session";

/** `options` with the OpenCode session header added, unless there is no session id or the caller set one. */
export function withOpenCodeSession<T extends StreamOptions>(options: T | undefined): T | undefined {
	if (!options?.sessionId) return options;
	const headers = options.headers ?? {};
	if (Object.keys(headers).some((name) => name.toLowerCase() === OPENCODE_SESSION_HEADER)) return options;
	return { ...options, headers: { ...headers, [OPENCODE_SESSION_HEADER]: options.sessionId } };
}

export function openCodeStreams(streams: ProviderStreams): ProviderStreams {
	return {
		...streams,
		stream: (model, context, options) => streams.stream(model, context, withOpenCodeSession(options)),
		streamSimple: (model, context, options) => streams.streamSimple(model, context, withOpenCodeSession(options)),
	};
}

/**
 * A request of the CLI's session (model registry path) adjusted as the built-in collection adjusts it: Cloudflare
 * placeholders filled from the login's env over the process environment, the AI Gateway key also sent as
 * `cf-aig-authorization`, OpenCode's session header. Applying it twice changes nothing.
 */
export function adjustBuiltinRequest<T extends StreamOptions>(
	model: Model,
	options: T | undefined,
	processEnv: Record<string, string | undefined> = process.env,
): { model: Model; options: T | undefined } {
	if (model.provider === "opencode" || model.provider === "opencode-go") {
		return { model, options: withOpenCodeSession(options) };
	}
	if (model.provider !== "cloudflare-ai-gateway" && model.provider !== "cloudflare-workers-ai") {
		return { model, options };
	}
	const env = { ...processEnv, ...(options?.env as Record<string, string | undefined> | undefined) };
	const filled = fillCloudflareBaseUrl(model, env);
	const key = options?.apiKey;
	if (model.provider !== "cloudflare-ai-gateway" || !key) return { model: filled, options };
	const headers = { ...options?.headers, "cf-aig-authorization": `Bearer ${key}` };
	return { model: filled, options: { ...options, headers } as T };
}
