/**
 * Extension event semantics through the binary, as pi 0.87.1 has them: hooks a handler subscribes to after
 * start-up still run; `input` carries its source (print: interactive, RPC: rpc, `pi.sendUserMessage`: extension)
 * and the streaming behaviour of a queued message; a never-resolving `input` handler is abandoned by abort;
 * `turn_start` counts turns; `sendMessage` delivery (`nextTurn`, no trigger while streaming); a busy
 * `sendUserMessage` and a throwing RPC command are reported as `extension_error`; `before_agent_start` and
 * `ctx.getSystemPromptOptions()` describe the system prompt.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVENT_NAMES } from "../../src/extensions/index.ts";
import { type JsonAgentSessionEvent, RpcClient } from "../../src/modes/rpc/index.ts";
import { ensureBinary, runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { loggedLines, makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());
const clients: RpcClient[] = [];
afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.stop()));
});

/** An extension that appends one JSON line per observation to `log.jsonl` in the working folder. */
const LOGGER = `
import { appendFileSync } from "node:fs";
export const log = (value) => appendFileSync(process.cwd() + "/log.jsonl", JSON.stringify(value) + "\\n");
`;

function setup(extension: string) {
	const home = makeTempDir("pi-sem-home-");
	writeMockModels(home, server.url);
	const cwd = makeTempDir("pi-sem-cwd-");
	writeTree(cwd, { "log.ts": LOGGER, "ext.ts": extension, "victim.txt": "still here\n" });
	return { home, cwd, env: { HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") } };
}

const logged = loggedLines;

async function rpc(s: ReturnType<typeof setup>): Promise<{ client: RpcClient; events: JsonAgentSessionEvent[] }> {
	const client = new RpcClient({
		cliPath: ensureBinary(),
		cwd: s.cwd,
		env: s.env,
		args: ["-e", "./ext.ts", "--no-session"],
		forwardStderr: false,
	});
	clients.push(client);
	const events: JsonAgentSessionEvent[] = [];
	client.onEvent((event) => events.push(event));
	await client.start();
	return { client, events };
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await Bun.sleep(5);
	}
}

function userTexts(body: { messages: { role: string; content: unknown }[] }): string[] {
	return body.messages.flatMap((m) =>
		typeof m.content === "string"
			? [`${m.role}:${m.content}`]
			: (m.content as { type: string; text?: string }[])
					.filter((b) => b.type === "text")
					.map((b) => `${m.role}:${b.text}`),
	);
}

describe("extension semantics (binary)", () => {
	test("handlers subscribed in session_start still run: a late tool_call blocks, turn_start counts turns", async () => {
		const s = setup(`
import { log } from "./log.ts";
export default function (pi) {
	pi.on("session_start", async () => {
		pi.on("tool_call", async (event) => event.toolName === "bash" ? { block: true, reason: "late block" } : undefined);
		pi.on("turn_start", async (event) => log({ turn: event.turnIndex }));
		pi.on("input", async (event) => { log({ input: event.text, source: event.source }); });
	});
}
`);
		server.push(
			{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "rm victim.txt" } }] },
			{ kind: "reply", text: "done" },
		);
		const run = await runPiAsync(["-e", "./ext.ts", "--no-session", "-p", "delete it"], s);
		expect(run.stdout).toBe("done\n");
		expect(readFileSync(join(s.cwd, "victim.txt"), "utf8")).toBe("still here\n");
		const toolResult = JSON.stringify(server.requests.at(-1)?.body.messages);
		expect(toolResult).toContain("late block");
		expect(logged(s.cwd)).toEqual([{ input: "delete it", source: "interactive" }, { turn: 0 }, { turn: 1 }]);
	});

	test("input sources in RPC: prompt rpc, queued steer with its behaviour, sendUserMessage extension", async () => {
		const s = setup(`
import { log } from "./log.ts";
export default function (pi) {
	pi.on("input", async (event) => { log({ input: event.text, source: event.source, behavior: event.streamingBehavior ?? null }); });
	pi.registerCommand("ask", { handler: async (args) => pi.sendUserMessage("from extension: " + args) });
}
`);
		const { client, events } = await rpc(s);
		server.push(
			{ kind: "reply", text: "slow", frameDelayMs: 30, toolCalls: [{ name: "bash", arguments: { command: "true" } }] },
			{ kind: "reply", text: "after steer" },
		);
		await client.prompt("first");
		await until(() => events.some((e) => e.type === "message_update"), "streaming");
		await client.steer("turn left");
		await until(() => events.some((e) => e.type === "agent_settled"), "settled");
		events.length = 0;
		server.push({ kind: "reply", text: "extension reply" });
		await client.prompt("/ask hi");
		await until(() => events.some((e) => e.type === "agent_settled"), "settled again");
		expect(logged(s.cwd)).toEqual([
			{ input: "first", source: "rpc", behavior: null },
			{ input: "turn left", source: "rpc", behavior: "steer" },
			{ input: "from extension: hi", source: "extension", behavior: null },
		]);
		expect(await client.getLastAssistantText()).toBe("extension reply");
	});

	test("a never-resolving input handler is abandoned by abort; the next prompt works", async () => {
		const s = setup(`
let first = true;
export default function (pi) {
	pi.on("input", async () => {
		if (first) { first = false; return new Promise(() => {}); }
	});
}
`);
		const { client, events } = await rpc(s);
		const before = server.requests.length;
		const accepted = client.prompt("stuck");
		await Bun.sleep(100);
		expect((await client.getState()).isStreaming).toBe(true);
		await client.abort();
		await expect(accepted).resolves.toBeUndefined();
		expect((await client.getState()).isStreaming).toBe(false);
		expect(server.requests.length).toBe(before);
		expect((events as { type: string; event?: string }[]).find((e) => e.type === "extension_error")).toMatchObject({
			event: "input",
		});
		server.push({ kind: "reply", text: "unstuck" });
		await client.promptAndWait("again");
		expect(await client.getLastAssistantText()).toBe("unstuck");
	});

	test("sendMessage: nextTurn waits for the next prompt; without a trigger while streaming it lands after the turn", async () => {
		const s = setup(`
export default function (pi) {
	pi.registerCommand("later", { handler: async () => pi.sendMessage({ customType: "note", content: "next-turn note" }, { deliverAs: "nextTurn" }) });
	pi.on("tool_execution_start", async () => {
		pi.sendMessage({ customType: "quiet", content: "quiet note" }, { triggerTurn: false });
	});
}
`);
		const { client } = await rpc(s);
		await client.prompt("/later");
		expect(await client.getMessages()).toEqual([]);
		const first = server.requests.length;
		server.push(
			{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "true" } }] },
			{ kind: "reply", text: "ok" },
		);
		await client.promptAndWait("go");
		const sent = userTexts(server.requests[first]?.body);
		expect(sent).toEqual(["user:go", "user:next-turn note"]);
		const roles = (await client.getMessages()).map((m) => `${m.role}${"customType" in m ? `:${m.customType}` : ""}`);
		expect(roles).toEqual(["system", "user", "custom:note", "assistant", "toolResult", "custom:quiet", "assistant"]);
	});

	test("errors as extension_error: a busy sendUserMessage without deliverAs, a throwing RPC command (still success)", async () => {
		const s = setup(`
export default function (pi) {
	pi.on("tool_execution_start", async () => { pi.sendUserMessage("too early"); });
	pi.registerCommand("boom", { handler: async () => { throw new Error("boom failed"); } });
}
`);
		const { client, events } = await rpc(s);
		server.push(
			{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "true" } }] },
			{ kind: "reply", text: "ok" },
		);
		await client.promptAndWait("go");
		await client.prompt("/boom");
		await until(() => events.filter((e) => (e as { type: string }).type === "extension_error").length >= 2, "errors");
		const errors = (events as { type: string }[]).filter((e) => e.type === "extension_error");
		expect(errors).toEqual([
			{
				type: "extension_error",
				extensionPath: "<runtime>",
				event: "send_user_message",
				error: expect.stringContaining("Agent is already processing"),
			},
			{ type: "extension_error", extensionPath: "command:boom", event: "command", error: "boom failed" },
		] as never);
	});

	test("withSession gets the new session's context with sendUserMessage; resources_discover after reload; scopedModels", async () => {
		const s = setup(`
import { log } from "./log.ts";
export default function (pi) {
	pi.on("resources_discover", async (event) => { log({ discover: event.reason }); return {}; });
	pi.on("session_start", async (event, ctx) => log({ start: event.reason, scoped: ctx.scopedModels.map((m) => m.model.id + ":" + (m.thinkingLevel ?? "-")) }));
	pi.registerCommand("handoff", { handler: async (_args, ctx) => {
		await ctx.newSession({ withSession: async (next) => {
			log({ fresh: next.sessionManager.getEntries().filter((e) => e.type === "message").length });
			await next.sendUserMessage("continue in the new session");
			log({ after: next.sessionManager.getEntries().filter((e) => e.type === "message").length });
		} });
	} });
}
`);
		server.push({ kind: "reply", text: "new session reply" });
		const run = await runPiAsync(
			["-e", "./ext.ts", "--no-session", "--models", "mock-1:high", "-p", "/handoff", "/reload"],
			s,
		);
		expect(run.stderr).toBe("");
		expect(logged(s.cwd)).toEqual([
			{ start: "startup", scoped: ["mock-1:high"] },
			{ discover: "startup" },
			{ start: "new", scoped: ["mock-1:high"] },
			{ discover: "startup" },
			{ fresh: 0 },
			// The new session's transcript: its prompt and tools (a system message), the user message, the reply.
			{ after: 3 },
			{ start: "reload", scoped: ["mock-1:high"] },
			{ discover: "reload" },
		]);
		expect(userTexts(server.requests.at(-1)?.body)).toEqual(["user:continue in the new session"]);
	});

	test("a failing pi.events listener is reported once the session runs; the emitter goes on", async () => {
		const s = setup(`
import { log } from "./log.ts";
export default function (pi) {
	pi.events.on("ping", () => { throw new Error("listener broke"); });
	pi.events.on("ping", (data) => log({ got: data }));
	pi.registerCommand("ping", { handler: async () => { pi.events.emit("ping", 42); log({ emitted: true }); } });
}
`);
		const run = await runPiAsync(["-e", "./ext.ts", "--no-session", "-p", "/ping"], s);
		expect(run.exitCode).toBe(0);
		expect(run.stderr).toBe("Extension error (<event-bus>, pi.events:ping): listener broke\n");
		expect(logged(s.cwd)).toEqual([{ got: 42 }, { emitted: true }]);
	});

	test("a timer an extension leaves running does not keep pi alive after the run", async () => {
		const s = setup(`
export default function (pi) {
	setInterval(() => {}, 1000);
	pi.registerCommand("noop", { handler: async () => {} });
}
`);
		const started = Date.now();
		const run = await runPiAsync(["-e", "./ext.ts", "--no-session", "-p", "/noop"], s);
		expect(run.exitCode).toBe(0);
		expect(Date.now() - started).toBeLessThan(4000);
	});

	test("one turn with a tool call fires every event in pi's order", async () => {
		const s = setup(`
import { appendFileSync } from "node:fs";
const NAMES = ${JSON.stringify(EVENT_NAMES)};
export default function (pi) {
	for (const name of NAMES) {
		pi.on(name, async (event) => {
			const role = event?.message?.role;
			appendFileSync(process.cwd() + "/order.log", name + (role ? ":" + role : "") + "\\n");
		});
	}
}
`);
		server.push(
			{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
			{ kind: "reply", text: "done" },
		);
		const run = await runPiAsync(["-e", "./ext.ts", "--no-session", "-p", "go"], s);
		expect(run.stderr).toBe("");
		const order = readFileSync(join(s.cwd, "order.log"), "utf8")
			.trim()
			.split("\n")
			// Streamed updates repeat; one of each run is enough to place them.
			.filter((name, i, all) => !(name.includes("_update") && all[i - 1] === name));
		const request = [
			"context",
			"context_with_system",
			"before_provider_request",
			"before_provider_headers",
			"after_provider_response",
		];
		expect(order).toEqual([
			"session_start",
			"resources_discover",
			"input",
			"before_agent_start",
			"agent_start",
			"turn_start",
			// The first request of a session declares the prompt and tools in the transcript (pi 0.86+).
			"message_start:system",
			"message_end:system",
			"message_start:user",
			"message_end:user",
			...request,
			"message_start:assistant",
			"message_update:assistant",
			"message_end:assistant",
			"tool_execution_start",
			"tool_call",
			"tool_execution_update",
			"tool_result",
			"tool_execution_end",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end:assistant",
			"turn_start",
			...request,
			"message_start:assistant",
			"message_update:assistant",
			"message_end:assistant",
			"turn_end:assistant",
			"agent_end",
			"agent_before_settle",
			"agent_settled",
			"session_shutdown",
		]);
	});

	test("before_agent_start and ctx.getSystemPromptOptions describe the system prompt", async () => {
		const s = setup(`
import { log } from "./log.ts";
export default function (pi) {
	pi.on("before_agent_start", async (event, ctx) => {
		const o = event.systemPromptOptions;
		log({ cwd: o.cwd === ctx.cwd, tools: o.selectedTools, snippet: typeof o.toolSnippets.read, prompt: event.systemPrompt.includes(ctx.cwd) });
	});
	pi.registerCommand("opts", { handler: async (_a, ctx) => log({ command: ctx.getSystemPromptOptions().selectedTools }) });
}
`);
		server.push({ kind: "reply", text: "ok" });
		const run = await runPiAsync(["-e", "./ext.ts", "--no-session", "--tools", "read,ls", "-p", "hi", "/opts"], s);
		expect(run.stderr).toBe("");
		expect(logged(s.cwd)).toEqual([
			{ cwd: true, tools: ["read", "ls"], snippet: "string", prompt: true },
			{ command: ["read", "ls"] },
		]);
	});
});
