/**
 * A loopback stand-in for a llama.cpp router (`llama-server` without a model) and the Hugging Face API, for tests:
 * `GET /health`, `GET /models` (each model with its state), `GET /props`, `POST /models/load` and
 * `POST /models/unload` (a load runs through stages with progress; an unload also stops a load or a download),
 * `POST /models` (a download in steps with per-file progress, stopped by an unload and resumed from the bytes it
 * had), `GET /models/sse` (the events), `POST /v1/chat/completions` (forwarded to the mock LLM, only for a loaded
 * model), and the hub's `GET /api/models?search=…` and `GET /api/models/<owner>/<repo>?blobs=true`. With `apiKey`
 * every router route wants `Authorization: Bearer <key>`. Records every request.
 */

export interface StandInModel {
	id: string;
	state?: "loaded" | "sleeping" | "unloaded";
	source?: string;
	/** Context size once loaded (default 32768). */
	nCtx?: number;
	chatTemplate?: string;
	/** A load of this model fails (the process exits with code 1). */
	failsToLoad?: boolean;
	images?: boolean;
}

export interface HubRepo {
	id: string;
	downloads: number;
	gated?: false | "auto" | "manual";
	/** GGUF files with sizes. */
	files: { name: string; size?: number }[];
}

export interface LlamaRouterOptions {
	models?: StandInModel[];
	apiKey?: string;
	autoload?: boolean;
	/** Where chat completions go (the mock LLM's base URL). */
	chatUpstream?: string;
	/** Milliseconds per load stage (4 stages; default 150). */
	loadStepMs?: number;
	/** Milliseconds per download step (default 100) and bytes per step (default 1 MiB); size of a download 8 MiB. */
	downloadStepMs?: number;
	downloadStepBytes?: number;
	downloadBytes?: number;
	hub?: HubRepo[];
}

export interface RecordedRouterRequest {
	method: string;
	path: string;
	authorization: string | null;
	body?: unknown;
}

interface Entry {
	id: string;
	status: { value: string; failed?: boolean; exit_code?: number; progress?: unknown; args?: string[] };
	source: string;
	meta?: { n_ctx: number };
	architecture?: { input_modalities: string[] };
}

const STAGES = ["load_tensors", "warmup", "chat_template", "ready"];

