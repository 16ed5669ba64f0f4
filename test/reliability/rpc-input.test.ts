/**
 * Whatever arrives on stdin in RPC mode, each line gets one error response (with the request's id when it has one),
 * the process keeps serving (a `get_state` behind every bad line is answered) and the session file stays whole:
 * garbage lines, a 50 MB line, invalid UTF-8, unknown commands, every command of the protocol while a run streams,
 * and stdin closed while commands are still running. The error shapes are pi 0.87.1's (observed side by side; our
 * field checks answer `Invalid <type> command: …` where pi fails later with a handler-specific message).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RPC_COMMAND_TYPES } from "../../src/modes/rpc/types.ts";
import { type MockLlmServer, startMockLlm } from "../support/mock-llm/index.ts";
import { EVERY_COMMAND } from "./rpc-commands.ts";
import { type RpcProcess, startRpcProcess } from "./rpc-process.ts";

let server: MockLlmServer;
const mock = () => {
	server = startMockLlm();
	return server;
};
afterEach(() => server?.stop());

const bytes = (...parts: (string | number[])[]) =>
	Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

/** Bad lines and the one response each must get (pi 0.87.1's shape). */
const GARBAGE: { line: string | Uint8Array; response: Record<string, unknown> }[] = [
	{
		line: "not json\n",
		response: {
			type: "response",
			command: "parse",
			success: false,
			error: `Failed to parse command: Unexpected token 'o', "not json" is not valid JSON`,
		},
	},
	{ line: "\n", response: { command: "parse", error: "Failed to parse command: Unexpected end of JSON input" } },
	{ line: '{"id":"t","type":"get_state"\n', response: { command: "parse", success: false } },
	{ line: "42\n", response: { type: "response", success: false, error: "Unknown command: undefined" } },
	{ line: "[1,2]\n", response: { success: false, error: "Unknown command: undefined" } },
	{ line: "null\n", response: { success: false, error: "Unknown command: undefined" } },
	{ line: '"get_state"\n', response: { success: false, error: "Unknown command: undefined" } },
	{ line: '{"id":"a"}\n', response: { id: "a", success: false, error: "Unknown command: undefined" } },
	{ line: '{"id":"b","type":7}\n', response: { id: "b", command: 7, success: false, error: "Unknown command: 7" } },
	{ line: '{"id":9,"type":"nope"}\n', response: { id: 9, command: "nope", error: "Unknown command: nope" } },
	{
		line: '{"id":"c","type":"prompt","message":5}\n',
		response: {
			id: "c",
			command: "prompt",
			success: false,
			error: 'Invalid prompt command: "message" must be a string',
		},
	},
	{
		line: '{"id":"d","type":"set_model","provider":1}\n',
		response: { id: "d", command: "set_model", success: false },
	},
	{ line: '{"id":"e","type":"switch_session"}\n', response: { id: "e", command: "switch_session", success: false } },
	{ line: '{"id":"f","type":"fork","entryId":"nope"}\n', response: { id: "f", command: "fork", success: false } },
	// Invalid UTF-8: decoded with replacement characters, as pi's Node stream does.
	{
		line: bytes('{"id":"g', [0xff, 0xfe], '","type":"nope"}\n'),
		response: { id: "g\uFFFD\uFFFD", command: "nope", error: "Unknown command: nope" },
	},
	{ line: bytes([0xc3, 0x28, 0x80, 0x0a]), response: { command: "parse", success: false } },
];

/** Sends `line`, then a get_state; resolves with the records the line produced (the get_state answer excluded). */
async function sendThenState(pi: RpcProcess, line: string | Uint8Array, stateId: string, ms = 10_000) {
	const from = pi.records.length;
	pi.send(line);
	pi.send({ id: stateId, type: "get_state" });
	const state = await pi.waitFor((r) => r.type === "response" && r.id === stateId, ms, from);
	expect(state.success).toBe(true);
	return pi.records.slice(from).filter((r) => r.id !== stateId);
}

/** Every line of the one session file parses, and it holds the user's prompt `text`. */
function expectSessionIntact(home: string, text: string): void {
	const dir = join(home, ".pi/agent/sessions");
	const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.name.endsWith(".jsonl"));
	const lines = files.flatMap((f) => readFileSync(join(f.parentPath, f.name), "utf8").trimEnd().split("\n"));
	const records = lines.map((line) => JSON.parse(line));
	expect(JSON.stringify(records)).toContain(text);
}

test("garbage lines: one error response each, get_state answered after each, the session intact", async () => {
	const pi = startRpcProcess({ mockUrl: mock().url });
	server.push({ kind: "reply", text: "first answer" });
	pi.send({ id: "p", type: "prompt", message: "remember this" });
	await pi.waitFor((r) => r.type === "agent_settled", 15_000);
	for (const [i, c] of GARBAGE.entries()) {
		const got = await sendThenState(pi, c.line, `s${i}`);
		expect(got).toHaveLength(1);
		expect(got[0]).toMatchObject({ type: "response", success: false, ...c.response });
		if (!("id" in c.response)) expect(got[0]).not.toHaveProperty("id");
	}
	// A dialog answer is not a command: one that answers no open dialog is dropped without a response, as in pi.
	for (const stray of [
		'{"type":"extension_ui_response","id":"nope","value":"x"}\n',
		'{"type":"extension_ui_response"}\n',
	]) {
		expect(await sendThenState(pi, stray, "ui")).toEqual([]);
	}
	expect(pi.records.filter((r) => r.type === "<not json>")).toEqual([]);
	pi.end();
	expect(await pi.exit(5_000)).toBe(0);
	expectSessionIntact(pi.home, "remember this");
}, 30_000);

