/**
 * `executeShellWithCapture`: run a command through an execution environment and collect one bounded final view
 * (the tail within 2000 lines / 50 KB, the full output spilled to a file), calling `onChunk` with each new piece
 * of text. Cancellation is a result (`cancelled: true`), not an error.
 */
import {
	applyShellOutputUpdate,
	type Context,
	type ExecutionEnv,
	type ExecutionError,
	err,
	ok,
	type Result,
	type ShellExecOptions,
	type ShellOutputView,
} from "../../agent/index.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateTail } from "../truncate.ts";
import type { TruncationResult } from "../types.ts";

export interface ShellCaptureProgress {
	output: string;
	truncation: TruncationResult;
	fullOutputPath?: string;
	lastLineBytes: number;
}

export interface ShellCaptureOptions extends Omit<ShellExecOptions, "capture" | "onUpdate"> {
	onChunk?: (chunk: string, getProgress: () => ShellCaptureProgress, context: Context) => void;
	/** Report a failed execution as a result with the output so far instead of an error. */
	returnExecutionErrors?: boolean;
}

export interface ShellCaptureResult extends ShellCaptureProgress {
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	executionError?: ExecutionError;
}

function progressOf(view: ShellOutputView): ShellCaptureProgress {
	return {
		output: view.text,
		truncation: { content: view.text, ...view.truncation },
		...(view.spillPath === undefined ? {} : { fullOutputPath: view.spillPath }),
		lastLineBytes: view.lastLineBytes ?? 0,
	};
}

export async function executeShellWithCapture(
	env: ExecutionEnv,
	command: string,
	options: ShellCaptureOptions | undefined,
	context: Context,
): Promise<Result<ShellCaptureResult, ExecutionError>> {
	let view: ShellOutputView | undefined;
	const result = await env.exec(
		command,
		{
			cwd: options?.cwd,
			env: options?.env,
			inheritEnv: options?.inheritEnv,
			timeout: options?.timeout,
			capture: { limits: { maxBytes: DEFAULT_MAX_BYTES, maxLines: DEFAULT_MAX_LINES, retain: "tail" }, spill: true },
			onUpdate: (update, updateContext) => {
				const first = view === undefined;
				view = applyShellOutputUpdate(view, update);
				// Only new text counts as a chunk: metadata changes and later whole-view replacements carry none.
				const chunk =
					update.kind === "append" || update.kind === "slide"
						? update.text
						: update.kind === "replace" && first
							? view.text
							: undefined;
				const current = view;
				if (chunk) options?.onChunk?.(chunk, () => progressOf(current), updateContext);
			},
		},
		context,
	);
	if (!view) {
		const { content, ...truncation } = truncateTail("");
		view = { text: content, truncation };
	}
	const progress = progressOf(view);
	const truncated = progress.truncation.truncated;
	if (!result.ok) {
		if (result.error.code === "aborted" || context.abortSignal?.aborted)
			return ok({ ...progress, exitCode: undefined, cancelled: true, truncated });
		if (options?.returnExecutionErrors)
			return ok({ ...progress, exitCode: undefined, cancelled: false, truncated, executionError: result.error });
		return err(result.error);
	}
	return ok({
		...progress,
		exitCode: result.value.exitCode,
		cancelled: false,
		truncated: result.value.truncation.truncated,
	});
}
