/**
 * A user's extension misbehaving in RPC mode: pi keeps serving and says which extension, event, file and line.
 * Handlers that throw in every event of the event table (one `extension_error` each, with `location`), writes to
 * stdout from every place an extension can make them (only protocol lines reach stdout), a syntax error and missing
 * imports (one stderr line with file, line and column; the other extensions and the session go on), and
 * `process.exit` at load and in a handler (the extension's exit code, as pi 0.87.1; the session file keeps every
 * entry written before). A `tool_call` handler that never settles: abort answers, and a reload (an extension
 * command calling `ctx.reload()`; RPC has no built-in `/reload`, as in pi) loads the extensions again. More handlers
 * that never settle: `hanging-hook.test.ts`; the interactive mode: `extension-tui.test.ts`.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EVENT_NAMES } from "../../src/extensions/events.ts";
import { type MockLlmServer, startMockLlm } from "../support/mock-llm/index.ts";
import { type RpcProcess, startRpcProcess } from "./rpc-process.ts";

let server: MockLlmServer;
const mock = () => {
	server = startMockLlm();
	return server;
};
afterEach(() => server?.stop());

/** Line 1 is the factory's; the handler of EVENT_NAMES[i] is on line i + 2. */
const THROWER = `export default function (pi) {\n${EVENT_NAMES.map((e) => `  pi.on(${JSON.stringify(e)}, () => { throw new Error("boom in ${e}"); });`).join("\n")}\n}\n`;

/** Events the RPC scenario below does not reach (no tree navigation, dialog or compaction in it). */
const NOT_REACHED = new Set([
	"project_trust",
	"session_before_compact",
	"session_compact",
	"session_before_tree",
	"session_tree",
	"cache_warming_decision",
	"ui_prompt_start",
	"ui_prompt_end",
	"tool_execution_update",
	"tool_result",
	"session_fork",
]);

async function command(pi: RpcProcess, record: Record<string, unknown>) {
	pi.send(record);
	return pi.waitFor((r) => r.type === "response" && r.id === record.id, 15_000);
}

function sessionText(home: string): string {
	const dir = join(home, ".pi/agent/sessions");
	const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.name.endsWith(".jsonl"));
	const text = files.map((f) => readFileSync(join(f.parentPath, f.name), "utf8")).join("");
	for (const line of text.trimEnd().split("\n")) JSON.parse(line);
	return text;
}

