/**
 * Hugging Face, for "Download model…" in `/llama`: the model search (`/api/models?search=…&filter=gguf`, most
 * downloaded first, 20 hits) and one repository's details (`/api/models/<owner>/<repo>?blobs=true`: gated or not,
 * and its GGUF files grouped by quantization with their total size). The hub is `https://huggingface.co`, or
 * `HF_ENDPOINT` when set (a mirror; tests point it at a loopback stand-in). The token is optional: `HF_TOKEN`, then
 * the token files `$HF_TOKEN_PATH`, `$HF_HOME/token`, `$XDG_CACHE_HOME/huggingface/token`,
 * `~/.cache/huggingface/token`. It is sent only to the hub, never shown.
 */
import { join } from "node:path";
import { fsPromises, homeDir } from "../../util/index.ts";
import { bodyErrorMessage } from "./format.ts";
import type { FetchLike } from "./router-client.ts";
import type { HubDetails, HubModel } from "./types.ts";

export const DEFAULT_HUB_URL = "https://huggingface.co";
const REQUEST_TIMEOUT_MS = 15_000;
/** The quantization at the end of a GGUF file's stem: Q4_K_M, IQ3_XXS, UD-Q4_K_XL, BF16, F16, F32, MXFP4 … */
const QUANT_RE = /(?:^|[-_.])((?:UD-)?(?:IQ\d(?:_[A-Z0-9]+)+|Q\d(?:_[A-Z0-9]+)+|BF16|F16|F32|MXFP\d(?:_[A-Z0-9]+)*))$/i;
const SHARD_RE = /-\d{5}-of-\d{5}$/;
const RECOMMENDED = "Q4_K_M";

type Env = Record<string, string | undefined>;

/** The hub to ask: `HF_ENDPOINT`, else huggingface.co. */
export function hubUrl(env: Env = process.env): string {
	const configured = env.HF_ENDPOINT?.trim();
	return (configured || DEFAULT_HUB_URL).replace(/\/+$/, "");
}

async function readToken(path: string): Promise<string | undefined> {
	try {
		const token = (await fsPromises().readFile(path, "utf8")).trim();
		return token || undefined;
	} catch {
		return undefined;
	}
}

/** The user's Hugging Face token, if any (see the header for the order). */
export async function findHubToken(env: Env = process.env): Promise<string | undefined> {
	const direct = env.HF_TOKEN?.trim();
	if (direct) return direct;
	const candidates = [
		env.HF_TOKEN_PATH,
		env.HF_HOME ? join(env.HF_HOME, "token") : undefined,
		env.XDG_CACHE_HOME ? join(env.XDG_CACHE_HOME, "huggingface", "token") : undefined,
		join(homeDir(env as NodeJS.ProcessEnv), ".cache", "huggingface", "token"),
	];
	for (const path of new Set(candidates.filter((p): p is string => Boolean(p)))) {
		const token = await readToken(path);
		if (token) return token;
	}
	return undefined;
}

/** `owner/repo[:quant]` split at the quantization's colon. */
export function parseHubReference(value: string): { repository: string; quantization?: string } {
	const colon = value.indexOf(":", value.indexOf("/") + 1);
	return colon < 0
		? { repository: value }
		: { repository: value.slice(0, colon), quantization: value.slice(colon + 1) };
}

/** Seconds to wait from a 429 answer (`Retry-After`, else the `t=` of a `RateLimit` header). */
function retryDelay(response: Response): number | undefined {
	const after = Number(response.headers.get("retry-after"));
	if (after) return after;
	const match = response.headers.get("ratelimit")?.match(/(?:^|;)t=(\d+)/);
	return match ? Number(match[1]) : undefined;
}

export class HubClient {
	readonly baseUrl: string;

	constructor(
		private readonly token?: string,
		baseUrl: string = DEFAULT_HUB_URL,
		private readonly fetchImpl: FetchLike = (input, init) => fetch(input, init),
	) {
		this.baseUrl = baseUrl.replace(/\/+$/, "");
	}

	private async request(path: string, signal?: AbortSignal): Promise<unknown> {
		const headers = new Headers();
		if (this.token) headers.set("Authorization", `Bearer ${this.token}`);
		const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
		const response = await this.fetchImpl(`${this.baseUrl}${path}`, {
			headers,
			signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
		});
		let payload: unknown;
		try {
			payload = await response.json();
		} catch {
			payload = undefined;
		}
		if (response.ok) return payload;
		if (response.status === 429) {
			const delay = retryDelay(response);
			throw new Error(
				delay ? `Hugging Face rate limit reached; retry in ${delay}s` : "Hugging Face rate limit reached",
			);
		}
		throw new Error(bodyErrorMessage(payload, `Hugging Face returned HTTP ${response.status}`));
	}

	/** GGUF repositories matching `query`, most downloaded first. */
	async search(query: string, signal?: AbortSignal): Promise<HubModel[]> {
		const params = new URLSearchParams({
			search: query,
			filter: "gguf",
			sort: "downloads",
			direction: "-1",
			limit: "20",
		});
		const payload = await this.request(`/api/models?${params}`, signal);
		if (!Array.isArray(payload)) throw new Error("Hugging Face returned invalid search results");
		return payload.flatMap((value): HubModel[] => {
			const hit = value as { id?: unknown; downloads?: unknown } | null;
			if (typeof hit?.id !== "string") return [];
			return [{ id: hit.id, downloads: typeof hit.downloads === "number" ? hit.downloads : 0 }];
		});
	}

	/** A repository's access rule and quantizations (Q4_K_M first, then by size, then by name). */
	async details(id: string, signal?: AbortSignal): Promise<HubDetails> {
		const path = id.split("/").map(encodeURIComponent).join("/");
		const payload = await this.request(`/api/models/${path}?blobs=true`, signal);
		if (typeof payload !== "object" || payload === null) throw new Error("Hugging Face returned invalid model details");
		const model = payload as { id?: unknown; gated?: unknown; siblings?: unknown };
		const sizes = new Map<string, { total: number; complete: boolean }>();
		for (const sibling of Array.isArray(model.siblings) ? model.siblings : []) {
			const file = sibling as { rfilename?: unknown; size?: unknown } | null;
			if (typeof file?.rfilename !== "string" || !file.rfilename.toLowerCase().endsWith(".gguf")) continue;
			const name = file.rfilename.split("/").at(-1) as string;
			if (name.toLowerCase().startsWith("mmproj")) continue;
			const quant = name.slice(0, -5).replace(SHARD_RE, "").match(QUANT_RE)?.[1]?.toUpperCase();
			if (!quant) continue;
			const entry = sizes.get(quant) ?? { total: 0, complete: true };
			if (typeof file.size === "number") entry.total += file.size;
			else entry.complete = false;
			sizes.set(quant, entry);
		}
		const quantizations = [...sizes]
			.map(([name, size]) => (size.complete ? { name, size: size.total } : { name }))
			.sort((a, b) => {
				if (a.name === RECOMMENDED) return -1;
				if (b.name === RECOMMENDED) return 1;
				const bySize = (a.size ?? Number.MAX_SAFE_INTEGER) - (b.size ?? Number.MAX_SAFE_INTEGER);
				return bySize || a.name.localeCompare(b.name);
			});
		return {
			id: typeof model.id === "string" ? model.id : id,
			gated: model.gated === "auto" || model.gated === "manual" ? model.gated : false,
			quantizations,
		};
	}
}
