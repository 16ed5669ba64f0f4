/**
 * Extension handlers that never settle must not hold the run or the process: RPC `abort` answers and the turn ends
 * (`agent_end`) within 1 s whatever a `tool_call`, `tool_result` or `context` handler or an extension tool does,
 * the hung handler is named in an `extension_error`, and stdin EOF then ends the process.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type MockLlmServer, startMockLlm } from "../support/mock-llm/index.ts";
import { startRpcProcess } from "./rpc-process.ts";

// One mock per test: an aborted run leaves its unused replies queued.
let server: MockLlmServer;
const mock = () => {
	server = startMockLlm();
	return server;
};
afterEach(() => server?.stop());

const HANG = "() => new Promise(() => {})";

/** An extension file that registers `body` in its factory. */
function extension(body: string): Record<string, string> {
	return { "hang.ts": `export default function (pi) {\n${body}\n}\n` };
}

const cases: { name: string; body: string; tool?: string }[] = [
	{ name: "tool_call handler", body: `pi.on("tool_call", ${HANG});` },
	{ name: "tool_result handler", body: `pi.on("tool_result", ${HANG});` },
	{
		name: "context handler",
		body: `pi.on("context", (e) => e.messages.length > 2 ? new Promise(() => {}) : undefined);`,
	},
	{
		name: "extension tool that ignores the signal",
		tool: "stuck",
		body: `pi.registerTool({ name: "stuck", label: "stuck", description: "never ends", parameters: { type: "object", properties: {} }, execute: ${HANG} });`,
	},
];

describe("a handler that never settles", () => {
	for (const c of cases) {
		test(`${c.name}: abort ends the turn within 1 s; EOF ends the process`, async () => {
			const pi = startRpcProcess({ mockUrl: mock().url, files: extension(c.body), args: ["-e", "hang.ts"] });
			server.push(
				{ kind: "reply", toolCalls: [{ name: c.tool ?? "bash", arguments: c.tool ? {} : { command: "echo hi" } }] },
				{ kind: "reply", text: "after the tool" },
			);
			pi.send({ id: "p", type: "prompt", message: "run it" });
			// The context case hangs before the second request; the others while the tool call is under way.
			await pi.waitFor((r) => r.type === "tool_execution_start", 15_000);
			await Bun.sleep(300);
			const from = pi.records.length;
			const started = performance.now();
			pi.send({ id: "a", type: "abort" });
			await pi.waitFor((r) => r.type === "agent_end", 1_000, from);
			await pi.waitFor((r) => r.type === "response" && r.id === "a", 1_000, from);
			expect(performance.now() - started).toBeLessThan(1_000);
			const errors = pi.records.filter((r) => r.type === "extension_error");
			if (c.tool === undefined) expect(errors.length).toBeGreaterThan(0);
			// The process keeps serving after the abort.
			pi.send({ id: "s", type: "get_state" });
			const state = await pi.waitFor((r) => r.type === "response" && r.id === "s", 2_000);
			expect(state.data.isStreaming).toBe(false);
			pi.end();
			expect(await pi.exit(3_000)).toBe(0);
		}, 30_000);
	}

	test("EOF while a tool_call handler hangs (no abort): the process ends", async () => {
		const pi = startRpcProcess({
			mockUrl: mock().url,
			files: extension(`pi.on("tool_call", ${HANG});`),
			args: ["-e", "hang.ts"],
		});
		server.push(
			{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
			{ kind: "reply", text: "x" },
		);
		pi.send({ id: "p", type: "prompt", message: "run it" });
		await pi.waitFor((r) => r.type === "tool_execution_start", 15_000);
		pi.end();
		expect(await pi.exit(3_000)).toBe(0);
	}, 30_000);

	test("EOF with a session_shutdown handler that never settles: the process still ends", async () => {
		const pi = startRpcProcess({
			mockUrl: mock().url,
			files: extension(`pi.on("session_shutdown", ${HANG});`),
			args: ["-e", "hang.ts"],
		});
		pi.send({ id: "s", type: "get_state" });
		await pi.waitFor((r) => r.type === "response" && r.id === "s", 10_000);
		pi.end();
		expect(await pi.exit(6_000)).toBe(0);
		expect(pi.records.find((r) => r.type === "extension_error")).toMatchObject({ event: "session_shutdown" });
	}, 30_000);

	test("EOF while an extension command never settles: the process ends", async () => {
		const pi = startRpcProcess({
			mockUrl: mock().url,
			files: extension(`pi.registerCommand("stuck", { description: "never ends", handler: ${HANG} });`),
			args: ["-e", "hang.ts"],
		});
		pi.send({ id: "p", type: "prompt", message: "/stuck" });
		pi.send({ id: "s", type: "get_state" });
		await pi.waitFor((r) => r.type === "response" && r.id === "s", 10_000);
		pi.end();
		expect(await pi.exit(6_000)).toBe(0);
		expect(pi.stderr()).toContain("1 command(s) still running");
	}, 30_000);
});
