/**
 * The one HTTP helper providers use: POST JSON with the caller's abort signal and an optional timeout, the
 * `onPayload`/`onResponse` hooks applied, and HTTP errors turned into one-line messages.
 */
import { describeHttpError } from "./errors.ts";
import { fetchWithIdleTimeout } from "./idle-fetch.ts";
import type { Model, StreamOptions } from "./types.ts";

export class ProviderError extends Error {
	override readonly name = "ProviderError";
}

export interface PostOptions {
	providerName: string;
	url: string;
	headers: Record<string, string>;
	body: unknown;
	model: Model;
	options: StreamOptions | undefined;
	/** The one-line message for a non-OK response (default: `describeHttpError`). */
	describeError?: (response: Response) => Promise<string>;
}

/**
 * Starts connecting to a model's server ahead of the first request (Bun's `fetch.preconnect`: DNS, TCP and TLS),
 * so the set-up that still runs before the request overlaps with it. Only for http(s) base URLs; a no-op
 * elsewhere (Node, custom schemes).
 */
export function preconnect(
	model: Pick<Model, "baseUrl">,
	start: ((url: string) => void) | undefined = (fetch as { preconnect?: (url: string) => void }).preconnect,
): void {
	if (typeof start !== "function" || !/^https?:\/\//i.test(model.baseUrl ?? "")) return;
	try {
		start(model.baseUrl);
	} catch {
		// Only a head start: a URL it cannot use is simply connected to when the request is made.
	}
}

/** Sends the request; resolves with an OK response whose body is the stream, or throws a `ProviderError`. */
export async function postJson(request: PostOptions): Promise<Response> {
	const { options, model } = request;
	let payload = request.body;
	if (options?.onPayload) {
		const replaced = await options.onPayload(payload, model);
		if (replaced !== undefined) payload = replaced;
	}
	const signals: AbortSignal[] = [];
	if (options?.signal) signals.push(options.signal);
	if (options?.timeoutMs && options.timeoutMs > 0) signals.push(AbortSignal.timeout(options.timeoutMs));
	const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
	let headers: Record<string, string> = { "content-type": "application/json", ...request.headers };
	if (options?.onHeaders) headers = await editHeaders(headers, model, options.onHeaders);
	const response = await fetchWithIdleTimeout(request.url, {
		method: "POST",
		headers,
		body: JSON.stringify(payload),
		...(signal ? { signal } : {}),
	});
	if (options?.onResponse) {
		const headers: Record<string, string> = {};
		response.headers.forEach((value, key) => {
			headers[key] = value;
		});
		await options.onResponse({ status: response.status, headers }, model);
	}
	if (!response.ok) {
		const describe = request.describeError ?? ((r: Response) => describeHttpError(request.providerName, r));
		throw new ProviderError(await describe(response));
	}
	if (!response.body) throw new ProviderError(`${request.providerName} API error: empty response body`);
	return response;
}

/** Joins a base URL and a path without doubling or dropping the slash. */
export function joinUrl(base: string, path: string): string {
	return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** Runs the `onHeaders` hook on a mutable copy; a header set to `null` is removed. */
async function editHeaders(
	headers: Record<string, string>,
	model: Model,
	hook: NonNullable<StreamOptions["onHeaders"]>,
): Promise<Record<string, string>> {
	const editable: Record<string, string | null> = { ...headers };
	await hook(editable, model);
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(editable)) if (typeof value === "string") out[key] = value;
	return out;
}
