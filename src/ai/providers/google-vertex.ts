/**
 * `google-vertex`: Gemini on Vertex AI. The request body and the `streamGenerateContent?alt=sse` stream are the
 * Gemini API's (google-request.ts, google.ts); what differs is where it goes and how it is authorised:
 * - an API key (Vertex express mode) is sent as `x-goog-api-key` to `aiplatform.googleapis.com/v1/publishers/…`;
 * - otherwise Application Default Credentials (src/ai/gcp) give a bearer token, and the request goes to the
 *   project and location: `{location}-aiplatform.googleapis.com/v1/projects/{p}/locations/{l}/publishers/…`
 *   (`global`: `aiplatform.googleapis.com`; the multi-regions `us`/`eu`: `aiplatform.{l}.rep.googleapis.com`).
 * A model `baseUrl` without the `{location}` placeholder replaces the host (and the `v1` unless it names a
 * version); the model path is then appended without the project/location part, as pi-ai's SDK client does.
 */
import type { GoogleCredentials } from "../gcp/index.ts";
import { ProviderError, postJson } from "../http.ts";
import type { Context, Model, SimpleStreamOptions } from "../types.ts";
import { consumeGenerateContentStream, simpleGoogleOptions } from "./google.ts";
import { buildRequest, type GoogleOptions } from "./google-request.ts";
import { runProviderStream } from "./run.ts";

const NAME = "Google Vertex";
const API_VERSION = "v1";
/** What pi stores as the "key" of a Vertex login that uses Application Default Credentials. */
const ADC_MARKER = "gcp-vertex-credentials";

export interface GoogleVertexOptions extends GoogleOptions {
	/** Google Cloud project (default: GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT, then the credentials file). */
	project?: string;
	/** Vertex location, e.g. `us-central1` or `global` (default: GOOGLE_CLOUD_LOCATION). */
	location?: string;
	/** Variables that take precedence over this process's environment (a stored login's `env`). */
	env?: Record<string, string | undefined>;
}

export function streamGoogleVertex(model: Model, context: Context, options?: GoogleVertexOptions) {
	return runProviderStream(NAME, model, options, async (builder) => {
		const target = await resolveTarget(model, options);
		const response = await postJson({
			providerName: NAME,
			url: target.url,
			headers: { accept: "text/event-stream", ...target.headers, ...model.headers, ...options?.headers },
			body: buildRequest(model, context, options),
			model,
			options,
		});
		await consumeGenerateContentStream(NAME, response.body as ReadableStream<Uint8Array>, builder);
	});
}

/** pi-ai's thinking rules for Gemini, with Vertex's budget table. */
export function streamSimpleGoogleVertex(model: Model, context: Context, options?: SimpleStreamOptions) {
	return streamGoogleVertex(model, context, simpleGoogleOptions(model, context, options, "vertex"));
}

// ---- where the request goes --------------------------------------------------------------------------------

interface Target {
	url: string;
	headers: Record<string, string>;
}

/** A real key: not blank, not pi's ADC marker, not a `<placeholder>` (such as `<authenticated>`). */
function usableApiKey(apiKey: string | undefined): string | undefined {
	const key = apiKey?.trim();
	if (!key || key === ADC_MARKER || /^<[^>]+>$/.test(key)) return undefined;
	return key;
}

function mergedEnv(overlay: Record<string, string | undefined> | undefined): Record<string, string | undefined> {
	if (!overlay) return process.env;
	const env: Record<string, string | undefined> = { ...process.env };
	for (const [name, value] of Object.entries(overlay)) if (value) env[name] = value;
	return env;
}

/**
 * The `streamGenerateContent` URL for a model: with an API key (express mode) or for a project and location. A
 * real model `baseUrl` replaces the host, and the project/location part is left out (pi's SDK client does both).
 */
export function vertexStreamUrl(
	model: Pick<Model, "id" | "baseUrl">,
	scope: { project: string; location: string } | undefined,
): string {
	const path = modelPath(model.id);
	const custom = customBaseUrl(model.baseUrl);
	if (custom) return `${versioned(custom)}/${path}:streamGenerateContent?alt=sse`;
	if (!scope) return `https://aiplatform.googleapis.com/${API_VERSION}/${path}:streamGenerateContent?alt=sse`;
	const { project, location } = scope;
	const scoped = path.startsWith("projects/")
		? path
		: `projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/${path}`;
	return `${vertexHost(location)}/${API_VERSION}/${scoped}:streamGenerateContent?alt=sse`;
}

async function resolveTarget(model: Model, options: GoogleVertexOptions | undefined): Promise<Target> {
	const apiKey = usableApiKey(options?.apiKey);
	if (apiKey) return { url: vertexStreamUrl(model, undefined), headers: { "x-goog-api-key": apiKey } };
	// Credentials code loads only when a request uses Application Default Credentials.
	const gcp = await import("../gcp/index.ts");
	const env = mergedEnv(options?.env);
	let credentials: GoogleCredentials | undefined;
	const load = () => {
		credentials ??= gcp.loadAdcCredentials(env);
		return credentials;
	};
	let project = options?.project || gcp.projectFromEnv(env);
	if (!project) {
		try {
			project = gcp.projectFromCredentials(load());
		} catch {
			// No usable file: the missing project is the first thing to fix.
		}
	}
	if (!project) {
		throw new ProviderError(
			"Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options.",
		);
	}
	const location = options?.location || gcp.locationFromEnv(env);
	if (!location) {
		throw new ProviderError("Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options.");
	}
	let token: string;
	try {
		token = await gcp.googleAccessToken(load(), { env, ...(options?.signal ? { signal: options.signal } : {}) });
	} catch (error) {
		if (error instanceof gcp.GoogleCredentialsError) throw new ProviderError(error.message);
		throw error;
	}
	const headers: Record<string, string> = { authorization: `Bearer ${token}` };
	const quotaProject = credentials?.type === "authorized_user" ? credentials.quotaProjectId : undefined;
	if (quotaProject) headers["x-goog-user-project"] = quotaProject;
	return { url: vertexStreamUrl(model, { project, location }), headers };
}

/** Vertex's regional, global and multi-regional hosts. */
export function vertexHost(location: string): string {
	if (location === "global") return "https://aiplatform.googleapis.com";
	if (location === "us" || location === "eu") return `https://aiplatform.${location}.rep.googleapis.com`;
	return `https://${location}-aiplatform.googleapis.com`;
}

/** A model id as a Vertex resource path: `publishers/google/models/{id}`, `publishers/{a}/models/{b}` for `a/b`. */
export function modelPath(id: string): string {
	if (/^(publishers|projects|models)\//.test(id)) return id;
	const slash = id.indexOf("/");
	if (slash >= 0) return `publishers/${id.slice(0, slash)}/models/${id.slice(slash + 1).split("/")[0]}`;
	return `publishers/google/models/${id}`;
}

/** The model's base URL when it is a real one (the catalogue's holds a `{location}` placeholder). */
function customBaseUrl(baseUrl: string | undefined): string | undefined {
	const trimmed = baseUrl?.trim();
	return trimmed && !trimmed.includes("{location}") ? trimmed.replace(/\/+$/, "") : undefined;
}

/** A base URL with the API version: kept when a path segment already names one (`v1`, `v1beta1`). */
function versioned(base: string): string {
	let path = base;
	try {
		path = new URL(base).pathname;
	} catch {
		// not a URL: look at the text itself
	}
	return path.split("/").some((part) => /^v\d+(?:beta\d*)?$/.test(part)) ? base : `${base}/${API_VERSION}`;
}
