/**
 * What RPC command handlers work with: the runtime host (current session, replacement), the model registry,
 * resources and extension commands for `get_commands`, and the output channel. A handler returns the response
 * data (or undefined for commands without data) and throws for a failure; the server builds the envelope.
 */

import type { Model, ModelRegistry } from "../../ai/index.ts";
import type { ResourceLoader } from "../../resources/index.ts";
import type { AgentSession, ExtensionHost, RuntimeHost } from "../../runtime/index.ts";
import type { RpcCommand, RpcCommandType } from "./types.ts";

export interface RpcContext {
	host: RuntimeHost;
	extensions: ExtensionHost;
	registry: ModelRegistry;
	resources: ResourceLoader;
	cwd: string;
	/** `--models` patterns resolved (cycle order); empty = every available model. */
	scopedModels: Model[];
	shellPath?: string;
	/** Writes one record to stdout. */
	send(record: object): void;
	/** A running `bash` command's abort handle. */
	bash: AbortController | undefined;
}

export type RpcHandler<T extends RpcCommandType = RpcCommandType> = (
	command: Extract<RpcCommand, { type: T }>,
	ctx: RpcContext,
) => Promise<unknown> | unknown;

/** The current agent session, or the reason there is none (no model / key) as an error. */
export function requireSession(ctx: RpcContext): AgentSession {
	const session = ctx.host.session;
	if (!session) throw new Error(ctx.host.current.noModelReason ?? "No model available");
	return session;
}
