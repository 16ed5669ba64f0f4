/**
 * RPC commands that drive a run: prompt (extension commands first; while streaming only with
 * `streamingBehavior`), steer, follow_up, abort, clear_queue, compact, bash and abort_bash.
 */
import { runUserBash } from "../../runtime/index.ts";
import { errorMessage } from "../../util/index.ts";
import { parseSlashCommand } from "../prompts.ts";
import { type RpcContext, type RpcHandler, requireSession } from "./context.ts";

const BUSY = "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

/**
 * The response to `prompt` is sent once the prompt was accepted, queued or handled: `respond` is called before
 * the run starts, so every event of the run follows the response.
 */
export async function handlePrompt(
	command: { message: string; images?: import("../../ai/index.ts").ImageContent[]; streamingBehavior?: string },
	ctx: RpcContext,
	respond: () => void,
): Promise<void> {
	const slash = parseSlashCommand(command.message);
	const definition = slash && ctx.extensions.findCommand(slash.name);
	if (slash && definition) {
		await definition.handler(slash.args, ctx.host.current.bridge.scope.commandContext());
		respond();
		return;
	}
	const session = requireSession(ctx);
	if (session.isStreaming) {
		if (command.streamingBehavior === "steer") await session.steer(command.message, command.images);
		else if (command.streamingBehavior === "followUp") await session.followUp(command.message, command.images);
		else throw new Error(BUSY);
		respond();
		return;
	}
	respond();
	session.prompt(command.message, command.images).catch((error: unknown) => {
		process.stderr.write(`pi: prompt failed: ${errorMessage(error)}\n`);
	});
}

export const runHandlers = {
	steer: async (c, ctx) => {
		assertNotExtensionCommand(c.message, ctx, "steer");
		await requireSession(ctx).steer(c.message, c.images);
	},
	follow_up: async (c, ctx) => {
		assertNotExtensionCommand(c.message, ctx, "follow_up");
		await requireSession(ctx).followUp(c.message, c.images);
	},
	abort: async (_c, ctx) => {
		const session = ctx.host.session;
		if (!session) return;
		session.abort();
		await session.agent.waitForIdle();
	},
	clear_queue: (_c, ctx) => requireSession(ctx).clearQueue(),
	compact: async (c, ctx) => {
		const compact = ctx.host.current.compact;
		if (!compact) throw new Error(ctx.host.current.noModelReason ?? "No model available");
		const result = await compact(c.customInstructions);
		if (!result) throw new Error("Nothing to compact (session too small)");
		return result;
	},
	bash: async (c, ctx) => {
		const session = requireSession(ctx);
		const controller = new AbortController();
		ctx.bash = controller;
		try {
			return await runUserBash(c.command, {
				session,
				manager: ctx.host.manager,
				cwd: ctx.cwd,
				runner: ctx.host.current.bridge.runner,
				context: () => ctx.host.current.bridge.scope.context(),
				excludeFromContext: c.excludeFromContext === true,
				...(ctx.shellPath ? { shellPath: ctx.shellPath } : {}),
				signal: controller.signal,
				onData: (delta) =>
					ctx.send({ type: "bash_execution_update", ...(c.id !== undefined ? { id: c.id } : {}), delta }),
			});
		} finally {
			if (ctx.bash === controller) ctx.bash = undefined;
		}
	},
	abort_bash: (_c, ctx) => {
		ctx.bash?.abort();
	},
} satisfies {
	[K in "steer" | "follow_up" | "abort" | "clear_queue" | "compact" | "bash" | "abort_bash"]: RpcHandler<K>;
};

function assertNotExtensionCommand(message: string, ctx: RpcContext, command: string): void {
	const slash = parseSlashCommand(message);
	if (slash && ctx.extensions.findCommand(slash.name)) {
		throw new Error(`Extension commands cannot be queued with ${command}; send them with prompt`);
	}
}
