import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Agent, type AgentEvent, type AgentMessage, type AgentTool, agentLoop } from "../../../src/agent/index.ts";
import { scriptedStream, testModel } from "../../support/scripted-stream.ts";

function echoTool(log: string[] = [], delayMs = 0, mode?: "sequential"): AgentTool {
	return {
		name: "echo",
		label: "Echo",
		description: "echo text",
		parameters: Type.Object({ text: Type.String(), times: Type.Optional(Type.Number()) }),
		...(mode ? { executionMode: mode } : {}),
		async execute(_id, params, _signal, onUpdate) {
			log.push(`start ${params.text}`);
			onUpdate?.({ content: [{ type: "text", text: "…" }], details: {} });
			if (delayMs) await Bun.sleep(delayMs);
			log.push(`end ${params.text}`);
			return {
				content: [{ type: "text", text: String(params.text).repeat(params.times ?? 1) }],
				details: { ok: true },
			};
		},
	};
}

function makeAgent(steps: Parameters<typeof scriptedStream>[0], tools: AgentTool[] = [], extra = {}) {
	const script = scriptedStream(steps);
	const agent = new Agent({
		initialState: { model: testModel, systemPrompt: "sys", tools },
		streamFn: script.fn,
		...extra,
	});
	const events: AgentEvent[] = [];
	agent.subscribe((e) => {
		events.push(e);
	});
	return { agent, events, script, types: () => events.map((e) => e.type) };
}

