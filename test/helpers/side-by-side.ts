/**
 * Runs the same scripted RPC session against pi 0.87.1 itself (Node 22, from the conformance cache) and against our
 * binary, each in its own temp HOME and against its own mock LLM, so a test can compare what the two sent and
 * recorded. `runnablePi()` gives the reason to skip when the cache cannot provide pi.
 */
import { join } from "node:path";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import { RpcClient } from "../../src/modes/rpc/index.ts";
import { type MockLlmServer, startMockLlm } from "../support/mock-llm/index.ts";
import { ensureBinary } from "./binary.ts";
import { makeTempDir, writeTree } from "./tmp.ts";

export type Implementation = "pi" | "ours";

let cached: { node: string; cli: string } | { error: string } | undefined;

/** pi 0.87.1 and its Node, or why they are unavailable. */
export function runnablePi(): { node: string; cli: string } | { error: string } {
	cached ??= ensureRunnablePi();
	return cached;
}

export interface SideRun {
	client: RpcClient;
	server: MockLlmServer;
	home: string;
	cwd: string;
	stop(): Promise<void>;
}

/**
 * Starts `which` in RPC mode with a temp HOME holding `files` (paths relative to HOME; `{{url}}` in a file is
 * replaced by the mock LLM's base URL), its cwd at `<home>/work`.
 */
export async function startSide(
	which: Implementation,
	files: Record<string, string>,
	args: string[],
): Promise<SideRun> {
	const server = startMockLlm();
	const home = makeTempDir(`pi-side-${which}-`);
	const cwd = join(home, "work");
	const filled: Record<string, string> = {};
	for (const [path, text] of Object.entries(files)) filled[path] = text.replaceAll("{{url}}", server.url);
	writeTree(home, { ...filled, "work/.keep": "" });
	const env: Record<string, string> = {
		HOME: home,
		PI_CODING_AGENT_DIR: join(home, ".pi", "agent"),
		TMPDIR: join(home, "work"),
		HTTP_PROXY: "http://127.0.0.1:9",
		HTTPS_PROXY: "http://127.0.0.1:9",
		NO_PROXY: "127.0.0.1,localhost",
	};
	const pi = which === "pi" ? runnablePi() : undefined;
	if (pi && "error" in pi) throw new Error(pi.error);
	const client = new RpcClient({
		...(pi ? { command: pi.node, commandArgs: [], cliPath: pi.cli } : { cliPath: ensureBinary() }),
		cwd,
		env,
		args,
		forwardStderr: false,
		requestTimeout: 60_000,
	});
	await client.start();
	return {
		client,
		server,
		home,
		cwd,
		stop: async () => {
			await client.stop();
			server.stop();
		},
	};
}

/**
 * Runs `body` — the source of an async function `(mod, input) => result` — under pi's Node 22 with `mod` the module
 * at `modulePath` (relative to pi's node_modules, e.g. `@earendil-works/pi-agent-core/dist/index.js`), and returns
 * its result through JSON.
 */
export async function runInPi(modulePath: string, input: unknown, body: string): Promise<any> {
	const pi = runnablePi();
	if ("error" in pi) throw new Error(pi.error);
	const dir = makeTempDir("pi-script-");
	const modules = join(pi.cli, "..", "..", "..", "..");
	await Bun.write(join(dir, "input.json"), JSON.stringify(input));
	await Bun.write(
		join(dir, "run.mjs"),
		`import { readFileSync } from "node:fs";
const mod = await import(${JSON.stringify(join(modules, modulePath))});
const input = JSON.parse(readFileSync(${JSON.stringify(join(dir, "input.json"))}, "utf8"));
const out = await (${body})(mod, input);
process.stdout.write(JSON.stringify(out));`,
	);
	const proc = Bun.spawn([pi.node, join(dir, "run.mjs")], { stdout: "pipe", stderr: "pipe" });
	const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	if ((await proc.exited) !== 0) throw new Error(`pi under node failed: ${stderr}`);
	return JSON.parse(stdout);
}
