import { describe, expect, test } from "bun:test";
import { createAgentSession, type SessionEvent } from "../../../src/runtime/index.ts";
import { scriptedStream, testModel } from "../../support/scripted-stream.ts";

function session(
	steps: Parameters<typeof scriptedStream>[0],
	retry = { enabled: true, maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
) {
	const script = scriptedStream(steps);
	const s = createAgentSession({
		model: testModel,
		thinkingLevel: "off",
		tools: [],
		systemPrompt: "sys",
		getApiKey: () => "k",
		streamFn: script.fn,
		retry,
	});
	const events: SessionEvent[] = [];
	s.subscribe((e) => {
		events.push(e);
	});
	return { s, events, script };
}

describe("agent session", () => {
	test("a retryable error is retried with backoff, the failed reply dropped, then settles", async () => {
		const { s, events, script } = session([{ error: "Mock API error 529: Overloaded" }, { text: "ok now" }]);
		await s.prompt("hi");
		const types = events.map((e) => e.type);
		expect(types.filter((t) => t === "agent_start")).toHaveLength(2);
		expect(events.find((e) => e.type === "auto_retry_start")).toMatchObject({ attempt: 1, maxAttempts: 2 });
		expect(events.find((e) => e.type === "auto_retry_end")).toMatchObject({ success: true, attempt: 1 });
		expect(events.find((e) => e.type === "agent_end")).toMatchObject({ willRetry: true });
		expect(types.at(-1)).toBe("agent_settled");
		expect(s.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
		expect(script.calls).toHaveLength(2);
	});

	test("retries give up after maxRetries and report the final error", async () => {
		const err = { error: "Mock API error 500: down" };
		const { s, events } = session([err, err, err]);
		await s.prompt("hi");
		expect(events.filter((e) => e.type === "auto_retry_start")).toHaveLength(2);
		expect(events.find((e) => e.type === "auto_retry_end")).toMatchObject({
			success: false,
			attempt: 2,
			finalError: "Mock API error 500: down",
		});
		expect(s.lastAssistantMessage()?.stopReason).toBe("error");
	});

	test("follow-ups queued by an agent_end handler run as fresh runs before agent_settled (as pi)", async () => {
		const { s, events, script } = session([{ text: "plan" }, { text: "noted" }, { text: "executing" }]);
		let asked = false;
		s.subscribe(async (e) => {
			if (e.type !== "agent_end" || asked) return;
			asked = true;
			await s.sendCustomMessage({ customType: "list", content: "steps", display: true }, { deliverAs: "followUp" });
			await s.sendCustomMessage(
				{ customType: "go", content: "execute", display: true },
				{ triggerTurn: true, deliverAs: "followUp" },
			);
		});
		await s.prompt("make a plan");
		expect(script.calls).toHaveLength(3);
		expect(events.filter((e) => e.type === "agent_settled")).toHaveLength(1);
		expect(events.at(-1)?.type).toBe("agent_settled");
	});

	test("permanent errors are not retried", async () => {
		const { s, events } = session([{ error: "Mock API error 401: bad key" }]);
		await s.prompt("hi");
		expect(events.some((e) => e.type === "auto_retry_start")).toBe(false);
		expect(events.find((e) => e.type === "agent_end")).toMatchObject({ willRetry: false });
	});

	test("abort during the backoff stops retrying", async () => {
		const { s, events } = session([{ error: "Mock API error 529: Overloaded" }, { text: "never" }], {
			enabled: true,
			maxRetries: 3,
			baseDelayMs: 5000,
			maxDelayMs: 5000,
		});
		const run = s.prompt("hi");
		await Bun.sleep(20);
		s.abort();
		await run;
		expect(events.find((e) => e.type === "auto_retry_end")).toMatchObject({
			success: false,
			finalError: "Retry aborted",
		});
		expect(events.at(-1)).toMatchObject({ type: "agent_settled", aborted: true });
	});
});

describe("session recording", () => {
	test("a failed write is reported once and the run goes on", async () => {
		const { recordSession } = await import("../../../src/runtime/index.ts");
		const { s } = session([{ text: "one" }, { text: "two" }]);
		const manager = {
			appendMessage: () => {
				throw new Error("disk full");
			},
			getSessionFile: () => "/tmp/s.jsonl",
		};
		const errors: string[] = [];
		const notices: unknown[] = [];
		s.subscribe((event) => {
			if (event.type === "session_save_failed") notices.push(event);
		});
		recordSession(s, manager as never, (line) => errors.push(line));
		await s.prompt("a");
		await s.prompt("b");
		expect(errors).toEqual(["Session not saved from here on: disk full"]);
		// Event-stream clients (JSON, RPC) get it once as an event.
		expect(notices).toEqual([
			{
				type: "session_save_failed",
				reason: "write_error",
				sessionFile: "/tmp/s.jsonl",
				message: "Session not saved from here on: disk full",
			},
		]);
		expect(s.lastAssistantMessage()?.stopReason).toBe("stop");
	});
});
