/**
 * Waiting on the router: a load, an unload or a download is one request that returns at once, after which the
 * model's state is polled (`GET /models`) until it settles. Progress comes from the `/models/sse` events (load
 * stages, per-file download bytes) and from the catalogue entry itself while a download runs. Aborting `signal`
 * stops the wait (the caller asks the router to stop the operation itself with `unload`).
 */
import { formatBytes } from "./format.ts";
import type { RouterClient } from "./router-client.ts";
import type { RouterEvent, RouterModel, RouterProgress } from "./types.ts";

export type ProgressListener = (progress: RouterProgress) => void;

const LOAD_POLL_MS = 250;
const UNLOAD_POLL_MS = 100;
const DOWNLOAD_POLL_MS = 500;

function cancelled(signal: AbortSignal | undefined): Error {
	const reason = signal?.reason;
	return reason instanceof Error ? reason : new Error("Cancelled");
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(cancelled(signal));
			return;
		}
		const onAbort = () => {
			clearTimeout(timer);
			reject(cancelled(signal));
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

function record(value: unknown): Record<string, unknown> | undefined {
	return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** A load event's `progress`: the current stage (of `stages`) and how far into it. */
export function loadProgress(data: unknown): RouterProgress | undefined {
	const progress = record(record(data)?.progress);
	if (!progress) return undefined;
	const stage =
		typeof progress.current === "string" ? progress.current : typeof progress.stage === "string" ? progress.stage : "";
	const stages = Array.isArray(progress.stages) ? progress.stages.filter((s) => typeof s === "string") : [];
	const within = typeof progress.value === "number" ? Math.min(1, Math.max(0, progress.value)) : undefined;
	const index = stage ? stages.indexOf(stage) : -1;
	const ratio = index >= 0 ? (index + (within ?? 0)) / stages.length : within;
	return {
		message: stage ? `Loading ${stage.replaceAll("_", " ")}` : "Loading model",
		...(ratio !== undefined ? { ratio } : {}),
	};
}

/** Download progress: `{ <file>: {done, total} }` (bare or under `progress`), summed over the files. */
export function downloadProgress(data: unknown): RouterProgress | undefined {
	const outer = record(data);
	const files = record(outer?.progress) ?? outer;
	if (!files) return undefined;
	let done = 0;
	let total = 0;
	for (const value of Object.values(files)) {
		const entry = record(value);
		if (typeof entry?.done !== "number" || typeof entry.total !== "number") continue;
		done += entry.done;
		total += entry.total;
	}
	if (total <= 0) return undefined;
	return { message: "Downloading model", ratio: done / total, detail: `${formatBytes(done)} / ${formatBytes(total)}` };
}

/** Runs `watch` beside `body`, stopping it when `body` settles (or `signal` aborts). */
async function withEvents<T>(
	client: RouterClient,
	onEvent: (event: RouterEvent) => void,
	signal: AbortSignal | undefined,
	body: () => Promise<T>,
): Promise<T> {
	const watcher = new AbortController();
	const stop = () => watcher.abort();
	signal?.addEventListener("abort", stop, { once: true });
	if (signal?.aborted) stop();
	client.watch(onEvent, watcher.signal).catch(() => {
		// Events only speed things up; polling decides.
	});
	try {
		return await body();
	} finally {
		signal?.removeEventListener("abort", stop);
		watcher.abort();
	}
}

/** Loads `model` and resolves with its entry once the router reports it loaded. */
export function loadAndWait(
	client: RouterClient,
	model: string,
	onProgress: ProgressListener,
	signal?: AbortSignal,
): Promise<RouterModel> {
	let loadedByEvent = false;
	let failure: string | undefined;
	const onEvent = (event: RouterEvent) => {
		if (event.model !== model || (event.event !== "model_status" && event.event !== "status_change")) return;
		const status = record(event.data)?.status;
		if (status === "loaded") loadedByEvent = true;
		if (status === "unloaded") failure = "Model failed to load";
		const progress = loadProgress(event.data);
		if (progress) onProgress(progress);
	};
	return withEvents(client, onEvent, signal, async () => {
		await client.load(model, signal);
		onProgress({ message: "Loading model" });
		for (;;) {
			if (signal?.aborted) throw cancelled(signal);
			const entry = (await client.list(signal ? { signal } : {})).find((m) => m.id === model);
			if (entry?.status.value === "loaded") return entry;
			if (loadedByEvent && !entry) return { id: model, status: { value: "loaded" } };
			if (entry?.status.failed || failure) {
				const code = entry?.status.exit_code;
				throw new Error(code === undefined ? (failure ?? "Model failed to load") : `Model exited with code ${code}`);
			}
			await sleep(LOAD_POLL_MS, signal);
		}
	});
}

/** Unloads `model` and resolves once the router no longer reports it loaded (or no longer lists it). */
export async function unloadAndWait(client: RouterClient, model: string, signal?: AbortSignal): Promise<void> {
	await client.unload(model, signal);
	for (;;) {
		const entry = (await client.list(signal ? { signal } : {})).find((m) => m.id === model);
		if (!entry || entry.status.value === "unloaded") return;
		await sleep(UNLOAD_POLL_MS, signal);
	}
}

/**
 * Downloads `owner/repo[:quant]` through the router and resolves with the rescanned catalogue once it is done.
 * A download the router reports as failed rejects with the router's message.
 */
export function downloadAndWait(
	client: RouterClient,
	model: string,
	onProgress: ProgressListener,
	signal?: AbortSignal,
): Promise<RouterModel[]> {
	let finished = false;
	let failure: string | undefined;
	let seenDownloading = false;
	const onEvent = (event: RouterEvent) => {
		if (event.model !== model) return;
		if (event.event === "download_finished") finished = true;
		if (event.event === "download_failed") {
			const error = record(record(event.data)?.error);
			failure = typeof error?.message === "string" && error.message ? error.message : "Download failed";
		}
		if (event.event === "download_progress") {
			seenDownloading = true;
			const progress = downloadProgress(event.data);
			if (progress) onProgress(progress);
		}
	};
	return withEvents(client, onEvent, signal, async () => {
		await client.download(model, signal);
		onProgress({ message: "Downloading model" });
		for (let polls = 1; ; polls++) {
			if (signal?.aborted) throw cancelled(signal);
			if (failure) throw new Error(failure);
			const entry = (await client.list(signal ? { signal } : {})).find((m) => m.id === model);
			if (entry?.status.value === "downloading") {
				seenDownloading = true;
				const progress = downloadProgress(entry.status.progress);
				if (progress) onProgress(progress);
			} else if (finished || (entry && (seenDownloading || polls >= 2))) {
				return client.list({ reload: true, ...(signal ? { signal } : {}) });
			}
			await sleep(DOWNLOAD_POLL_MS, signal);
		}
	});
}