describe("agent loop", () => {
	test("a plain prompt: the event sequence and the transcript", async () => {
		const { agent, types, script } = makeAgent([{ text: "Hello!" }]);
		await agent.prompt("hi");
		expect(types()).toEqual([
			"agent_start",
			"turn_start",
			"message_start",
			"message_end",
			"message_start",
			"message_update", // text_start
			"message_update", // "Hell"
			"message_update", // "o!"
			"message_update", // text_end
			"message_end",
			"turn_end",
			"agent_end",
		]);
		expect(agent.state.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
		expect(script.calls[0]?.context.systemPrompt).toBe("sys");
		expect(agent.state.isStreaming).toBe(false);
	});

	test("tool calls run, results go back, and the loop continues until no more calls", async () => {
		const log: string[] = [];
		const { agent, types, script } = makeAgent(
			[{ toolCalls: [{ name: "echo", args: { text: "a", times: "2" } }] }, { text: "done" }],
			[echoTool(log)],
		);
		await agent.prompt("go");
		const roles = agent.state.messages.map((m: any) => m.role);
		// The tool loadout is declared in the transcript before the first request (pi 0.86+).
		expect(roles).toEqual(["system", "user", "assistant", "toolResult", "assistant"]);
		expect((agent.state.messages[0] as any).toolsAdded.map((t: any) => t.name)).toEqual(["echo"]);
		const result = agent.state.messages[3] as any;
		expect(result.content[0].text).toBe("aa"); // "2" converted to a number by validation
		expect(result.details).toEqual({ ok: true });
		expect(types()).toContain("tool_execution_update");
		expect(script.calls[1]?.context.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "toolResult"]);
	});

	test("parallel by default: ends in completion order, results in source order", async () => {
		const order: string[] = [];
		const slow = { ...echoTool(order, 40), name: "slow" };
		const fast = echoTool(order, 0);
		const { agent, events } = makeAgent(
			[
				{
					toolCalls: [
						{ id: "1", name: "slow", args: { text: "s" } },
						{ id: "2", name: "echo", args: { text: "f" } },
					],
				},
				{ text: "ok" },
			],
			[slow, fast],
		);
		await agent.prompt("go");
		expect(order).toEqual(["start s", "start f", "end f", "end s"]);
		const ends = events.filter((e) => e.type === "tool_execution_end").map((e: any) => e.toolCallId);
		expect(ends).toEqual(["2", "1"]);
		expect(agent.state.messages.filter((m: any) => m.role === "toolResult").map((m: any) => m.toolCallId)).toEqual([
			"1",
			"2",
		]);
	});

	test("a sequential tool makes the whole batch sequential", async () => {
		const order: string[] = [];
		const slow = { ...echoTool(order, 30), name: "slow" };
		const seq = echoTool(order, 0, "sequential");
		const { agent } = makeAgent(
			[
				{
					toolCalls: [
						{ name: "slow", args: { text: "s" } },
						{ name: "echo", args: { text: "f" } },
					],
				},
				{ text: "ok" },
			],
			[slow, seq],
		);
		await agent.prompt("go");
		expect(order).toEqual(["start s", "end s", "start f", "end f"]);
	});

	test("a throwing tool, an unknown tool and invalid arguments become error results; the loop goes on", async () => {
		const boom: AgentTool = {
			name: "boom",
			label: "Boom",
			description: "",
			parameters: Type.Object({}),
			async execute() {
				throw new Error("kaboom");
			},
		};
		const { agent } = makeAgent(
			[
				{
					toolCalls: [
						{ name: "boom", args: {} },
						{ name: "nope", args: {} },
						{ name: "echo", args: { text: { not: "a string" } } },
					],
				},
				{ text: "recovered" },
			],
			[boom, echoTool()],
		);
		await agent.prompt("go");
		const results = agent.state.messages.filter((m: any) => m.role === "toolResult") as any[];
		expect(results.map((r) => r.isError)).toEqual([true, true, true]);
		expect(results[0].content[0].text).toBe("kaboom");
		expect(results[1].content[0].text).toBe("Tool nope not found");
		expect(results[2].content[0].text).toContain('Validation failed for tool "echo"');
		expect((agent.state.messages.at(-1) as any).content[0].text).toBe("recovered");
	});

	test("beforeToolCall blocks (and fails closed when it throws); afterToolCall replaces the result", async () => {
		const log: string[] = [];
		const { agent } = makeAgent(
			[
				{
					toolCalls: [
						{ id: "a", name: "echo", args: { text: "rm" } },
						{ id: "b", name: "echo", args: { text: "x" } },
						{ id: "c", name: "echo", args: { text: "y" } },
					],
				},
				{ text: "ok" },
			],
			[echoTool(log)],
			{
				beforeToolCall: async ({ args }: any) => {
					if (args.text === "rm") return { block: true, reason: "dangerous" };
					if (args.text === "x") throw new Error("hook broke");
					return undefined;
				},
				afterToolCall: async ({ result }: any) => ({
					content: [{ type: "text", text: `audited ${result.content[0].text}` }],
				}),
			},
		);
		await agent.prompt("go");
		const results = agent.state.messages.filter((m: any) => m.role === "toolResult") as any[];
		expect(results.map((r) => [r.isError, r.content[0].text])).toEqual([
			[true, "dangerous"], // blocked calls never ran, so afterToolCall does not see them
			[true, "hook broke"],
			[false, "audited y"],
		]);
		expect(log).toEqual(["start y", "end y"]);
	});

	test("abort ends the turn at once while a hook or a tool never settles (each call: Operation aborted)", async () => {
		const hang = () => new Promise<never>(() => {});
		const stuck: AgentTool = { ...echoTool(), name: "stuck", execute: hang };
		for (const extra of [{ beforeToolCall: hang }, { afterToolCall: hang }, {}]) {
			const { agent, types } = makeAgent(
				[
					{ toolCalls: [{ name: "afterToolCall" in extra ? "echo" : "stuck", args: { text: "x" } }] },
					{ text: "never" },
				],
				[echoTool(), stuck],
				extra,
			);
			const run = agent.prompt("go");
			while (!types().includes("tool_execution_start")) await Bun.sleep(1);
			await Bun.sleep(20);
			const started = performance.now();
			agent.abort();
			await run;
			expect(performance.now() - started).toBeLessThan(500);
			expect(types().at(-1)).toBe("agent_end");
			const result = agent.state.messages.find((m: any) => m.role === "toolResult") as any;
			// A result the tool produced stays; only what never came is replaced.
			expect(result.content[0].text).toBe("afterToolCall" in extra ? "x" : "Operation aborted");
		}
	});

	test("terminate on every result of a batch skips the follow-up request", async () => {
		const stop: AgentTool = {
			...echoTool(),
			async execute() {
				return { content: [{ type: "text", text: "bye" }], details: {}, terminate: true };
			},
		};
		const { agent, script } = makeAgent(
			[{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, { text: "never" }],
			[stop],
		);
		await agent.prompt("go");
		expect(script.remaining()).toBe(1);
	});

	test("steering is injected after the turn's tools; follow-ups run after the agent would stop", async () => {
		const { agent, script } = makeAgent(
			[{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, { text: "after steer" }, { text: "after follow-up" }],
			[echoTool([], 20)],
		);
		const run = agent.prompt("go");
		agent.followUp({ role: "user", content: "and then this", timestamp: 1 });
		await Bun.sleep(5);
		agent.steer({ role: "user", content: "change of plan", timestamp: 1 });
		await run;
		const users = agent.state.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
		expect(users).toEqual(["go", "change of plan", "and then this"]);
		expect(script.calls[1]?.context.messages.at(-1)).toMatchObject({ role: "user", content: "change of plan" });
	});

	test("queue modes: one-at-a-time vs all", async () => {
		const { agent, script } = makeAgent([{ text: "1" }, { text: "2" }, { text: "3" }], [], {
			followUpMode: "one-at-a-time",
		});
		agent.followUp({ role: "user", content: "f1", timestamp: 1 });
		agent.followUp({ role: "user", content: "f2", timestamp: 1 });
		await agent.prompt("go");
		expect(script.calls).toHaveLength(3);
		const all = makeAgent([{ text: "1" }, { text: "2" }], [], { followUpMode: "all" });
		all.agent.followUp({ role: "user", content: "f1", timestamp: 1 });
		all.agent.followUp({ role: "user", content: "f2", timestamp: 1 });
		await all.agent.prompt("go");
		expect(all.script.calls).toHaveLength(2);
	});

	test("abort ends the run with an aborted message; prompt while running is refused", async () => {
		const { agent } = makeAgent([{ text: "partial", delayMs: 1000 }]);
		const run = agent.prompt("go");
		await Bun.sleep(10);
		await expect(agent.prompt("again")).rejects.toThrow("already processing");
		agent.abort();
		await run;
		expect((agent.state.messages.at(-1) as any).stopReason).toBe("aborted");
	});

	test("a provider error ends the run and is kept in state; continue() retries", async () => {
		const { agent } = makeAgent([{ error: "Mock API error 500: boom" }, { text: "second try" }]);
		await agent.prompt("go");
		expect(agent.state.errorMessage).toBe("Mock API error 500: boom");
		agent.state.messages.pop();
		await agent.continue();
		expect((agent.state.messages.at(-1) as any).content[0].text).toBe("second try");
	});

	test("custom roles are converted for the LLM; transformContext sees every request", async () => {
		const seen: number[] = [];
		const { agent, script } = makeAgent([{ text: "ok" }], [], {
			transformContext: async (messages: AgentMessage[]) => {
				seen.push(messages.length);
				return messages;
			},
			convertToLlm: (messages: AgentMessage[]) =>
				messages.map((m: any) => (m.role === "note" ? { role: "user", content: `note: ${m.text}`, timestamp: 0 } : m)),
		});
		agent.state.messages.push({ role: "note", text: "remember", timestamp: 0 } as any);
		await agent.prompt("go");
		expect(seen).toEqual([2]);
		expect(script.calls[0]?.context.messages.map((m: any) => m.content)).toEqual(["note: remember", "go"]);
	});

	test("subscribers are awaited before prompt() resolves", async () => {
		const { agent } = makeAgent([{ text: "ok" }]);
		let finished = false;
		agent.subscribe(async (e) => {
			if (e.type === "agent_end") {
				await Bun.sleep(20);
				finished = true;
			}
		});
		await agent.prompt("go");
		expect(finished).toBe(true);
	});

	test("agentLoop returns an event stream whose result is the produced messages", async () => {
		const script = scriptedStream([{ text: "hey" }]);
		const stream = agentLoop(
			[{ role: "user", content: "x", timestamp: 0 }],
			{ systemPrompt: "", messages: [] },
			{ model: testModel, convertToLlm: (m) => m as any },
			undefined,
			script.fn,
		);
		const types: string[] = [];
		for await (const e of stream) types.push(e.type);
		expect(types.at(-1)).toBe("agent_end");
		expect((await stream.result()).map((m: any) => m.role)).toEqual(["user", "assistant"]);
	});
});
