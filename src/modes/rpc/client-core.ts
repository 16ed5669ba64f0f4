/**
 * The process side of `RpcClient`: runs pi in RPC mode as a child process, frames stdin/stdout, correlates
 * responses by id, and hands events to listeners.
 *
 * Contract:
 * - Every request sends one command with a fresh `id` and resolves with that response's data. A `success:false`
 *   response rejects with an `RpcError` carrying the server's text (pi's client ignores failures of commands
 *   without data; we report them all).
 * - A request rejects when its timeout passes (default 30 s) or when the process ends; later calls reject at once.
 * - Every stdout record that is not the response to a pending request (session events, extension UI requests,
 *   `extension_error`) goes to the `onEvent` listeners, in stdout order; extension UI requests also go to the
 *   `onExtensionUIRequest` listeners. Lines that are not JSON are ignored (stdout is protocol only).
 * - `stop()` closes stdin first (the server's orderly shutdown), then escalates to SIGTERM and SIGKILL.
 */
import type { ChildProcess } from "node:child_process";
import { childProcess } from "../../util/index.ts";
import { attachJsonlLineReader, serializeJsonLine } from "./jsonl.ts";
import type {
	JsonAgentSessionEvent,
	RpcCommand,
	RpcExtensionUIRequest,
	RpcExtensionUIResponse,
	RpcResponse,
	RpcResponseData,
	RpcSuccessResponse,
} from "./types.ts";

export interface RpcClientOptions {
	/**
	 * The pi executable (default: `pi` on PATH). A path ending in .js/.mjs/.cjs/.ts is run with the current
	 * runtime (`process.execPath`), as pi's client runs `node dist/cli.js`. With `command`, it is passed to that
	 * command as its first argument after `commandArgs`.
	 */
	cliPath?: string;
	/** Executable to spawn instead of `cliPath` (e.g. `process.execPath` to run a script under bun). */
	command?: string;
	/** Arguments for `command`, placed before `cliPath`. */
	commandArgs?: string[];
	/** Working directory of the agent. */
	cwd?: string;
	/** Extra environment variables, over the current environment. */
	env?: Record<string, string>;
	/** `--provider` */
	provider?: string;
	/** `--model` */
	model?: string;
	/** More CLI arguments, after `--mode rpc`. */
	args?: string[];
	/** Default per-request timeout in ms (default 30000). */
	requestTimeout?: number;
	/** How long `start()` watches for an immediate exit before resolving, in ms (default 100). */
	startupDelay?: number;
	/** Copy the child's stderr to this process's stderr as it arrives (default true). */
	forwardStderr?: boolean;
}

export type RpcEventListener = (event: JsonAgentSessionEvent) => void;
export type RpcExtensionUIListener = (request: RpcExtensionUIRequest) => void;

/** Per-request options of `request()`. */
export interface RpcRequestOptions {
	/** Timeout in ms; default: the client's `requestTimeout`. */
	timeout?: number;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A command as `request()` takes it: the client adds the `id`. */
export type RpcCommandInput = DistributiveOmit<RpcCommand, "id">;

/** A `success:false` response, or a request that could not complete (timeout, process exit). */
export class RpcError extends Error {
	constructor(
		message: string,
		/** The command type the request was for. */
		readonly command: string,
		/** The failure response, when the server sent one. */
		readonly response?: RpcResponse,
	) {
		super(message);
		this.name = "RpcError";
	}
}

interface PendingRequest {
	command: string;
	resolve: (response: RpcResponse) => void;
	reject: (error: Error) => void;
	timer: ReturnType<typeof setTimeout>;
}

const SCRIPT_RE = /\.(?:[cm]?js|[cm]?ts)$/;
const STDERR_IN_ERRORS = 2000;

/** Process, framing and correlation; `RpcClient` adds one typed method per command. */
export class RpcClientCore {
	private child: ChildProcess | null = null;
	private detachStdout: (() => void) | null = null;
	private readonly eventListeners: RpcEventListener[] = [];
	private readonly uiListeners: RpcExtensionUIListener[] = [];
	private readonly pending = new Map<string, PendingRequest>();
	private nextId = 0;
	private stderr = "";
	private exitError: Error | null = null;
	private exited: Promise<void> = Promise.resolve();
	/** Called once when the process ends or the client stops (waits for `agent_settled` end early). */
	private readonly failureListeners = new Set<(error: Error) => void>();

	constructor(protected readonly options: RpcClientOptions = {}) {}

