/**
 * The `bash` tool: runs `<shell> -c <command>` in the session's cwd, streams the combined stdout+stderr (throttled
 * to one update per 100 ms) and returns the tail of the output. Big outputs are spilled to a temp file so memory
 * stays bounded. The process runs in its own group so timeout and abort kill everything it started; a background
 * child that keeps the pipes open does not hold up the result (we stop reading when the shell exits).
 */

import type { Readable } from "node:stream";
import type { AgentToolUpdateCallback } from "../agent/index.ts";
import { childProcess, errorMessage, os, statSync } from "../util/index.ts";
import { execWithBun } from "./bash-bun.ts";
import { OutputCollector } from "./bash-output.ts";
import { type BackgroundProcess, backgroundNote, leftRunning } from "./process-group.ts";
import { bashSchema } from "./schemas.generated.ts";
import { killProcessTree, resolveShell, type ShellConfig } from "./shell.ts";
import type { BuiltinTool, TruncationResult } from "./types.ts";

export interface BashExecOptions {
	/** Receives stdout and stderr chunks in arrival order. */
	onData: (data: Buffer) => void;
	signal?: AbortSignal;
	/** Seconds; none when undefined or ≤ 0. */
	timeout?: number;
	env?: NodeJS.ProcessEnv;
}

/**
 * Where commands run. `exec` resolves with the exit code once the command is done; it rejects with
 * `Error("aborted")` when the signal fired and `Error("timeout:<seconds>")` when the timeout hit (after killing).
 */
export interface BashOperations {
	exec(command: string, cwd: string, options: BashExecOptions): Promise<BashExecResult>;
}

export interface BashExecResult {
	exitCode: number | null;
	/** Processes the command left running (`cmd &`), reported with the result; the local shell fills it in. */
	background?: BackgroundProcess[];
}

export interface BashSpawnContext {
	command: string;
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export type BashSpawnHook = (context: BashSpawnContext) => BashSpawnContext;

export interface BashToolOptions {
	operations?: BashOperations;
	/** Settings `shellPath`. */
	shellPath?: string;
	/** Settings `shellCommandPrefix`, run before every command (`<prefix>\n<command>`). */
	commandPrefix?: string;
	/** Extra environment variables for the command (merged over the process environment). */
	env?: Record<string, string | undefined>;
	/** Last chance to adjust command, cwd and env before the command runs. */
	spawnHook?: BashSpawnHook;
	/**
	 * The session a command runs in, read at each call: its id and file, model and thinking level become
	 * `PI_SESSION_ID`, `PI_SESSION_FILE`, `PI_PROVIDER`, `PI_MODEL` and `PI_REASONING_LEVEL` (as in pi). Those
	 * variables are never inherited from this process, so a pi started by a command describes its own session.
	 */
	sessionInfo?: () => ShellSessionInfo | undefined;
}

/** What a command is told about the session it runs in. */
export interface ShellSessionInfo {
	sessionId: string;
	sessionFile?: string;
	provider?: string;
	model?: string;
	thinkingLevel?: string;
}

/** The `PI_*` variables describing a session; never passed on from this process. */
export const SESSION_ENV_KEYS = [
	"PI_SESSION_ID",
	"PI_SESSION_FILE",
	"PI_PROVIDER",
	"PI_MODEL",
	"PI_REASONING_LEVEL",
] as const;

/** The environment of one command: ours without the session variables, `extra` over it, then the session's. */
export function sessionEnvironment(
	extra: Record<string, string | undefined> | undefined,
	info: ShellSessionInfo | undefined,
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const key of SESSION_ENV_KEYS) delete env[key];
	Object.assign(env, extra);
	if (info) {
		env.PI_SESSION_ID = info.sessionId;
		if (info.sessionFile) env.PI_SESSION_FILE = info.sessionFile;
		if (info.provider && info.model) {
			env.PI_PROVIDER = info.provider;
			env.PI_MODEL = info.model;
		}
		if (info.thinkingLevel) env.PI_REASONING_LEVEL = info.thinkingLevel;
	}
	return env;
}

const inheritsSessionKeys = (): boolean => SESSION_ENV_KEYS.some((key) => process.env[key] !== undefined);

export interface BashToolDetails {
	truncation?: TruncationResult;
	fullOutputPath?: string;
}

