/**
 * The default `CommandRunner`: spawns a subprocess (the install child, git) with Bun's spawn, collects its output,
 * and kills it when it outlives `timeoutMs`. A command that cannot be started (not on PATH) rejects with the spawn
 * error (`code: "ENOENT"`), so callers can say what is missing.
 */
import type { CommandRunner } from "./types.ts";

/** Ten minutes: a large first install over a slow network still finishes; a hung child does not hang pi. */
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

export const spawnRunner: CommandRunner = {
	async run(command, args, options) {
		const env: Record<string, string> = {};
		for (const [key, value] of Object.entries(options.env ?? process.env)) if (value !== undefined) env[key] = value;
		const child = Bun.spawn([command, ...args], {
			cwd: options.cwd,
			env,
			stdin: "ignore",
			stdout: "pipe",
			stderr: "pipe",
		});
		const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
		try {
			const [stdout, stderr, code] = await Promise.all([
				new Response(child.stdout).text(),
				new Response(child.stderr).text(),
				child.exited,
			]);
			return { code: child.signalCode ? 128 : code, stdout, stderr };
		} finally {
			clearTimeout(timer);
		}
	},
};

/** Whether an error is "the command does not exist". */
export const isMissingCommand = (error: unknown): boolean =>
	typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";