describe("a 50 MB line", () => {
	const big = "x".repeat(50 * 1024 * 1024);
	const lines = {
		"not JSON": { line: `${big}\n`, response: { command: "parse", success: false } },
		"an unterminated prompt": {
			line: `{"id":"u","type":"prompt","message":"${big}\n`,
			response: { command: "parse", success: false },
		},
		"an unknown command with a 50 MB field": {
			line: `{"id":"k","type":"nope","pad":"${big}"}\n`,
			response: { id: "k", command: "nope", error: "Unknown command: nope" },
		},
	};
	for (const [name, c] of Object.entries(lines)) {
		test(`${name}: one error response, get_state right behind it within 5 s`, async () => {
			const pi = startRpcProcess({ mockUrl: mock().url, args: ["--no-session"] });
			pi.send({ id: "w", type: "get_state" });
			await pi.waitFor((r) => r.id === "w", 10_000);
			const started = performance.now();
			const got = await sendThenState(pi, c.line, "s", 5_000);
			const ms = performance.now() - started;
			console.log(`50 MB line (${name}): get_state answered after ${Math.round(ms)} ms`);
			expect(got).toHaveLength(1);
			expect(got[0]).toMatchObject(c.response);
			pi.end();
			expect(await pi.exit(5_000)).toBe(0);
		}, 30_000);
	}
});

test("every command of the protocol while a run streams: one response each, the process keeps serving", async () => {
	expect(Object.keys(EVERY_COMMAND).sort()).toEqual([...RPC_COMMAND_TYPES].sort());
	mock();
	for (let i = 0; i < 6; i++) server.push({ kind: "reply", text: "y".repeat(400), chunkSize: 8, frameDelayMs: 20 });
	const pi = startRpcProcess({ mockUrl: server.url });
	pi.send({ id: "p0", type: "prompt", message: "the first prompt" });
	await pi.waitFor((r) => r.type === "message_update", 15_000);
	// The commands that leave the run alone first (answered while it still streams), then those that end it.
	const types = Object.keys(EVERY_COMMAND);
	const last = types.indexOf("compact");
	for (const batch of [types.slice(0, last), types.slice(last)]) {
		for (const type of batch) pi.send({ id: type, type, ...EVERY_COMMAND[type] });
		for (const type of batch) await pi.waitFor((r) => r.type === "response" && r.id === type, 15_000);
		if (batch[0] === "prompt") expect(pi.records.find((r) => r.id === "abort")).toBeUndefined();
	}
	await pi.waitFor((r) => r.type === "agent_settled", 15_000);
	const got = await sendThenState(pi, `${JSON.stringify({ id: "x", type: "nope" })}\n`, "end");
	expect(got.filter((r) => r.type === "response")).toHaveLength(1);
	const responses = pi.records.filter((r) => r.type === "response");
	for (const type of Object.keys(EVERY_COMMAND)) expect(responses.filter((r) => r.id === type)).toHaveLength(1);
	// `abort_bash` right behind it cancels the shell; its result is still answered and recorded, though the session
	// it started in was replaced meanwhile.
	expect(responses.find((r) => r.id === "bash")).toMatchObject({ success: true, data: { cancelled: true } });
	expect(responses.find((r) => r.id === "prompt")?.error).toContain("streamingBehavior");
	expect(pi.records.filter((r) => r.type === "<not json>")).toEqual([]);
	pi.end();
	expect(await pi.exit(5_000)).toBe(0);
	expectSessionIntact(pi.home, "the first prompt");
}, 45_000);

test("stdin closed while a run streams and a bash command runs: each gets its answer, the session is saved", async () => {
	mock();
	server.push({ kind: "reply", text: "z".repeat(400), chunkSize: 8, frameDelayMs: 20 });
	const pi = startRpcProcess({ mockUrl: server.url });
	pi.send({ id: "p", type: "prompt", message: "cut me off" });
	await pi.waitFor((r) => r.type === "message_update", 15_000);
	pi.send({ id: "b", type: "bash", command: "sleep 0.3; echo done" });
	pi.send({ id: "s", type: "get_state" });
	pi.end();
	expect(await pi.exit(6_000)).toBe(0);
	const responses = pi.records.filter((r) => r.type === "response");
	for (const id of ["p", "b", "s"]) expect(responses.filter((r) => r.id === id)).toHaveLength(1);
	expect(pi.records.filter((r) => r.type === "<not json>")).toEqual([]);
	expectSessionIntact(pi.home, "cut me off");
}, 30_000);

test("stdin closed in the middle of a line: the partial line is answered, the process ends", async () => {
	const pi = startRpcProcess({ mockUrl: mock().url, args: ["--no-session"] });
	pi.send({ id: "s", type: "get_state" });
	await pi.waitFor((r) => r.id === "s", 10_000);
	pi.send('{"id":"half","type":"get_st');
	pi.end();
	expect(await pi.exit(5_000)).toBe(0);
	expect(pi.records.filter((r) => r.type === "response" && r.command === "parse")).toHaveLength(1);
}, 20_000);
