/**
 * A local execution environment (pi's `ExecutionEnv`) for the harness-style tools and loaders: the local file
 * system plus a shell that runs `<shell> -c <command>`, captures a bounded view of the combined output and, when
 * asked, spills the complete output to a temp file once the limits are crossed.
 */
import { isAbsolute, join, resolve } from "node:path";
import {
	type Context,
	type ExecutionEnv,
	ExecutionError,
	err,
	ok,
	type Result,
	type ShellExecOptions,
	type ShellExecResult,
} from "../../agent/index.ts";
import { closeSync, errorMessage, openSync, os, writeSync } from "../../util/index.ts";
import { createLocalBashOperations } from "../bash.ts";
import { createLocalFileSystem } from "./local-fs.ts";
import { ShellOutputCapture } from "./output-capture.ts";

export interface LocalExecutionEnvOptions {
	cwd: string;
	/** Shell binary (settings `shellPath`); default: bash, else sh. */
	shellPath?: string;
}

/** Writes the complete output to a temp file, starting with everything received before it was opened. */
class Spill {
	private fd: number | undefined;
	private readonly early: Uint8Array[] = [];
	path: string | undefined;

	write(chunk: Uint8Array): void {
		if (this.fd === undefined) this.early.push(chunk);
		else writeSync(this.fd, chunk);
	}

	open(): string {
		if (this.path) return this.path;
		const id = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
		this.path = join(os().tmpdir(), `pi-bash-${id}.log`);
		this.fd = openSync(this.path, "w");
		for (const chunk of this.early.splice(0)) writeSync(this.fd, chunk);
		return this.path;
	}

	close(): void {
		if (this.fd !== undefined) closeSync(this.fd);
		this.fd = undefined;
	}
}

export function createLocalExecutionEnv(options: LocalExecutionEnvOptions): ExecutionEnv {
	const fileSystem = createLocalFileSystem(options.cwd);
	const operations = createLocalBashOperations({ shellPath: options.shellPath });

	async function exec(
		command: string,
		execOptions: ShellExecOptions | undefined,
		context: Context,
	): Promise<Result<ShellExecResult, ExecutionError>> {
		const signal = context.abortSignal;
		if (signal?.aborted) return err(new ExecutionError("aborted", "Command aborted"));
		const cwd = execOptions?.cwd
			? isAbsolute(execOptions.cwd)
				? execOptions.cwd
				: resolve(options.cwd, execOptions.cwd)
			: options.cwd;
		const inherit = execOptions?.inheritEnv ?? true;
		const env = inherit ? { ...process.env, ...execOptions?.env } : { ...execOptions?.env };
		let capture: ShellOutputCapture;
		try {
			capture = new ShellOutputCapture(execOptions?.capture, context, execOptions?.onUpdate);
		} catch (error) {
			return err(new ExecutionError("unknown", errorMessage(error)));
		}
		const spill = execOptions?.capture?.spill ? new Spill() : undefined;
		try {
			const { exitCode } = await operations.exec(command, cwd, {
				onData: (data) => {
					spill?.write(data);
					capture.push(data);
					if (spill && capture.truncated && !spill.path) capture.setSpillPath(spill.open());
				},
				...(signal ? { signal } : {}),
				...(execOptions?.timeout !== undefined ? { timeout: execOptions.timeout } : {}),
				env,
			});
			capture.finish();
			capture.flush();
			const view = capture.snapshot();
			return ok({
				exitCode: exitCode ?? 1,
				truncation: view.truncation,
				...(view.spillPath === undefined ? {} : { spillPath: view.spillPath }),
				...(view.lastLineBytes === undefined ? {} : { lastLineBytes: view.lastLineBytes }),
			});
		} catch (error) {
			capture.finish();
			capture.flush();
			const message = errorMessage(error);
			if (message === "aborted") return err(new ExecutionError("aborted", "Command aborted"));
			if (message.startsWith("timeout:"))
				return err(new ExecutionError("timeout", `Command timed out after ${execOptions?.timeout} seconds`));
			const code = /shell|No shell/i.test(message) ? "shell_unavailable" : "spawn_error";
			return err(new ExecutionError(code, message, error instanceof Error ? error : undefined));
		} finally {
			capture.dispose();
			spill?.close();
		}
	}

	return { ...fileSystem, exec, cleanup: async () => {} };
}