export function startLlamaRouter(options: LlamaRouterOptions = {}) {
	const requests: RecordedRouterRequest[] = [];
	const models = new Map<string, StandInModel>();
	const entries = new Map<string, Entry>();
	const listeners = new Set<(text: string) => void>();
	const timers = new Map<string, ReturnType<typeof setInterval>>();
	/** Bytes a download had when it was stopped, by model. */
	const partial = new Map<string, number>();
	/** Each download start: the model and the byte it started from. */
	const downloadStarts: { model: string; from: number }[] = [];
	const step = options.loadStepMs ?? 150;
	const dlStep = options.downloadStepMs ?? 100;
	const dlBytes = options.downloadStepBytes ?? 1024 * 1024;
	const dlTotal = options.downloadBytes ?? 8 * 1024 * 1024;

	const put = (model: StandInModel) => {
		models.set(model.id, model);
		const state = model.state ?? "unloaded";
		entries.set(model.id, {
			id: model.id,
			status: { value: state, args: ["--ctx-size", String(model.nCtx ?? 32768)] },
			source: model.source ?? "local",
			...(state !== "unloaded" ? { meta: { n_ctx: model.nCtx ?? 32768 } } : {}),
			...(model.images ? { architecture: { input_modalities: ["text", "image"] } } : {}),
		});
	};
	for (const model of options.models ?? []) put(model);

	const emit = (model: string, event: string, data?: unknown) => {
		const text = `data: ${JSON.stringify({ model, event, data })}\n\n`;
		for (const listener of listeners) listener(text);
	};
	const stopTimer = (id: string) => {
		const timer = timers.get(id);
		if (timer) clearInterval(timer);
		timers.delete(id);
	};
	const setState = (id: string, value: string, extra: Partial<Entry["status"]> = {}) => {
		const entry = entries.get(id);
		if (!entry) return;
		entry.status = { value, ...(entry.status.args ? { args: entry.status.args } : {}), ...extra };
		if (value === "loaded") entry.meta = { n_ctx: models.get(id)?.nCtx ?? 32768 };
		if (value === "unloaded") delete entry.meta;
		emit(id, "model_status", { status: value });
	};

	const load = (id: string): Response => {
		const entry = entries.get(id);
		if (!entry) return json({ error: { message: `model "${id}" not found` } }, 404);
		if (entry.status.value === "loaded") return json({ success: true });
		setState(id, "loading");
		let stage = 0;
		let within = 0;
		timers.set(
			id,
			setInterval(() => {
				within += 0.5;
				if (within >= 1) {
					within = 0;
					stage++;
				}
				if (stage >= STAGES.length) {
					stopTimer(id);
					if (models.get(id)?.failsToLoad) setState(id, "unloaded", { failed: true, exit_code: 1 });
					else setState(id, "loaded");
					return;
				}
				emit(id, "model_status", {
					status: "loading",
					progress: { current: STAGES[stage], stages: STAGES, value: within },
				});
			}, step / 2),
		);
		return json({ success: true });
	};

	const download = (id: string): Response => {
		if (entries.get(id)?.status.value === "downloading") return json({ success: true });
		const from = partial.get(id) ?? 0;
		downloadStarts.push({ model: id, from });
		let done = from;
		const file = `${id.replace(/[/:]/g, "_")}.gguf`;
		const progress = () => ({ [file]: { done, total: dlTotal } });
		entries.set(id, { id, status: { value: "downloading", progress: progress() }, source: "cache" });
		timers.set(
			id,
			setInterval(() => {
				done = Math.min(dlTotal, done + dlBytes);
				partial.set(id, done);
				const entry = entries.get(id);
				if (entry) entry.status.progress = progress();
				emit(id, "download_progress", { progress: progress() });
				if (done >= dlTotal) {
					stopTimer(id);
					partial.delete(id);
					entries.set(id, { id, status: { value: "unloaded" }, source: "cache" });
					models.set(id, { id });
					emit(id, "download_finished");
				}
			}, dlStep),
		);
		return json({ success: true });
	};

	const unload = (id: string): Response => {
		const entry = entries.get(id);
		if (!entry) return json({ error: { message: `model "${id}" not found` } }, 404);
		stopTimer(id);
		if (entry.status.value === "downloading") entries.delete(id);
		else setState(id, "unloaded");
		return json({ success: true });
	};

	const sse = (req: Request): Response => {
		let listener: ((text: string) => void) | undefined;
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				const encoder = new TextEncoder();
				listener = (text) => {
					try {
						controller.enqueue(encoder.encode(text));
					} catch {
						if (listener) listeners.delete(listener);
					}
				};
				listeners.add(listener);
				req.signal.addEventListener("abort", () => {
					if (listener) listeners.delete(listener);
					try {
						controller.close();
					} catch {}
				});
			},
			cancel() {
				if (listener) listeners.delete(listener);
			},
		});
		return new Response(stream, { headers: { "content-type": "text/event-stream" } });
	};

	const hub = (url: URL): Response => {
		const repos = options.hub ?? [];
		if (url.pathname === "/api/models") {
			const query = (url.searchParams.get("search") ?? "").toLowerCase();
			return json(
				repos.filter((r) => r.id.toLowerCase().includes(query)).map((r) => ({ id: r.id, downloads: r.downloads })),
			);
		}
		const id = decodeURIComponent(url.pathname.slice("/api/models/".length));
		const repo = repos.find((r) => r.id === id);
		if (!repo) return json({ error: "Repository not found" }, 404);
		return json({
			id: repo.id,
			gated: repo.gated ?? false,
			siblings: repo.files.map((f) => ({ rfilename: f.name, ...(f.size !== undefined ? { size: f.size } : {}) })),
		});
	};

	const chat = async (body: { model?: string }, raw: string): Promise<Response> => {
		const entry = entries.get(body.model ?? "");
		if (!entry || (entry.status.value !== "loaded" && entry.status.value !== "sleeping")) {
			return json({ error: { message: `model "${body.model}" is not loaded`, type: "invalid_request_error" } }, 400);
		}
		if (!options.chatUpstream) return json({ error: { message: "no upstream" } }, 500);
		const upstream = await fetch(`${options.chatUpstream}/v1/chat/completions`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: raw,
		});
		return new Response(upstream.body, { status: upstream.status, headers: upstream.headers });
	};

	let server = serve(0);
	const port = server.port as number;
	function serve(port: number) {
		return Bun.serve({
			hostname: "127.0.0.1",
			port,
			idleTimeout: 0,
			async fetch(req) {
				const url = new URL(req.url);
				const raw = req.method === "POST" ? await req.text() : "";
				let body: unknown;
				try {
					body = raw ? JSON.parse(raw) : undefined;
				} catch {
					body = raw;
				}
				requests.push({
					method: req.method,
					path: url.pathname + url.search,
					authorization: req.headers.get("authorization"),
					...(body !== undefined ? { body } : {}),
				});
				if (url.pathname.startsWith("/api/")) return hub(url);
				if (options.apiKey && req.headers.get("authorization") !== `Bearer ${options.apiKey}`) {
					return json({ error: { message: "Invalid API Key", type: "authentication_error" } }, 401);
				}
				const model = (body as { model?: string } | undefined)?.model ?? "";
				const route = `${req.method} ${url.pathname}`;
				if (route === "GET /health") return json({ status: "ok" });
				if (route === "GET /models") return json({ data: [...entries.values()] });
				if (route === "GET /props") {
					const id = url.searchParams.get("model");
					if (id) return json({ chat_template: models.get(id)?.chatTemplate ?? "{{ messages }}" });
					return json({ models_autoload: options.autoload ?? false, role: "router" });
				}
				if (route === "POST /models/load") return load(model);
				if (route === "POST /models/unload") return unload(model);
				if (route === "POST /models") return download(model);
				if (route === "GET /models/sse") return sse(req);
				if (route === "POST /v1/chat/completions") return chat(body as { model?: string }, raw);
				return json({ error: { message: `no route ${route}` } }, 404);
			},
		});
	}

	return {
		get url() {
			return `http://127.0.0.1:${port}`;
		},
		requests,
		downloadStarts,
		entries,
		/** Adds or replaces a model (another client of the router did something). */
		put,
		/** Where chat completions go from now on. */
		setChatUpstream(url: string) {
			options.chatUpstream = url;
		},
		/** Stops answering (connections refused) until `reconnect()`. */
		disconnect() {
			server.stop(true);
		},
		reconnect() {
			server = serve(port);
		},
		stop() {
			for (const id of [...timers.keys()]) stopTimer(id);
			server.stop(true);
		},
	};
}

export type LlamaRouterStandIn = ReturnType<typeof startLlamaRouter>;

function json(value: unknown, status = 200): Response {
	return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}
