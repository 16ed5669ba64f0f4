/** `pi.exec(command, args, options)`: run a program without a shell and collect its output. Never rejects. */
import { childProcess, errorMessage } from "../util/index.ts";
import type { ExecOptions, ExecResult } from "./types.ts";

export function execCommand(command: string, args: string[], options: ExecOptions = {}): Promise<ExecResult> {
	return new Promise((resolvePromise) => {
		let stdout = "";
		let stderr = "";
		let killed = false;
		let settled = false;
		const finish = (code: number) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			options.signal?.removeEventListener("abort", onAbort);
			resolvePromise({ stdout, stderr, code, killed });
		};
		const child = childProcess().spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
		const kill = () => {
			killed = true;
			child.kill("SIGKILL");
		};
		const onAbort = () => kill();
		const timer = options.timeout && options.timeout > 0 ? setTimeout(kill, options.timeout) : undefined;
		if (options.signal?.aborted) kill();
		else options.signal?.addEventListener("abort", onAbort, { once: true });
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		child.on("error", (error) => {
			stderr += errorMessage(error);
			finish(127);
		});
		child.on("close", (code) => finish(code ?? (killed ? 137 : 1)));
	});
}
