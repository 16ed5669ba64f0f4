/**
 * `/login llama.cpp`: the router URL (empty: `LLAMA_BASE_URL`, else http://127.0.0.1:8080) and an optional key are
 * checked by listing the router's models, then stored in auth.json as pi stores them:
 * `{"type":"api_key","key"?:…,"env":{"LLAMA_BASE_URL":<url>}}`. Nothing is written when the check fails.
 */
import type { AuthStorage } from "../auth/credential-store.ts";
import { normalizeServerUrl } from "./format.ts";
import { DEFAULT_LLAMA_SERVER_URL, LLAMA_PROVIDER_ID } from "./models.ts";
import { type FetchLike, RouterClient } from "./router-client.ts";
import type { RouterModel } from "./types.ts";

export interface LlamaLoginInput {
	url: string;
	key: string;
}

/** The URL `/login llama.cpp` suggests (and uses when none is typed). */
export function suggestedServerUrl(env: Record<string, string | undefined> = process.env): string {
	return env.LLAMA_BASE_URL?.trim() || DEFAULT_LLAMA_SERVER_URL;
}

export async function loginLlama(
	authStorage: AuthStorage,
	input: LlamaLoginInput,
	options: { env?: Record<string, string | undefined>; signal?: AbortSignal; fetch?: FetchLike } = {},
): Promise<{ serverUrl: string; catalog: RouterModel[] }> {
	const serverUrl = normalizeServerUrl(input.url.trim() || suggestedServerUrl(options.env));
	const key = input.key.trim();
	const client = new RouterClient(serverUrl, key || undefined, options.fetch);
	const catalog = await client.list(options.signal ? { signal: options.signal } : {});
	await authStorage.set(LLAMA_PROVIDER_ID, {
		type: "api_key",
		...(key ? { key } : {}),
		env: { LLAMA_BASE_URL: serverUrl },
	});
	return { serverUrl, catalog };
}
