/**
 * Driving one pi example extension through real turns of the compiled binary against the mock LLM, for
 * conformance-turns.test.ts. A `TurnsEnv` is one case's private world: a mock server, a HOME whose models.json
 * points the `mock` provider (and any built-in provider the example calls by name) at that server, a working
 * folder, and ways to run the binary with the example loaded: print mode (`run`) or RPC mode (`rpc`, which records
 * every event and extension UI request and answers dialogs). A print run that fails or writes to stderr, or an
 * `extension_error` in RPC, fails the case. Readers for what the mock received (Anthropic request bodies) and for
 * the session file complete it. Children get a dead proxy, so nothing they do can leave the machine.
 */
import { chmodSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { PROVIDER_ENV_KEYS } from "../../src/ai/env-keys.ts";
import { type JsonAgentSessionEvent, RpcClient, type RpcExtensionUIRequest } from "../../src/modes/rpc/index.ts";
import { type MockLlmServer, type RecordedRequest, startMockLlm } from "../support/mock-llm/index.ts";
import { ensureBinary, type RunResult, runPiAsync } from "./binary.ts";
import { makeTempDir, writeTree } from "./tmp.ts";

/** What an RPC case answers to a dialog: the request, and the response fields (undefined: no answer). */
export type DialogAnswer = (request: RpcExtensionUIRequest) => Record<string, unknown> | undefined;

export interface RpcRun {
	client: RpcClient;
	events: JsonAgentSessionEvent[];
	ui: RpcExtensionUIRequest[];
	/** Sends a prompt (or an extension command) and waits until the agent settles. */
	turn(message: string): Promise<void>;
	/** Sends an extension command that starts no run; resolves when the command has finished. */
	command(message: string): Promise<void>;
	/** Messages of every `notify` request so far. */
	notices(): string[];
	until(check: () => boolean, what: string): Promise<void>;
}

export interface TurnsEnv {
	server: MockLlmServer;
	home: string;
	cwd: string;
	/** The example's path, as passed to `-e`. */
	ext: string;
	/** Runs `pi -e <ext> --provider mock --model mock-1 <args>` in print mode (add `-p`), with `env` added. */
	run(args: string[], env?: Record<string, string>): Promise<RunResult>;
	/** Starts `pi --mode rpc -e <ext>`, answering dialogs with `answer`; stopped when the case ends. */
	rpc(options?: { answer?: DialogAnswer }): Promise<RpcRun>;
	/** Entries of the most recently written session file under HOME (header first). */
	sessionEntries(): Record<string, any>[];
}

const MODEL_ARGS = ["--provider", "mock", "--model", "mock-1"];

/**
 * models.json: the `mock` provider (models mock-1 and mock-2), plus the built-in providers named in `repoint`
 * re-pointed at the mock with a key. Built-ins left out have no key, so an example using them stops before a request.
 */
function writeModels(home: string, url: string, repoint: string[]): void {
	const key = { apiKey: "mock-key" };
	writeTree(home, {
		".pi/agent/models.json": JSON.stringify({
			providers: {
				mock: {
					baseUrl: url,
					api: "anthropic-messages",
					...key,
					models: ["mock-1", "mock-2"].map((id) => ({ id, reasoning: true, input: ["text", "image"] })),
				},
				...Object.fromEntries(repoint.map((provider) => [provider, { baseUrl: url, ...key }])),
			},
		}),
		// Keep the last turn only, so a compaction always has something to summarise.
		".pi/agent/settings.json": JSON.stringify({ compaction: { keepRecentTokens: 1 } }),
	});
}

/** A dead proxy for anything but loopback: a request that would leave the machine fails at once instead. */
const OFFLINE = {
	HTTP_PROXY: "http://127.0.0.1:9",
	HTTPS_PROXY: "http://127.0.0.1:9",
	NO_PROXY: "127.0.0.1,localhost",
};

/** Environment for RPC children: our HOME, every inherited pi or provider-key variable blanked, offline. */
export function rpcEnv(home: string): Record<string, string> {
	const env: Record<string, string> = {};
	for (const key of Object.keys(process.env)) if (key.startsWith("PI_") || key.endsWith("_API_KEY")) env[key] = "";
	for (const names of Object.values(PROVIDER_ENV_KEYS)) for (const name of names) env[name] = "";
	// The same theme and colour mode whatever terminal the tests run in: dark, 256 colours.
	const colours = { PI_TRUE_COLOR: "0", COLORFGBG: "" };
	return { ...env, ...OFFLINE, ...colours, HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") };
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await Bun.sleep(10);
	}
}

/** Runs `body` in a fresh world for the example at `ext`, tearing down the mock and RPC children after. */
export async function withTurnsEnv(
	ext: string,
	options: { files?: Record<string, string>; repoint?: string[] },
	body: (env: TurnsEnv) => Promise<void>,
): Promise<void> {
	const server = startMockLlm({ idleTimeoutMs: 30_000 });
	const home = makeTempDir("pi-turns-home-");
	const cwd = makeTempDir("pi-turns-cwd-");
	writeModels(home, server.url, options.repoint ?? []);
	writeTree(cwd, options.files ?? {});
	const clients: RpcClient[] = [];
	/** What went wrong outside the case's own assertions: a failing print run, an extension error in RPC. */
	const problems: string[] = [];
	const env: TurnsEnv = {
		server,
		home,
		cwd,
		ext,
		run: async (args, extraEnv = {}) => {
			const result = await runPiAsync(["-e", ext, ...MODEL_ARGS, ...args], {
				home,
				cwd,
				env: { ...OFFLINE, ...extraEnv },
			});
			if (result.exitCode !== 0 || result.stderr !== "")
				problems.push(`pi ${args.join(" ")}: exit ${result.exitCode}, stderr: ${result.stderr.trim()}`);
			return result;
		},
		rpc: async (options = {}) => {
			const client = new RpcClient({
				cliPath: ensureBinary(),
				cwd,
				env: rpcEnv(home),
				args: ["-e", ext, ...MODEL_ARGS],
				forwardStderr: false,
			});
			clients.push(client);
			const events: JsonAgentSessionEvent[] = [];
			const ui: RpcExtensionUIRequest[] = [];
			client.onEvent((event) => {
				events.push(event);
				if ((event as { type: string }).type === "extension_error")
					problems.push(`extension_error: ${JSON.stringify(event)}`);
			});
			client.onExtensionUIRequest((request) => {
				ui.push(request);
				const answer = options.answer?.(request);
				if (answer) client.respondToExtensionUI({ type: "extension_ui_response", id: request.id, ...answer } as never);
			});
			await client.start();
			return {
				client,
				events,
				ui,
				turn: async (message) => {
					const idle = client.waitForIdle(15_000);
					await client.prompt(message);
					await idle;
				},
				command: async (message) => {
					await client.prompt(message);
				},
				notices: () => ui.flatMap((r) => (r.method === "notify" ? [r.message] : [])),
				until,
			};
		},
		sessionEntries: () => sessionEntries(home),
	};
	try {
		await body(env);
		if (problems.length > 0) throw new Error(problems.join("\n"));
	} finally {
		await Promise.all(clients.map((client) => client.stop()));
		server.stop();
	}
}

function sessionEntries(home: string): Record<string, any>[] {
	const root = join(home, ".pi/agent/sessions");
	const files = readdirSync(root, { recursive: true, encoding: "utf8" })
		.filter((f) => f.endsWith(".jsonl"))
		.map((f) => join(root, f));
	const newest = files.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs).at(-1);
	if (!newest) throw new Error(`no session file under ${root}`);
	return readFileSync(newest, "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line) as Record<string, any>);
}

// ---- reading Anthropic request bodies -------------------------------------------------------------------------

type Block = { type: string; text?: string; content?: unknown; tool_use_id?: string; name?: string };
type Body = { system?: string | Block[]; messages: { role: string; content: string | Block[] }[]; tools?: Block[] };

function blocks(content: string | Block[] | unknown): Block[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	return Array.isArray(content) ? (content as Block[]) : [];
}

function textOf(content: unknown): string {
	return blocks(content)
		.filter((b) => b.type === "text")
		.map((b) => b.text ?? "")
		.join("\n");
}

/** The system prompt a request carried. */
export function systemPrompt(request: RecordedRequest | undefined): string {
	return textOf((request?.body as Body | undefined)?.system);
}

/** The text of each user message of a request (tool results excluded), in order. */
export function userTexts(request: RecordedRequest | undefined): string[] {
	const messages = (request?.body as Body | undefined)?.messages ?? [];
	return messages
		.filter((m) => m.role === "user" && blocks(m.content).some((b) => b.type === "text"))
		.map((m) => textOf(m.content));
}

/** The text of every tool result a request carried, in order. */
export function toolResults(request: RecordedRequest | undefined): string[] {
	const messages = (request?.body as Body | undefined)?.messages ?? [];
	return messages.flatMap((m) =>
		blocks(m.content)
			.filter((b) => b.type === "tool_result")
			.map((b) => textOf(b.content)),
	);
}

/** Names of the tools a request offered. */
export function toolNames(request: RecordedRequest | undefined): string[] {
	return ((request?.body as Body | undefined)?.tools ?? []).map((t) => t.name ?? "");
}

// ---- external tools --------------------------------------------------------------------------------------------

/**
 * ripgrep for an example that runs it (`rg --line-number --color=never [--glob G] PATTERN [PATH]`): the real one
 * when installed, else a stand-in over grep written into `<home>/bin` (same output for one file: `N:line`; exit 1
 * when nothing matches). Returns the environment to run with; says in the test output when the stand-in is used.
 */
export function ripgrepEnv(home: string): Record<string, string> {
	if (Bun.which("rg")) return {};
	console.log("ripgrep (rg) is not installed: the truncated-tool turns use a grep-based stand-in");
	const bin = join(home, "bin");
	writeTree(bin, {
		rg: [
			"#!/bin/sh",
			"# Test stand-in for ripgrep: the options pi's truncated-tool example passes, over grep.",
			'glob=""',
			"while [ $# -gt 0 ]; do",
			'\tcase "$1" in',
			"\t\t--line-number | --color=never) shift ;;",
			'\t\t--glob) glob="$2"; shift 2 ;;',
			"\t\t*) break ;;",
			"\tesac",
			"done",
			'pattern="$1"',
			'path="$2"',
			'[ -n "$path" ] || path=.',
			'if [ -d "$path" ]; then',
			'\tif [ -n "$glob" ]; then exec grep -rn --include="$glob" -- "$pattern" "$path"; fi',
			'\texec grep -rn -- "$pattern" "$path"',
			"fi",
			'exec grep -n -- "$pattern" "$path"',
			"",
		].join("\n"),
	});
	chmodSync(join(bin, "rg"), 0o755);
	return { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };
}
