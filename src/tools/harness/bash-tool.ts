/**
 * pi-agent-core's `bash` tool over an execution environment: runs the command (after an optional prefix and
 * `prepare` hook), streams full-snapshot progress (a durable checkpoint at most every 2 s when it changed), and
 * returns the tail of the output with a note on where the full output went. A non-zero exit, timeout or abort
 * is thrown with the output so far.
 */
import type { Context, ShellOutputTruncation, ShellOutputView } from "../../agent/index.ts";
import { applyShellOutputUpdate } from "../../agent/index.ts";
import { BASH_IDENTITY } from "../bash.ts";
import { bashSchema } from "../schemas.generated.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../truncate.ts";
import type { AgentHarnessTool, ExecutionToolContext } from "./types.ts";

const MAX_TIMEOUT_SECONDS = 2_147_483_647 / 1000;
const CHECKPOINT_EVERY_MS = 2_000;

export interface BashToolDetails {
	truncation?: ShellOutputTruncation;
	fullOutputPath?: string;
}

export interface BashExecution {
	command: string;
	cwd: string;
	env: Record<string, string>;
	inheritEnv: boolean;
}

export type BashPrepare<TContext extends ExecutionToolContext = ExecutionToolContext> = (
	execution: BashExecution,
	toolContext: TContext,
	context: Context,
) => void | Promise<void>;

export interface BashToolOptions<TContext extends ExecutionToolContext = ExecutionToolContext> {
	commandPrefix?: string;
	prepare?: BashPrepare<TContext>;
}

function checkTimeout(timeout: number | undefined): void {
	if (timeout === undefined) return;
	if (!Number.isFinite(timeout) || timeout <= 0) throw new Error("Invalid timeout: must be a finite number of seconds");
	if (timeout > MAX_TIMEOUT_SECONDS) throw new Error(`Invalid timeout: maximum is ${MAX_TIMEOUT_SECONDS} seconds`);
}

function truncationNote(view: ShellOutputView & { lastLineBytes?: number }): string {
	const t = view.truncation;
	const first = t.totalLines - t.outputLines + 1;
	const last = t.totalLines;
	if (t.lastLinePartial) {
		const lineSize = formatSize(view.lastLineBytes ?? t.outputBytes);
		return `\n\n[Showing last ${formatSize(t.outputBytes)} of line ${last} (line is ${lineSize}). Full output: ${view.spillPath}]`;
	}
	if (t.truncatedBy === "lines")
		return `\n\n[Showing lines ${first}-${last} of ${t.totalLines}. Full output: ${view.spillPath}]`;
	return `\n\n[Showing lines ${first}-${last} of ${t.totalLines} (${formatSize(DEFAULT_MAX_BYTES)} limit). Full output: ${view.spillPath}]`;
}

export function createBashTool<TContext extends ExecutionToolContext = ExecutionToolContext>(
	options?: BashToolOptions<TContext>,
): AgentHarnessTool<TContext, typeof bashSchema, BashToolDetails | undefined> {
	return {
		name: "bash",
		label: "bash",
		description: BASH_IDENTITY.description,
		parameters: bashSchema,
		async execute(_toolCallId, { command, timeout }, onUpdate, toolContext, _invocation, context) {
			checkTimeout(timeout);
			const { env } = toolContext;
			const execution: BashExecution = {
				command: options?.commandPrefix ? `${options.commandPrefix}\n${command}` : command,
				cwd: env.cwd,
				env: {},
				inheritEnv: true,
			};
			await options?.prepare?.(execution, toolContext, context);
			let view: ShellOutputView | undefined;
			let live = true;
			let checkpointAt = Date.now();
			let lastCheckpoint: string | undefined;
			onUpdate({ content: [], details: undefined });
			const result = await env.exec(
				execution.command,
				{
					cwd: execution.cwd,
					env: execution.env,
					inheritEnv: execution.inheritEnv,
					timeout,
					capture: {
						limits: { maxBytes: DEFAULT_MAX_BYTES, maxLines: DEFAULT_MAX_LINES, retain: "tail" },
						spill: true,
					},
					onUpdate: (update) => {
						if (!live) return;
						view = applyShellOutputUpdate(view, update);
						const snapshot = {
							content: [{ type: "text" as const, text: view.text }],
							details: {
								truncation: view.truncation.truncated ? view.truncation : undefined,
								fullOutputPath: view.spillPath,
							},
						};
						const now = Date.now();
						const encoded = JSON.stringify(snapshot);
						const checkpoint = now - checkpointAt >= CHECKPOINT_EVERY_MS && encoded !== lastCheckpoint;
						onUpdate(snapshot, checkpoint ? { checkpoint: true } : undefined);
						if (checkpoint) {
							checkpointAt = now;
							lastCheckpoint = encoded;
						}
					},
				},
				context,
			);
			live = false;
			let text = view?.text ?? "";
			const final = result.ok ? { text, ...result.value } : view;
			let details: BashToolDetails | undefined;
			if (final?.truncation.truncated) {
				details = { truncation: final.truncation, fullOutputPath: final.spillPath };
				text += truncationNote(final);
			}
			if (!result.ok) {
				const status =
					result.error.code === "timeout"
						? `Command timed out after ${timeout} seconds`
						: result.error.code === "aborted"
							? "Command aborted"
							: result.error.message;
				throw new Error(text ? `${text}\n\n${status}` : status, { cause: result.error });
			}
			if (result.value.exitCode !== 0)
				throw new Error(`${text ? `${text}\n\n` : ""}Command exited with code ${result.value.exitCode}`);
			return { content: [{ type: "text", text: text || "(no output)" }], details };
		},
	};
}
