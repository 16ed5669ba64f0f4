/**
 * One scripted RPC session with one pi example unit loaded (`--mode rpc -e <unit>`), for conformance-rpc.test.ts.
 * The same script drives pi 0.87.1 itself (Node 22 + its cli.js) and our binary, each in a fresh HOME whose
 * models.json points the `mock` provider at a private mock LLM that answers every request with "Done.":
 *
 *   start → get_state → get_commands → get_available_models → prompt "hello" (until the run settles) → get_state
 *
 * Everything the extension shows through RPC is recorded: command responses, extension UI requests (dialogs are
 * answered `cancelled`), `extension_error` events, the tools the first LLM request offered, and stderr. The
 * result is raw; conformance-rpc-compare.ts normalises and compares it. Children get a dead proxy, so nothing they
 * do can leave the machine.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { PROVIDER_ENV_KEYS } from "../../src/ai/env-keys.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { makeTempDir, writeTree } from "./tmp.ts";

/** What one side recorded, before normalisation. */
export interface RawSession {
	/** Responses by script step (`state`, `commands`, `models`, `prompt`, `stateAfter`); undefined: none came. */
	responses: Record<string, unknown>;
	/** `extension_ui_request` messages in arrival order. */
	ui: Record<string, unknown>[];
	/** `extension_error` events in arrival order. */
	errors: Record<string, unknown>[];
	/** Tool names the first LLM request offered (undefined: no request was made). */
	tools?: string[];
	/** Whether the prompt ran an agent turn (agent_end seen). */
	ran: boolean;
	/** Whether a run started (agent_start seen). */
	started?: boolean;
	/** Lines on stdout that were not JSON. */
	strayStdout: string[];
	stderr: string;
	/** Folders that normalisation replaces by placeholders. */
	places: { home: string; cwd: string; mock: string; examples?: string };
}

const DIALOGS = new Set(["select", "confirm", "input", "editor"]);
const STEP_TIMEOUT_MS = 30_000;
/** pi under Node on a loaded 2-core machine has been seen to take 10 s and more to answer its first command. */
const START_TIMEOUT_MS = 90_000;
/**
 * How long a prompt that started no run (an extension handled it) is given before the script goes on; pi under a
 * loaded machine has needed seconds between accepting a prompt and starting its run.
 */
const NO_RUN_GRACE_MS = 10_000;

/** A dead proxy for anything but loopback. */
const OFFLINE = {
	HTTP_PROXY: "http://127.0.0.1:9",
	HTTPS_PROXY: "http://127.0.0.1:9",
	NO_PROXY: "127.0.0.1,localhost",
};

function childEnv(home: string): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (value !== undefined && !key.startsWith("PI_") && !key.endsWith("_API_KEY")) env[key] = value;
	}
	for (const names of Object.values(PROVIDER_ENV_KEYS)) for (const name of names) delete env[name];
	const tmp = join(home, ".tmp");
	mkdirSync(tmp, { recursive: true });
	return { ...env, ...OFFLINE, HOME: home, TMPDIR: tmp, PI_CODING_AGENT_DIR: join(home, ".pi/agent") };
}

function writeHome(home: string, mockUrl: string): void {
	writeTree(home, {
		".pi/agent/models.json": JSON.stringify({
			providers: {
				mock: {
					baseUrl: mockUrl,
					api: "anthropic-messages",
					apiKey: "mock-key",
					models: [{ id: "mock-1", reasoning: true, input: ["text", "image"] }],
				},
			},
		}),
	});
}

/**
 * Runs the script against `command` (the program and its leading arguments) with `unitPath` loaded.
 * Never throws for what the child does: a step that gets no answer is recorded as missing.
 */
export async function runRpcSession(command: string[], unitPath: string): Promise<RawSession> {
	const server = startMockLlm({ idleTimeoutMs: 60_000 });
	for (let i = 0; i < 20; i++) server.push({ kind: "reply", text: "Done." });
	const home = makeTempDir("pi-rpcconf-home-");
	// A fixed folder name: extensions show the working folder's name (titlebar-spinner).
	const cwd = join(makeTempDir("pi-rpcconf-cwd-"), "project");
	mkdirSync(cwd);
	writeHome(home, server.url);
	const proc = Bun.spawn([...command, "--mode", "rpc", "-e", unitPath, "--provider", "mock", "--model", "mock-1"], {
		cwd,
		env: childEnv(home),
		stdin: "pipe",
		stdout: "pipe",
		stderr: "pipe",
	});
	const session: RawSession = {
		responses: {},
		ui: [],
		errors: [],
		ran: false,
		strayStdout: [],
		stderr: "",
		places: { home, cwd, mock: server.url, examples: dirname(unitPath) },
	};
	const stderr = new Response(proc.stderr).text();
	let ended = false;
	const send = (message: Record<string, unknown>) => {
		if (ended) return;
		try {
			proc.stdin.write(`${JSON.stringify(message)}\n`);
			proc.stdin.flush();
		} catch {
			ended = true;
		}
	};
	const onLine = (line: string) => {
		if (line.trim() === "") return;
		let message: Record<string, unknown>;
		try {
			message = JSON.parse(line) as Record<string, unknown>;
		} catch {
			session.strayStdout.push(line);
			return;
		}
		if (message.type === "response" && typeof message.id === "string") session.responses[message.id] = message;
		else if (message.type === "extension_ui_request") {
			session.ui.push(message);
			if (DIALOGS.has(String(message.method))) send({ type: "extension_ui_response", id: message.id, cancelled: true });
		} else if (message.type === "extension_error") session.errors.push(message);
		else if (message.type === "agent_start") session.started = true;
		else if (message.type === "agent_end") session.ran = true;
	};
	const reading = (async () => {
		const decoder = new TextDecoder();
		let buffer = "";
		for await (const chunk of proc.stdout) {
			buffer += decoder.decode(chunk, { stream: true });
			for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
				onLine(buffer.slice(0, nl));
				buffer = buffer.slice(nl + 1);
			}
		}
		onLine(buffer);
		ended = true;
	})();
	const until = async (check: () => boolean, ms = STEP_TIMEOUT_MS) => {
		const end = Date.now() + ms;
		while (!check() && !ended && Date.now() < end) await Bun.sleep(10);
		return check();
	};
	const step = async (id: string, command: Record<string, unknown>, ms = STEP_TIMEOUT_MS) => {
		send({ id, ...command });
		return until(() => session.responses[id] !== undefined, ms);
	};

	try {
		if (await step("state", { type: "get_state" }, START_TIMEOUT_MS)) {
			await step("commands", { type: "get_commands" });
			await step("models", { type: "get_available_models" });
			const accepted = await step("prompt", { type: "prompt", message: "hello" });
			if (accepted && (session.responses.prompt as { success?: boolean }).success) {
				const started = await until(() => session.started === true || session.ran, NO_RUN_GRACE_MS);
				if (started) await until(() => session.ran);
			}
			await step("stateAfter", { type: "get_state" });
		}
	} finally {
		try {
			proc.stdin.end();
		} catch {
			// Already closed by the child.
		}
		const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(5_000).then(() => false)]);
		if (!exited) proc.kill("SIGKILL");
		await proc.exited;
		await reading;
		session.stderr = await stderr;
		const first = server.requests[0]?.body as { tools?: { name?: string }[] } | undefined;
		if (first) session.tools = (first.tools ?? []).map((tool) => tool.name ?? "");
		server.stop();
	}
	return session;
}