test("a handler that throws in every event: one extension_error each naming extension, event, file and line", async () => {
	mock().push(
		{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
		{ kind: "reply", text: "done" },
	);
	const pi = startRpcProcess({ mockUrl: server.url, files: { "thrower.ts": THROWER }, args: ["-e", "thrower.ts"] });
	await command(pi, { id: "p", type: "prompt", message: "go" });
	await pi.waitFor((r) => r.type === "agent_settled", 15_000);
	await command(pi, { id: "m", type: "set_model", provider: "mock", modelId: "mock-1" });
	await command(pi, { id: "t", type: "cycle_thinking_level" });
	await command(pi, { id: "n", type: "set_session_name", name: "named" });
	expect(await command(pi, { id: "b", type: "bash", command: "echo b" })).toMatchObject({ success: false });
	await command(pi, { id: "c", type: "compact" });
	const forkable = await command(pi, { id: "fm", type: "get_fork_messages" });
	await command(pi, { id: "f", type: "fork", entryId: forkable.data.messages[0].entryId });
	await command(pi, { id: "new", type: "new_session" });
	expect(await command(pi, { id: "s", type: "get_state" })).toMatchObject({ success: true });
	pi.end();
	expect(await pi.exit(6_000)).toBe(0);

	const errors = pi.records.filter((r) => r.type === "extension_error");
	for (const e of errors) {
		const line = EVENT_NAMES.indexOf(e.event) + 2;
		expect(e).toMatchObject({ error: `boom in ${e.event}` });
		expect(e.extensionPath).toEndWith("/thrower.ts");
		expect(e.location).toMatch(new RegExp(`/thrower\\.ts:${line}:\\d+$`));
	}
	const reached = new Set(errors.map((e) => e.event));
	expect(EVENT_NAMES.filter((e) => !reached.has(e) && !NOT_REACHED.has(e))).toEqual([]);
	expect(pi.records.filter((r) => r.type === "<not json>")).toEqual([]);
	expect(sessionText(pi.home)).toContain('"go"');
}, 45_000);

test("stdout writes from an extension (load, factory, handler, tool, timer) never reach the protocol", async () => {
	const noisy = [
		"console.log('LOAD-LOG'); process.stdout.write('LOAD-WRITE\\n');",
		"export default function (pi) {",
		"  console.info('FACTORY-INFO');",
		"  pi.on('agent_start', () => {",
		"    console.log('HANDLER-LOG'); process.stdout.write('HANDLER-WRITE\\n');",
		"    setTimeout(() => { console.log('TIMER-LOG'); process.stdout.write('TIMER-WRITE\\n'); }, 150);",
		"  });",
		"  pi.registerTool({ name: 'noisy', label: 'noisy', description: 'prints', parameters: { type: 'object', properties: {} },",
		"    execute: async () => { console.log('TOOL-LOG'); console.table([1]); process.stdout.write('TOOL-WRITE\\n');",
		"      return { content: [{ type: 'text', text: 'ok' }], details: {} }; } });",
		"}",
	].join("\n");
	mock().push({ kind: "reply", toolCalls: [{ name: "noisy", arguments: {} }] }, { kind: "reply", text: "done" });
	const pi = startRpcProcess({ mockUrl: server.url, files: { "noisy.ts": noisy }, args: ["-e", "noisy.ts"] });
	await command(pi, { id: "p", type: "prompt", message: "go" });
	await pi.waitFor((r) => r.type === "agent_settled", 15_000);
	await Bun.sleep(400);
	await command(pi, { id: "s", type: "get_state" });
	pi.end();
	expect(await pi.exit(5_000)).toBe(0);
	expect(pi.records.filter((r) => r.type === "<not json>")).toEqual([]);
	for (const marker of [
		"LOAD-LOG",
		"LOAD-WRITE",
		"FACTORY-INFO",
		"HANDLER-LOG",
		"TOOL-LOG",
		"TOOL-WRITE",
		"TIMER-WRITE",
	]) {
		expect(pi.stderr()).toContain(marker);
	}
}, 30_000);

test("a tool_call handler that never settles: abort answers, then a reload loads the extension again", async () => {
	const source = [
		"console.error('LOADED');",
		"export default function (pi) {",
		"  pi.on('tool_call', () => new Promise(() => {}));",
		"  pi.registerCommand('rl', { handler: async (_args, ctx) => { await ctx.reload(); } });",
		"}",
	].join("\n");
	mock().push(
		{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
		{ kind: "reply", text: "unused" },
	);
	const pi = startRpcProcess({ mockUrl: server.url, files: { "hang.ts": source }, args: ["-e", "hang.ts"] });
	await command(pi, { id: "p", type: "prompt", message: "go" });
	await pi.waitFor((r) => r.type === "tool_execution_start", 15_000);
	await Bun.sleep(200);
	const abort = pi.records.length;
	pi.send({ id: "a", type: "abort" });
	await pi.waitFor((r) => r.type === "response" && r.id === "a", 1_000, abort);
	expect(await command(pi, { id: "rl", type: "prompt", message: "/rl" })).toMatchObject({ success: true });
	expect(await command(pi, { id: "s", type: "get_state" })).toMatchObject({ success: true });
	expect(pi.stderr().match(/LOADED/g)).toHaveLength(2);
	pi.end();
	expect(await pi.exit(5_000)).toBe(0);
}, 30_000);

describe("an extension that does not load", () => {
	const cases = {
		"a syntax error": {
			source: "export default function (pi) {\n  const x = ;\n}\n",
			says: /Unexpected ; at line 2:\d+/,
		},
		"a missing relative import": {
			source: "\nimport { y } from './nope.ts';\nexport default function (pi) { y(pi); }\n",
			says: /Cannot find module '\.\/nope\.ts' imported from \S+\/bad\.ts at line 2:19/,
		},
		"a missing package": {
			source: "import z from 'no-such-package-xyz';\nexport default function (pi) { z(pi); }\n",
			says: /Cannot find package 'no-such-package-xyz' imported from \S+\/bad\.ts at line 1:15/,
		},
	};
	for (const [name, c] of Object.entries(cases)) {
		test(`${name}: one stderr line with file, line and column; the other extension and the session go on`, async () => {
			mock().push({ kind: "reply", text: "still here" });
			const good = "export default function (pi) { pi.registerCommand('ok', { handler: async () => {} }); }\n";
			const pi = startRpcProcess({
				mockUrl: server.url,
				files: { "bad.ts": c.source, "good.ts": good },
				args: ["-e", "bad.ts", "-e", "good.ts"],
			});
			const commands = await command(pi, { id: "c", type: "get_commands" });
			expect(commands.data.commands.map((x: { name: string }) => x.name)).toContain("ok");
			await command(pi, { id: "p", type: "prompt", message: "hello" });
			await pi.waitFor((r) => r.type === "agent_settled", 15_000);
			pi.end();
			expect(await pi.exit(5_000)).toBe(0);
			const lines = pi.stderr().trimEnd().split("\n");
			expect(lines).toHaveLength(1);
			expect(lines[0]).toMatch(/^extension \S+\/bad\.ts: failed to load: /);
			expect(lines[0]).toMatch(c.says);
			expect(sessionText(pi.home)).toContain("still here");
		}, 30_000);
	}
});

describe("process.exit from an extension: the extension's code, as pi 0.87.1, after one stderr line naming the call", () => {
	test("at load: the process ends with that code before serving", async () => {
		const pi = startRpcProcess({
			mockUrl: mock().url,
			files: { "bye.ts": "process.exit(3);\nexport default function () {}\n" },
			args: ["-e", "bye.ts"],
		});
		pi.send({ id: "s", type: "get_state" });
		expect(await pi.exit(10_000)).toBe(3);
		expect(pi.stderr()).toMatch(/^pi: an extension called process\.exit\(3\) at \S+\/bye\.ts:1:9; exiting\n$/);
		expect(pi.records.filter((r) => r.type === "<not json>")).toEqual([]);
	}, 20_000);

	test("in an agent_end handler: exits with that code, the session file holds the prompt and the reply", async () => {
		mock().push({ kind: "reply", text: "the reply before exit" });
		const pi = startRpcProcess({
			mockUrl: server.url,
			files: {
				"bye.ts": "export default function (pi) {\n  pi.on('agent_end', () => {\n    process.exit(4);\n  });\n}\n",
			},
			args: ["-e", "bye.ts"],
		});
		pi.send({ id: "p", type: "prompt", message: "say something" });
		expect(await pi.exit(15_000)).toBe(4);
		expect(pi.stderr()).toMatch(/^pi: an extension called process\.exit\(4\) at \S+\/bye\.ts:3:\d+; exiting\n$/);
		const text = sessionText(pi.home);
		expect(text).toContain("say something");
		expect(text).toContain("the reply before exit");
	}, 25_000);
});
