/**
 * The llama.cpp router's HTTP API (a `llama-server` started without a model): `GET /models` (every model it knows
 * with its state), `GET /props`, `POST /models/load` / `POST /models/unload` `{model}`, `POST /models` `{model}` (the
 * router downloads a Hugging Face model, resuming a partial download), and the `GET /models/sse` event stream.
 * Every request carries `Authorization: Bearer <key>` when a key is set and gives up after 15 s; an error answer
 * becomes an Error with the server's own message.
 */
import { bodyErrorMessage, normalizeServerUrl } from "./format.ts";
import type { RouterEvent, RouterModel, RouterProps } from "./types.ts";

const REQUEST_TIMEOUT_MS = 15_000;

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

function isRouterModel(value: unknown): value is RouterModel {
	if (typeof value !== "object" || value === null) return false;
	const entry = value as { id?: unknown; status?: { value?: unknown } };
	return typeof entry.id === "string" && typeof entry.status?.value === "string";
}

/** An error from a request that never reached the router (refused, reset, timed out). */
export function isConnectionError(error: unknown): boolean {
	if (!(error instanceof Error)) return false;
	const text = `${error.name} ${error.message} ${(error as { code?: unknown }).code ?? ""}`.toLowerCase();
	return ["fetch failed", "timeout", "network", "unable to connect", "econnrefused", "econnreset", "socket"].some(
		(part) => text.includes(part),
	);
}

export class RouterClient {
	readonly serverUrl: string;

	constructor(
		serverUrl: string,
		private readonly apiKey?: string,
		private readonly fetchImpl: FetchLike = (input, init) => fetch(input, init),
	) {
		this.serverUrl = normalizeServerUrl(serverUrl);
	}

	private headers(json: boolean): Headers {
		const headers = new Headers();
		if (json) headers.set("Content-Type", "application/json");
		if (this.apiKey) headers.set("Authorization", `Bearer ${this.apiKey}`);
		return headers;
	}

	private async request(path: string, options: { body?: unknown; signal?: AbortSignal } = {}): Promise<unknown> {
		const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
		const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
		const response = await this.fetchImpl(`${this.serverUrl}${path}`, {
			method: options.body === undefined ? "GET" : "POST",
			headers: this.headers(options.body !== undefined),
			...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
			signal,
		});
		let payload: unknown;
		try {
			payload = await response.json();
		} catch {
			payload = undefined;
		}
		if (!response.ok) throw new Error(bodyErrorMessage(payload, `llama.cpp returned HTTP ${response.status}`));
		return payload;
	}

	/** Every model the router knows, with its state; `reload` makes the router rescan its models folder. */
	async list(options: { reload?: boolean; signal?: AbortSignal } = {}): Promise<RouterModel[]> {
		const payload = await this.request(`/models${options.reload ? "?reload=1" : ""}`, {
			...(options.signal ? { signal: options.signal } : {}),
		});
		const data = (payload as { data?: unknown } | undefined)?.data;
		if (!Array.isArray(data)) throw new Error("llama.cpp returned an invalid model catalog");
		if (!data.every(isRouterModel)) throw new Error("Server is not running in llama.cpp router mode");
		return data;
	}

	/** Router properties, or one model's (`autoload=false`: asking never starts it). */
	async props(options: { model?: string; signal?: AbortSignal } = {}): Promise<RouterProps> {
		const query = options.model ? `?${new URLSearchParams({ model: options.model, autoload: "false" })}` : "";
		const payload = await this.request(`/props${query}`, { ...(options.signal ? { signal: options.signal } : {}) });
		if (typeof payload !== "object" || payload === null) return {};
		const { models_autoload, chat_template } = payload as Record<string, unknown>;
		return {
			...(typeof models_autoload === "boolean" ? { models_autoload } : {}),
			...(typeof chat_template === "string" ? { chat_template } : {}),
		};
	}

	async load(model: string, signal?: AbortSignal): Promise<void> {
		await this.request("/models/load", { body: { model }, ...(signal ? { signal } : {}) });
	}

	/** Unloads a model, or stops its load or download. */
	async unload(model: string, signal?: AbortSignal): Promise<void> {
		await this.request("/models/unload", { body: { model }, ...(signal ? { signal } : {}) });
	}

	/** Asks the router to download `owner/repo[:quant]` from Hugging Face (it resumes a partial download). */
	async download(model: string, signal?: AbortSignal): Promise<void> {
		await this.request("/models", { body: { model }, ...(signal ? { signal } : {}) });
	}

	/**
	 * Reads `/models/sse` until `signal` aborts or the server ends it, handing each well-formed event to `onEvent`
	 * (malformed ones are skipped: polling the catalogue stays the source of truth).
	 */
	async watch(onEvent: (event: RouterEvent) => void, signal: AbortSignal): Promise<void> {
		const response = await this.fetchImpl(`${this.serverUrl}/models/sse`, { headers: this.headers(false), signal });
		if (!response.ok || !response.body) throw new Error(`llama.cpp SSE returned HTTP ${response.status}`);
		const reader = response.body.getReader();
		const decoder = new TextDecoder();
		let buffer = "";
		for (;;) {
			const chunk = await reader.read();
			if (chunk.done) return;
			buffer += decoder.decode(chunk.value, { stream: true }).replaceAll("\r\n", "\n");
			for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
				const frame = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				const data = frame
					.split("\n")
					.filter((line) => line.startsWith("data:"))
					.map((line) => line.slice(5).trimStart())
					.join("\n");
				if (!data) continue;
				try {
					const event = JSON.parse(data) as Partial<RouterEvent>;
					if (typeof event?.model === "string" && typeof event.event === "string") onEvent(event as RouterEvent);
				} catch {
					// not JSON: skipped
				}
			}
		}
	}
}
