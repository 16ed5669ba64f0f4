/** Text helpers shared by the llama.cpp client and the `/llama` dialog. */

/** Bytes as pi shows them: "512 B", "1.50 KiB", "12.3 MiB". */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	const units = ["KiB", "MiB", "GiB", "TiB"];
	let value = bytes / 1024;
	let unit = 0;
	while (unit < units.length - 1 && value >= 1024) {
		value /= 1024;
		unit++;
	}
	return `${value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${units[unit]}`;
}

/**
 * A router URL as stored: http(s) only, no query or fragment, no trailing slash, and a trailing `/v1` dropped (the
 * inference endpoint is derived from it). Throws a one-line error for anything else.
 */
export function normalizeServerUrl(value: string): string {
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		throw new Error(`Invalid llama.cpp server URL "${value.trim()}"`);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("Server URL must use http or https");
	url.search = "";
	url.hash = "";
	url.pathname = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "") || "/";
	return url.toString().replace(/\/$/, "");
}

/** The OpenAI-compatible endpoint of a router. */
export function inferenceUrl(serverUrl: string): string {
	return `${normalizeServerUrl(serverUrl)}/v1`;
}

/** The `error.message` of a JSON error body, else `fallback`. */
export function bodyErrorMessage(payload: unknown, fallback: string): string {
	if (typeof payload !== "object" || payload === null) return fallback;
	const error = (payload as { error?: unknown }).error;
	if (typeof error === "string" && error) return error;
	if (typeof error !== "object" || error === null) return fallback;
	const message = (error as { message?: unknown }).message;
	return typeof message === "string" && message ? message : fallback;
}