/** How long to keep reading after the shell exits, for output still in the pipes. */
const DRAIN_MS = 100;
const UPDATE_INTERVAL_MS = 100;

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		// Missing or unreadable: treated as absent.
		return false;
	}
}

function signalExitCode(signal: NodeJS.Signals | null): number | null {
	if (!signal) return null;
	const number = os().constants.signals[signal];
	return number ? 128 + number : null;
}

/** Resolves once both streams ended or `ms` passed, whichever comes first. */
function drain(streams: (Readable | null)[], ms: number): Promise<void> {
	const open = streams.filter((s): s is Readable => s !== null && !s.readableEnded && !s.destroyed);
	if (open.length === 0) return Promise.resolve();
	return new Promise((resolve) => {
		let left = open.length;
		const timer = setTimeout(resolve, ms);
		const done = () => {
			left--;
			if (left === 0) {
				clearTimeout(timer);
				resolve();
			}
		};
		for (const stream of open) stream.once("close", done);
	});
}

/** Runs commands on this machine through the resolved shell (or the one `shell` picks, e.g. PowerShell). */
export function createLocalBashOperations(
	options: { shellPath?: string; shell?: () => ShellConfig } = {},
): BashOperations {
	return {
		exec(command, cwd, { onData, signal, timeout, env }) {
			if (!isDirectory(cwd)) return Promise.reject(new Error(`Working directory does not exist: ${cwd}`));
			if (signal?.aborted) return Promise.reject(new Error("aborted"));
			let shell: ShellConfig;
			try {
				shell = options.shell ? options.shell() : resolveShell(options.shellPath);
			} catch (err) {
				return Promise.reject(err);
			}
			if (typeof Bun !== "undefined" && process.platform !== "win32") {
				return execWithBun(shell, command, cwd, {
					onData,
					...(signal ? { signal } : {}),
					...(timeout !== undefined ? { timeout } : {}),
					...(env ? { env } : {}),
				});
			}
			return new Promise((resolve, reject) => {
				const child = childProcess().spawn(shell.shell, [...shell.args, command], {
					cwd,
					env: env ?? process.env,
					detached: process.platform !== "win32",
					stdio: ["ignore", "pipe", "pipe"],
					windowsHide: true,
				});
				let timedOut = false;
				let settled = false;
				const kill = () => {
					if (child.pid !== undefined) killProcessTree(child.pid);
				};
				const timer =
					timeout !== undefined && timeout > 0
						? setTimeout(() => {
								timedOut = true;
								kill();
							}, timeout * 1000)
						: undefined;
				signal?.addEventListener("abort", kill, { once: true });
				const settle = (action: () => void) => {
					if (settled) return;
					settled = true;
					if (timer) clearTimeout(timer);
					signal?.removeEventListener("abort", kill);
					action();
				};
				child.stdout?.on("data", onData);
				child.stderr?.on("data", onData);
				child.on("error", (err) => settle(() => reject(err)));
				// 'exit', not 'close': a background child may hold the pipes open indefinitely.
				child.on("exit", (code, sig) => {
					void drain([child.stdout, child.stderr], DRAIN_MS).then(() => {
						child.stdout?.destroy();
						child.stderr?.destroy();
						settle(() => {
							if (signal?.aborted) reject(new Error("aborted"));
							else if (timedOut) reject(new Error(`timeout:${timeout}`));
							else resolve({ exitCode: code ?? signalExitCode(sig), ...leftRunning(command, child.pid) });
						});
					});
				});
			});
		},
	};
}

/** The prompt rule of the command tools about the session variables. */
export const SESSION_ENV_GUIDELINE =
	"The PI_* environment variables tell you the current session, provider, model and thinking level.";

/** What tells the `bash` tool and its PowerShell twin apart. */
export interface ShellToolIdentity {
	name: string;
	description: string;
	promptSnippet: string;
	promptGuidelines?: string[];
}

export const BASH_IDENTITY: ShellToolIdentity = {
	name: "bash",
	description:
		"Execute a bash command in the current working directory. Returns stdout and stderr combined. Output is " +
		"truncated to the last 2000 lines or 50KB (whichever is hit first); when truncated, the full output is " +
		"saved to a temp file. Optionally provide a timeout in seconds.",
	promptSnippet: "Execute bash commands (ls, grep, find, etc.)",
	promptGuidelines: [SESSION_ENV_GUIDELINE],
};

