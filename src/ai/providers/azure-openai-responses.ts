/**
 * `azure-openai-responses`: the OpenAI Responses API as Azure OpenAI serves it. The wire format (request items, SSE
 * events) is the `openai-responses` one and reuses its request builder and stream consumer; Azure differs in
 * where the request goes and how it is authenticated:
 *
 * - URL `{base}/responses?api-version={version}`. The base is `azureBaseUrl`, else `AZURE_OPENAI_BASE_URL`, else
 *   `https://{AZURE_OPENAI_RESOURCE_NAME}.openai.azure.com/openai/v1`, else the model's `baseUrl`. A resource root
 *   on an Azure host (`*.openai.azure.com`, `*.cognitiveservices.azure.com`, `*.ai.azure.com`) with no path,
 *   `/openai` or `/openai/v1/responses` becomes `…/openai/v1`. The version is `azureApiVersion`, else
 *   `AZURE_OPENAI_API_VERSION`, else `v1`.
 * - The key goes in an `api-key` header (no bearer token).
 * - `model` is the deployment: `azureDeploymentName`, else the model's entry in `AZURE_OPENAI_DEPLOYMENT_NAME_MAP`
 *   (`model=deployment,…`), else the model id.
 * - `prompt_cache_key` is the session id whatever the cache retention, function tools say `strict: false` unless
 *   the model's compat turns strict mode off, and `max_output_tokens` is always sent when a limit is given.
 *
 * Environment values come from the options' `env`, else the process environment. An HTTP error reads as pi-ai
 * words it (see `describeAzureError`), so the same response gives the same message and classification.
 */
import { retryAfterNote } from "../errors.ts";
import { joinUrl, ProviderError, postJson } from "../http.ts";
import type { Context, Model, SimpleStreamOptions } from "../types.ts";
import { buildRequest, type OpenAIResponsesOptions, streamSimpleOpenAIResponses } from "./openai-responses.ts";
import { RESPONSES_ID_PROVIDERS } from "./openai-responses-input.ts";
import { consumeResponsesStream } from "./openai-responses-stream.ts";
import { runProviderStream } from "./run.ts";

export interface AzureOpenAIResponsesOptions extends OpenAIResponsesOptions {
	azureApiVersion?: string;
	azureResourceName?: string;
	azureBaseUrl?: string;
	azureDeploymentName?: string;
}

const NAME = "Azure OpenAI";
const DEFAULT_API_VERSION = "v1";
const MIN_OUTPUT_TOKENS = 16;
const PROMPT_CACHE_KEY_MAX = 64;
const ID_PROVIDERS: ReadonlySet<string> = new Set([...RESPONSES_ID_PROVIDERS, "azure-openai-responses"]);
const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|ai\.azure\.com)$/;

export function streamAzureOpenAIResponses(model: Model, context: Context, options?: AzureOpenAIResponsesOptions) {
	return runProviderStream(NAME, model, options, async (builder) => {
		if (!options?.apiKey) throw new ProviderError(`No API key for provider: ${model.provider}`);
		const response = await postJson({
			providerName: NAME,
			url: azureRequestUrl(model, options),
			headers: { "api-key": options.apiKey, ...model.headers, ...options.headers },
			body: buildAzureRequest(model, context, options),
			model,
			options,
			describeError: describeAzureError,
		});
		await consumeResponsesStream(NAME, response.body as ReadableStream<Uint8Array>, builder);
	});
}

/** The unified options as for `openai-responses` (reasoning level, output limit), sent to Azure. */
export function streamSimpleAzureOpenAIResponses(model: Model, context: Context, options?: SimpleStreamOptions) {
	return streamSimpleOpenAIResponses(model, context, options, streamAzureOpenAIResponses);
}

