/** Harness-style tool shapes (pi-agent-core's `AgentHarnessTool`): execute gets the env-carrying tool context. */
import type { Static, TSchema } from "@sinclair/typebox";
import type { AgentTool, AgentToolResult, Context, ExecutionEnv } from "../../agent/index.ts";

export interface AgentHarnessToolUpdateOptions {
	/** Replace this invocation's durable recovery checkpoint with this update. */
	checkpoint?: true;
}
export type AgentHarnessToolUpdateCallback<TDetails> = (
	partialResult: AgentToolResult<TDetails>,
	options?: AgentHarnessToolUpdateOptions,
) => void;

/** Identity of one logical tool call, stable across a safe replay. */
export interface AgentHarnessToolInvocation {
	readonly invocationId: string;
	readonly operationId: string;
	readonly turnId: string;
	getMemo(name: string): Promise<unknown>;
	setMemo(name: string, value: unknown): Promise<void>;
}

export type AgentHarnessTool<
	TContext extends object | undefined,
	TParameters extends TSchema = TSchema,
	TDetails = unknown,
> = Omit<AgentTool<TParameters, TDetails>, "execute"> & {
	execute(
		toolCallId: string,
		params: Static<TParameters>,
		onUpdate: AgentHarnessToolUpdateCallback<TDetails>,
		toolContext: TContext,
		invocation: AgentHarnessToolInvocation,
		context: Context,
	): Promise<AgentToolResult<TDetails>>;
};

/** The tool context the built-in harness tools need. */
export interface ExecutionToolContext {
	env: ExecutionEnv;
}
