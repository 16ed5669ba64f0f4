/**
 * The compiled binary for end-to-end tests. `npm test` builds it first; a lone `bun test` builds it on demand.
 * `runPi` runs it with a private HOME and no inherited pi variables.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");
export const BINARY = join(root, "dist", "pi");

export function ensureBinary(): string {
	if (!existsSync(BINARY)) {
		const build = Bun.spawnSync([process.execPath, join(root, "scripts", "build-binary.ts")], { cwd: root });
		if (build.exitCode !== 0) throw new Error(`building the binary failed:\n${build.stderr.toString()}`);
	}
	return BINARY;
}

export interface RunResult {
	stdout: string;
	stderr: string;
	exitCode: number;
}

export interface RunOptions {
	home: string;
	cwd?: string;
	env?: Record<string, string>;
	binary?: string;
	stdin?: string;
}

/**
 * The binary's environment: ours without pi variables and API keys, HOME set, and TMPDIR inside that HOME, so what
 * the binary or an extension leaves in the temp folder (pi's own examples do) goes when the HOME goes.
 */
function binaryEnv(options: RunOptions): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (value !== undefined && !key.startsWith("PI_") && !key.endsWith("_API_KEY")) env[key] = value;
	}
	const tmp = join(options.home, ".tmp");
	mkdirSync(tmp, { recursive: true });
	return Object.assign(env, { HOME: options.home, TMPDIR: tmp }, options.env);
}

export function runPi(args: string[], options: RunOptions): RunResult {
	const env = binaryEnv(options);
	const proc = Bun.spawnSync([options.binary ?? ensureBinary(), ...args], {
		cwd: options.cwd ?? options.home,
		env,
		stdin: options.stdin === undefined ? "ignore" : Buffer.from(options.stdin),
		stdout: "pipe",
		stderr: "pipe",
	});
	return { stdout: proc.stdout.toString(), stderr: proc.stderr.toString(), exitCode: proc.exitCode ?? -1 };
}

/** Like `runPi`, but async: needed when the test process itself serves the mock LLM the binary talks to. */
export async function runPiAsync(args: string[], options: RunOptions): Promise<RunResult> {
	const env = binaryEnv(options);
	const proc = Bun.spawn([options.binary ?? ensureBinary(), ...args], {
		cwd: options.cwd ?? options.home,
		env,
		stdin: options.stdin === undefined ? "ignore" : Buffer.from(options.stdin),
		stdout: "pipe",
		stderr: "pipe",
	});
	const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	await proc.exited;
	return { stdout, stderr, exitCode: proc.exitCode ?? -1 };
}

/** Writes `<home>/.pi/agent/models.json` with one provider `mock` pointing at `baseUrl`. */
export function writeMockModels(home: string, baseUrl: string, api = "anthropic-messages", modelId = "mock-1"): void {
	const { mkdirSync, writeFileSync } = require("node:fs") as typeof import("node:fs");
	const dir = join(home, ".pi", "agent");
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, "models.json"),
		JSON.stringify({
			providers: {
				mock: {
					baseUrl,
					api,
					apiKey: "mock-key",
					models: [{ id: modelId, reasoning: true, input: ["text", "image"] }],
				},
			},
		}),
	);
}
