/**
 * Composition root of a run's session: an `Agent` on the chosen model with its tools and system prompt, inside an
 * `AgentSession`. Credentials and request headers come from the caller (the model registry) per request.
 */
import { Agent, type AgentTool, getDefaultStreamFn, type StreamFn, type ThinkingLevel } from "../agent/index.ts";
import { adjustBuiltinRequest, type Model } from "../ai/index.ts";
import { explainAccountErrors } from "./account-errors.ts";
import { AgentSession, type AgentSessionOptions } from "./agent-session.ts";
import { convertToLlm } from "./convert-to-llm.ts";
import type { PromptSources } from "./prompt-state.ts";
import type { RetrySettings } from "./retry.ts";
import {
	DEFAULT_IMAGE_SETTINGS,
	normalizingAfterToolCall,
	type SessionImageSettings,
	withoutImages,
} from "./session-images.ts";

export interface CreateSessionOptions {
	model: Model;
	thinkingLevel: ThinkingLevel;
	tools: AgentTool<any>[];
	/** A fixed prompt (SDK and tests); ignored when `prompt` is given. */
	systemPrompt?: string;
	/** The transcript carries the prompt, built from these options and patched as they change (pi 0.86+). */
	prompt?: PromptSources;
	cwd?: string;
	getApiKey: (model: Model) => string | undefined | Promise<string | undefined>;
	getHeaders?: (model: Model) => Record<string, string>;
	/**
	 * Per request, after `getApiKey`: the model as the provider's login re-points it (base URL) and the login's
	 * `env` for the provider's stream (the model registry's `requestTarget`).
	 */
	prepareRequest?: (model: Model) => { model: Model; env?: Record<string, string> };
	retry?: RetrySettings;
	sessionId?: string;
	/** Tests and SDK users may replace the provider call. */
	streamFn?: StreamFn;
	/** `images.autoResize` and `images.blockImages`, read when an image arrives or a request is built. */
	images?: SessionImageSettings;
	/** Where the model's credential comes from, to name in a 401/403 or out-of-quota error line. */
	credentialHint?: (model: Model) => string;
	/** Builds the session object (the SDK's pi-shaped session); default `new AgentSession`. */
	construct?: (options: AgentSessionOptions) => AgentSession;
}

export function createAgentSession(options: CreateSessionOptions): AgentSession {
	const headers = options.getHeaders?.(options.model);
	const images = options.images ?? DEFAULT_IMAGE_SETTINGS;
	const agent: Agent = new Agent({
		initialState: {
			model: options.model,
			thinkingLevel: options.thinkingLevel,
			tools: options.tools,
			systemPrompt: options.systemPrompt ?? "",
		},
		convertToLlm: (messages) => (images.block() ? withoutImages(convertToLlm(messages)) : convertToLlm(messages)),
		afterToolCall: normalizingAfterToolCall(images),
		getApiKey: async (): Promise<string | undefined> => options.getApiKey(agent.state.model),
		...(options.prepareRequest
			? { streamFn: preparedStreamFn(options.prepareRequest, options.streamFn) }
			: options.streamFn
				? { streamFn: options.streamFn }
				: {}),
		...(options.sessionId ? { sessionId: options.sessionId } : {}),
		...(headers && Object.keys(headers).length > 0 ? { streamOptions: { headers } } : {}),
	});
	const sessionOptions: AgentSessionOptions = {
		agent,
		...(options.retry ? { retry: options.retry } : {}),
		...(options.cwd ? { cwd: options.cwd } : {}),
		images,
	};
	const session = options.construct ? options.construct(sessionOptions) : new AgentSession(sessionOptions);
	if (options.prompt) session.promptState.enable(options.prompt);
	if (options.credentialHint) explainAccountErrors(session, options.credentialHint);
	return session;
}

/** `streamFn` (or the current default) on the model and `env` the login gives for each request. */
function preparedStreamFn(
	prepare: NonNullable<CreateSessionOptions["prepareRequest"]>,
	streamFn: StreamFn | undefined,
): StreamFn {
	return (model, context, streamOptions) => {
		const target = prepare(model);
		const callerEnv = streamOptions?.env as Record<string, string | undefined> | undefined;
		const merged = target.env ? { ...streamOptions, env: { ...target.env, ...callerEnv } } : streamOptions;
		const adjusted = adjustBuiltinRequest(target.model, merged);
		return (streamFn ?? getDefaultStreamFn())(adjusted.model, context, adjusted.options);
	};
}