/** The request body: the `openai-responses` one with Azure's deployment, cache key, tool and limit rules. */
export function buildAzureRequest(model: Model, context: Context, options: AzureOpenAIResponsesOptions | undefined) {
	const base = buildRequest(model, context, options, ID_PROVIDERS);
	const { model: _id, input, stream, prompt_cache_key: _key, prompt_cache_retention: _retention, ...rest } = base;
	const body: Record<string, unknown> = { model: deploymentName(model, options), input, stream };
	if (options?.sessionId !== undefined) {
		body.prompt_cache_key = Array.from(options.sessionId).slice(0, PROMPT_CACHE_KEY_MAX).join("");
	}
	body.store = rest.store;
	if (options?.maxTokens) body.max_output_tokens = Math.max(options.maxTokens, MIN_OUTPUT_TOKENS);
	Object.assign(body, rest);
	if (Array.isArray(body.tools) && model.compat?.supportsStrictMode !== false) {
		body.tools = body.tools.map((tool: Record<string, unknown>) =>
			"strict" in tool ? tool : { ...tool, strict: false },
		);
	}
	return body;
}

function env(options: AzureOpenAIResponsesOptions | undefined, name: string): string | undefined {
	const scoped = (options?.env as Record<string, string | undefined> | undefined)?.[name];
	return scoped || process.env[name] || undefined;
}

function deploymentName(model: Model, options: AzureOpenAIResponsesOptions | undefined): string {
	if (options?.azureDeploymentName) return options.azureDeploymentName;
	for (const entry of (env(options, "AZURE_OPENAI_DEPLOYMENT_NAME_MAP") ?? "").split(",")) {
		const [id, deployment] = entry.trim().split("=", 2);
		if (id && deployment && id.trim() === model.id && deployment.trim()) return deployment.trim();
	}
	return model.id;
}

/** `{base}/responses?api-version=…`; throws a one-line error when no base URL is configured or it is not a URL. */
export function azureRequestUrl(model: Model, options: AzureOpenAIResponsesOptions | undefined): string {
	const version = options?.azureApiVersion || env(options, "AZURE_OPENAI_API_VERSION") || DEFAULT_API_VERSION;
	const resource = options?.azureResourceName || env(options, "AZURE_OPENAI_RESOURCE_NAME");
	const configured =
		options?.azureBaseUrl?.trim() ||
		env(options, "AZURE_OPENAI_BASE_URL")?.trim() ||
		(resource ? `https://${resource}.openai.azure.com/openai/v1` : undefined) ||
		model.baseUrl;
	if (!configured) {
		throw new ProviderError(
			"Azure OpenAI base URL is required: set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or give the model a baseUrl.",
		);
	}
	const base = normalizeBaseUrl(configured);
	const url = new URL(joinUrl(base, "responses"));
	url.searchParams.set("api-version", version);
	return url.toString();
}

function normalizeBaseUrl(raw: string): string {
	let url: URL;
	try {
		url = new URL(raw.trim().replace(/\/+$/, ""));
	} catch {
		throw new ProviderError(`Invalid Azure OpenAI base URL: ${raw}`);
	}
	const path = url.pathname.replace(/\/+$/, "");
	if (AZURE_HOST.test(url.hostname) && ["", "/openai", "/openai/v1/responses"].includes(path)) {
		url.pathname = "/openai/v1";
		url.search = "";
	}
	return url.toString().replace(/\/+$/, "");
}

const MAX_ERROR_BODY = 4000;

/**
 * `Azure OpenAI API error (<status>): <detail>`: the detail is the body's `error` object as JSON when it has
 * fields and its message does not already say it, else `<status> <error.message | error JSON | text body>`, or
 * `<status> status code (no body)` when there is nothing to show.
 */
export async function describeAzureError(response: Response): Promise<string> {
	let text = "";
	try {
		text = await response.text();
	} catch {
		// The body could not be read; the status alone must do.
	}
	let json: any;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	const error = json ? json.error : undefined;
	const detail = error?.message
		? typeof error.message === "string"
			? error.message
			: JSON.stringify(error.message)
		: error
			? JSON.stringify(error)
			: json
				? undefined
				: text;
	const status = response.status;
	const message = detail ? `${status} ${detail}` : `${status} status code (no body)`;
	const plain = error && typeof error === "object" && Object.getPrototypeOf(error) === Object.prototype;
	const body = plain && Object.keys(error).length > 0 ? JSON.stringify(error).trim() : undefined;
	const shown =
		body === undefined || body === "" || message.includes(body)
			? message
			: body.length <= MAX_ERROR_BODY
				? body
				: `${body.slice(0, MAX_ERROR_BODY)}... [truncated ${body.length - MAX_ERROR_BODY} chars]`;
	return `${NAME} API error (${status}): ${shown}${retryAfterNote(response.headers)}`;
}