export function createBashTool(
	cwd: string,
	options: BashToolOptions = {},
): BuiltinTool<typeof bashSchema, BashToolDetails | undefined> {
	return createShellTool(cwd, BASH_IDENTITY, options);
}

/** A command tool over `operations` (by default the local shell) under the given name and description. */
export function createShellTool(
	cwd: string,
	identity: ShellToolIdentity,
	options: BashToolOptions = {},
): BuiltinTool<typeof bashSchema, BashToolDetails | undefined> {
	const operations = options.operations ?? createLocalBashOperations({ shellPath: options.shellPath });
	return {
		name: identity.name,
		label: identity.name,
		description: identity.description,
		parameters: bashSchema,
		promptSnippet: identity.promptSnippet,
		...(identity.promptGuidelines ? { promptGuidelines: [...identity.promptGuidelines] } : {}),
		async execute(_toolCallId, params, signal, onUpdate) {
			const { command, timeout } = params as { command: string; timeout?: number };
			if (signal?.aborted) throw new Error("Command aborted");
			// The environment is copied only when something changes it; otherwise the child inherits ours (cheaper).
			const info = options.sessionInfo?.();
			const customEnv =
				options.env !== undefined || options.spawnHook !== undefined || info !== undefined || inheritsSessionKeys();
			let spawnContext: BashSpawnContext = {
				command: options.commandPrefix ? `${options.commandPrefix}\n${command}` : command,
				cwd,
				env: customEnv ? sessionEnvironment(options.env, info) : process.env,
			};
			if (options.spawnHook) spawnContext = options.spawnHook(spawnContext);

			const collector = new OutputCollector();
			const updates = throttledUpdates(collector, onUpdate);
			let exitCode: number | null = null;
			let background: BackgroundProcess[] | undefined;
			let failure: string | undefined;
			try {
				({ exitCode, background } = await operations.exec(spawnContext.command, spawnContext.cwd, {
					onData: updates.onData,
					signal,
					timeout,
					...(customEnv ? { env: spawnContext.env } : {}),
				}));
			} catch (err) {
				const message = errorMessage(err);
				if (signal?.aborted || message === "aborted") failure = "Command aborted";
				else if (message.startsWith("timeout:")) failure = `Command timed out after ${message.slice(8)} seconds`;
				else throw err;
			} finally {
				updates.stop();
				collector.finish();
			}

			const output = collector.format();
			const note = backgroundNote(background ?? []);
			if (note) output.text = collector.bytes > 0 ? `${output.text}\n\n${note}` : note;
			if (failure) throw new Error(collector.bytes > 0 ? `${output.text}\n\n${failure}` : failure);
			if (exitCode !== 0 && exitCode !== null)
				throw new Error(`${output.text}\n\nCommand exited with code ${exitCode}`);
			const details =
				output.truncation || output.fullOutputPath
					? { truncation: output.truncation, fullOutputPath: output.fullOutputPath }
					: undefined;
			return { content: [{ type: "text", text: output.text }], details };
		},
	};
}

/** Feeds chunks to the collector and sends at most one snapshot per 100 ms (the first one right away). */
function throttledUpdates(
	collector: OutputCollector,
	onUpdate: AgentToolUpdateCallback<BashToolDetails | undefined> | undefined,
): { onData: (data: Buffer) => void; stop: () => void } {
	let last = 0;
	let timer: ReturnType<typeof setTimeout> | undefined;
	let stopped = false;
	onUpdate?.({ content: [], details: undefined });
	const send = () => {
		timer = undefined;
		if (stopped || !onUpdate) return;
		last = Date.now();
		const snap = collector.snapshot();
		onUpdate({
			content: [{ type: "text", text: snap.text }],
			details: { truncation: snap.truncation, fullOutputPath: snap.fullOutputPath },
		});
	};
	return {
		onData(data) {
			collector.push(data);
			if (!onUpdate || timer || stopped) return;
			const wait = UPDATE_INTERVAL_MS - (Date.now() - last);
			if (wait <= 0) send();
			else timer = setTimeout(send, wait);
		},
		stop() {
			stopped = true;
			if (timer) clearTimeout(timer);
		},
	};
}
