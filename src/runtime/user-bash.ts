/**
 * A shell command the user runs directly (`!cmd` in the TUI, RPC `bash`): the `user_bash` extension event first
 * (a handler may run it elsewhere through `operations`, or supply the whole result; a handler that fails means
 * the command does not run — fail closed), then the command, with its output streamed to `onData` and kept
 * tail-truncated (full output spilled to a temp file). The result is stored as a `bashExecution` message: it
 * reaches the model with the next prompt unless `excludeFromContext`.
 */
import type { AgentMessage } from "../agent/index.ts";
import type { BashResult, ExtensionRunner } from "../extensions/index.ts";
import type { SessionManager } from "../session/index.ts";
import { type BashOperations, createLocalBashOperations, OutputCollector } from "../tools/index.ts";
import { errorMessage } from "../util/index.ts";
import type { AgentSession } from "./agent-session.ts";

export interface UserBashOptions {
	session: AgentSession;
	manager: SessionManager;
	cwd: string;
	runner?: ExtensionRunner;
	context?: () => unknown;
	excludeFromContext?: boolean;
	shellPath?: string;
	onData?: (text: string) => void;
	signal?: AbortSignal;
}

export async function runUserBash(command: string, o: UserBashOptions): Promise<BashResult> {
	const excludeFromContext = o.excludeFromContext === true;
	let operations: BashOperations = createLocalBashOperations(o.shellPath ? { shellPath: o.shellPath } : {});
	let result: BashResult | undefined;
	if (o.runner?.hasHandlers("user_bash")) {
		const outcome = await o.runner.emit(
			"user_bash",
			{ command, excludeFromContext, cwd: o.cwd },
			o.context?.() as never,
		);
		if (outcome.error) throw new Error(`user_bash handler failed (${outcome.extensionPath}): ${outcome.error}`);
		if (outcome.result?.result) result = outcome.result.result;
		else if (outcome.result?.operations) operations = outcome.result.operations as BashOperations;
	}
	result ??= await execute(command, operations, o);
	const message = {
		role: "bashExecution",
		command,
		output: result.output,
		exitCode: result.exitCode,
		cancelled: result.cancelled,
		truncated: result.truncated,
		...(result.fullOutputPath ? { fullOutputPath: result.fullOutputPath } : {}),
		...(excludeFromContext ? { excludeFromContext: true } : {}),
		timestamp: Date.now(),
	} as unknown as AgentMessage;
	o.session.agent.state.messages.push(message);
	o.manager.appendMessage(message as never);
	return result;
}

async function execute(command: string, operations: BashOperations, o: UserBashOptions): Promise<BashResult> {
	const collector = new OutputCollector();
	const decoder = new TextDecoder();
	let exitCode: number | null = null;
	let cancelled = false;
	try {
		({ exitCode } = await operations.exec(command, o.cwd, {
			onData: (chunk) => {
				collector.push(chunk);
				if (o.onData) o.onData(decoder.decode(chunk, { stream: true }));
			},
			...(o.signal ? { signal: o.signal } : {}),
		}));
	} catch (error) {
		if (!o.signal?.aborted) {
			collector.finish();
			const text = collector.format().text;
			return {
				output: `${text === "(no output)" ? "" : `${text}\n`}${errorMessage(error)}`,
				exitCode: undefined,
				cancelled: false,
				truncated: false,
			};
		}
	}
	if (o.signal?.aborted) cancelled = true;
	collector.finish();
	const formatted = collector.format();
	const snapshot = collector.snapshot();
	return {
		output: snapshot.text,
		exitCode: cancelled ? undefined : (exitCode ?? undefined),
		cancelled,
		truncated: formatted.truncation !== undefined,
		...(formatted.fullOutputPath ? { fullOutputPath: formatted.fullOutputPath } : {}),
	};
}
