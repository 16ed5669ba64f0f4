/**
 * RPC commands that drive a run: prompt (extension commands first; while streaming only with
 * `streamingBehavior`), steer, follow_up, abort, clear_queue, compact, bash and abort_bash.
 */
import type { ImageContent } from "../../ai/index.ts";
import { runUserBash, type StreamingBehavior } from "../../runtime/index.ts";
import { errorMessage } from "../../util/index.ts";
import { parseSlashCommand } from "../prompts.ts";
import { type RpcContext, type RpcHandler, requireSession } from "./context.ts";

/**
 * `prompt`: an extension command runs at once, even while streaming (a throwing command is reported as an
 * `extension_error` for `command:<name>`, as pi does, and the prompt still counts as handled). Anything else goes
 * through the session's prompt pipeline with source "rpc"; `respond` is called once the prompt was accepted,
 * queued or handled, before the run starts, so every event of the run follows the response. A prompt refused
 * before acceptance rejects (the caller answers `success:false`); a failure after acceptance only reaches stderr.
 */
export async function handlePrompt(
	command: { message: string; images?: ImageContent[]; streamingBehavior?: StreamingBehavior },
	ctx: RpcContext,
	respond: () => void,
): Promise<void> {
	const slash = parseSlashCommand(command.message);
	const definition = slash && ctx.extensions.findCommand(slash.name);
	if (slash && definition) {
		try {
			await definition.handler(slash.args, ctx.host.current.bridge.scope.commandContext());
		} catch (error) {
			ctx.send({
				type: "extension_error",
				extensionPath: `command:${slash.name}`,
				event: "command",
				error: errorMessage(error),
			});
		}
		respond();
		return;
	}
	const session = requireSession(ctx);
	// Resolves at acceptance; the run goes on without holding the command (shutdown waits only for commands).
	await new Promise<void>((resolve, reject) => {
		let accepted = false;
		session
			.prompt(command.message, {
				source: "rpc",
				...(command.images ? { images: command.images } : {}),
				...(command.streamingBehavior ? { streamingBehavior: command.streamingBehavior } : {}),
				onAccepted: () => {
					accepted = true;
					respond();
					resolve();
				},
			})
			.catch((error: unknown) => {
				if (!accepted) reject(error);
				else process.stderr.write(`pi: prompt failed: ${errorMessage(error)}\n`);
			});
	});
}

export const runHandlers = {
	steer: async (c, ctx) => {
		assertNotExtensionCommand(c.message, ctx);
		await requireSession(ctx).steer(c.message, c.images, "rpc");
	},
	follow_up: async (c, ctx) => {
		assertNotExtensionCommand(c.message, ctx);
		await requireSession(ctx).followUp(c.message, c.images, "rpc");
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
		requireSession(ctx);
		const controller = new AbortController();
		ctx.bash = controller;
		try {
			// The result is recorded in the session current when the command ends: a `new_session`, `clone` or
			// `switch_session` sent while it ran has closed the one it started in (pi records it in the current session too).
			return await runUserBash(c.command, {
				get session() {
					return requireSession(ctx);
				},
				get manager() {
					return ctx.host.manager;
				},
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

function assertNotExtensionCommand(message: string, ctx: RpcContext): void {
	const slash = parseSlashCommand(message);
	if (slash && ctx.extensions.findCommand(slash.name)) {
		throw new Error(
			`Extension command "/${slash.name}" cannot be queued. Use prompt() or execute the command when not streaming.`,
		);
	}
}