	/** Starts the agent process. Rejects when it cannot be spawned or exits during the startup delay. */
	async start(): Promise<void> {
		if (this.child) throw new Error("Client already started");
		this.exitError = null;
		this.stderr = "";
		const [file, argv] = this.commandLine();
		const child = childProcess().spawn(file, argv, {
			cwd: this.options.cwd,
			env: { ...process.env, ...this.options.env },
			stdio: ["pipe", "pipe", "pipe"],
		});
		this.child = child;
		const forward = this.options.forwardStderr ?? true;
		child.stderr?.on("data", (data: Buffer) => {
			this.stderr += data.toString();
			if (forward) process.stderr.write(data);
		});
		this.exited = new Promise<void>((resolve) => {
			// `close` comes after stdout is drained, so responses written just before exit are still delivered.
			child.once("close", (code, signal) => {
				if (this.child === child) this.fail(this.exitErrorFor(code, signal));
				resolve();
			});
			child.once("error", (error) => {
				if (this.child === child) this.fail(new Error(`Agent process error: ${error.message}${this.stderrNote()}`));
				if (child.pid === undefined) resolve();
			});
		});
		child.stdin?.on("error", (error) => {
			if (this.child === child) this.fail(this.exitError ?? new Error(`Agent process stdin error: ${error.message}`));
		});
		this.detachStdout = attachJsonlLineReader(child.stdout!, (line) => this.handleLine(line));

		const delay = this.options.startupDelay ?? 100;
		await new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, delay);
			void this.exited.then(() => {
				clearTimeout(timer);
				resolve();
			});
		});
		if (this.exitError) {
			// Leave the client restartable.
			this.detachStdout?.();
			this.detachStdout = null;
			this.child = null;
			throw this.exitError;
		}
	}

	/** Stops the agent: closes stdin, then SIGTERM after 1 s, then SIGKILL after 1 s more. */
	async stop(): Promise<void> {
		const child = this.child;
		if (!child) return;
		const exited = this.exited;
		this.fail(new Error("Client stopped"));
		if (child.exitCode === null && child.signalCode === null) {
			child.stdin?.end();
			const escalate = (signal: NodeJS.Signals, ms: number) =>
				new Promise<boolean>((resolve) => {
					const timer = setTimeout(() => {
						child.kill(signal);
						resolve(false);
					}, ms);
					void exited.then(() => {
						clearTimeout(timer);
						resolve(true);
					});
				});
			if (!(await escalate("SIGTERM", 1000))) await escalate("SIGKILL", 1000);
		}
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
		this.detachStdout?.();
		this.detachStdout = null;
		this.child = null;
	}

	/** Subscribes to stdout records (session events and RPC-only records). Returns the unsubscribe function. */
	onEvent(listener: RpcEventListener): () => void {
		this.eventListeners.push(listener);
		return () => removeFrom(this.eventListeners, listener);
	}

	/** Subscribes to extension UI requests; answer dialogs with `respondToExtensionUI`. */
	onExtensionUIRequest(listener: RpcExtensionUIListener): () => void {
		this.uiListeners.push(listener);
		return () => removeFrom(this.uiListeners, listener);
	}

	/** Answers an extension dialog (`select`, `confirm`, `input`, `editor`). No response follows. */
	respondToExtensionUI(response: RpcExtensionUIResponse): void {
		this.write(response);
	}

	/** Everything the agent wrote to stderr so far. */
	getStderr(): string {
		return this.stderr;
	}

	/** The child's pid while running. */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	/**
	 * Sends one command and resolves with its success response; rejects with `RpcError` on `success:false`,
	 * on timeout, or when the process ends first.
	 */
	request<C extends RpcCommandInput>(
		command: C,
		options: RpcRequestOptions = {},
	): Promise<RpcSuccessResponse<C["type"]>> {
		const id = `req_${++this.nextId}`;
		const type = (command as { type: string }).type;
		return new Promise((resolve, reject) => {
			try {
				this.write({ ...command, id });
			} catch (error) {
				reject(error);
				return;
			}
			const timeout = options.timeout ?? this.options.requestTimeout ?? 30_000;
			const timer = setTimeout(() => {
				this.pending.delete(id);
				reject(new RpcError(`Timeout waiting for response to ${type}${this.stderrNote()}`, type));
			}, timeout);
			this.pending.set(id, {
				command: type,
				timer,
				reject,
				resolve: (response) => {
					if (response.success) resolve(response as RpcSuccessResponse<C["type"]>);
					else reject(new RpcError(response.error, type, response));
				},
			});
		});
	}

	// ---- run helpers -------------------------------------------------------------------------------------------

	/**
	 * Resolves at the next `agent_settled`. Call it only while a run is active (or subscribe first). Rejects on
	 * timeout, when the process ends, or when `signal` aborts.
	 */
	async waitForIdle(timeout = 60_000, options: { signal?: AbortSignal } = {}): Promise<void> {
		await this.collectUntilSettled(timeout, false, options.signal);
	}

	/** Collects every event up to and including the next `agent_settled` (rejects like `waitForIdle`). */
	collectEvents(timeout = 60_000, options: { signal?: AbortSignal } = {}): Promise<JsonAgentSessionEvent[]> {
		return this.collectUntilSettled(timeout, true, options.signal);
	}

	// ---- internals ---------------------------------------------------------------------------------------------

	protected async data<C extends RpcCommandInput>(command: C): Promise<RpcResponseData<C["type"]>> {
		const response = await this.request(command);
		return (response as { data?: unknown }).data as RpcResponseData<C["type"]>;
	}

	private collectUntilSettled(
		timeout: number,
		keep: boolean,
		signal: AbortSignal | undefined,
	): Promise<JsonAgentSessionEvent[]> {
		return new Promise((resolve, reject) => {
			const events: JsonAgentSessionEvent[] = [];
			const aborted = () => new Error("Waiting for the agent to settle was aborted");
			const onAbort = () => settle(aborted());
			const settle = (error?: Error) => {
				clearTimeout(timer);
				unsubscribe();
				this.failureListeners.delete(settle);
				signal?.removeEventListener("abort", onAbort);
				if (error) reject(error);
				else resolve(events);
			};
			if (this.exitError) {
				reject(this.exitError);
				return;
			}
			if (signal?.aborted) {
				reject(aborted());
				return;
			}
			const timer = setTimeout(
				() => settle(new Error(`Timeout waiting for the agent to settle${this.stderrNote()}`)),
				timeout,
			);
			const unsubscribe = this.onEvent((event) => {
				if (keep) events.push(event);
				if (event.type === "agent_settled") settle();
			});
			// A process that dies mid-run never settles: fail now rather than at the timeout.
			this.failureListeners.add(settle);
			signal?.addEventListener("abort", onAbort);
		});
	}

	private commandLine(): [string, string[]] {
		const { cliPath, command, commandArgs = [], provider, model, args = [] } = this.options;
		const rpcArgs = ["--mode", "rpc"];
		if (provider) rpcArgs.push("--provider", provider);
		if (model) rpcArgs.push("--model", model);
		rpcArgs.push(...args);
		if (command) return [command, [...commandArgs, ...(cliPath ? [cliPath] : []), ...rpcArgs]];
		if (cliPath && SCRIPT_RE.test(cliPath)) return [process.execPath, [cliPath, ...rpcArgs]];
		return [cliPath ?? "pi", rpcArgs];
	}

	private write(record: object): void {
		const child = this.child;
		if (this.exitError && child) throw this.exitError;
		if (!child?.stdin) throw new Error("Client not started");
		if (child.stdin.destroyed || !child.stdin.writable) {
			throw new Error(`Agent process stdin is not writable${this.stderrNote()}`);
		}
		child.stdin.write(serializeJsonLine(record));
	}

	private handleLine(line: string): void {
		let record: { type?: unknown; id?: unknown };
		try {
			record = JSON.parse(line);
		} catch {
			return;
		}
		if (typeof record !== "object" || record === null) return;
		if (record.type === "response" && typeof record.id === "string") {
			const pending = this.pending.get(record.id);
			if (pending) {
				this.pending.delete(record.id);
				clearTimeout(pending.timer);
				pending.resolve(record as RpcResponse);
				return;
			}
		}
		if (record.type === "extension_ui_request") {
			for (const listener of [...this.uiListeners]) this.notify(listener, record as RpcExtensionUIRequest);
		}
		for (const listener of [...this.eventListeners]) this.notify(listener, record as JsonAgentSessionEvent);
	}

	/** Calls one listener; a throwing listener is reported on stderr and does not stop the others. */
	private notify<T>(listener: (value: T) => void, value: T): void {
		try {
			listener(value);
		} catch (error) {
			process.stderr.write(`RpcClient: a listener threw: ${error instanceof Error ? error.stack : String(error)}\n`);
		}
	}

	/** Rejects every pending request with `error` and refuses new ones. */
	private fail(error: Error): void {
		this.exitError ??= error;
		for (const pending of this.pending.values()) {
			clearTimeout(pending.timer);
			pending.reject(this.exitError);
		}
		this.pending.clear();
		for (const listener of [...this.failureListeners]) listener(this.exitError);
	}

	private exitErrorFor(code: number | null, signal: NodeJS.Signals | null): Error {
		return new Error(`Agent process exited (code=${code} signal=${signal})${this.stderrNote()}`);
	}

	private stderrNote(): string {
		const text = this.stderr.trim();
		if (!text) return "";
		return `. Stderr: ${text.length > STDERR_IN_ERRORS ? `…${text.slice(-STDERR_IN_ERRORS)}` : text}`;
	}
}

function removeFrom<T>(list: T[], item: T): void {
	const index = list.indexOf(item);
	if (index !== -1) list.splice(index, 1);
}
