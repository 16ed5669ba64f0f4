import { describe, expect, test } from "bun:test";
import {
	type AssistantMessage,
	createAssistantMessageEventStream,
	EventStream,
	emptyUsage,
} from "../../../src/ai/index.ts";

const message = (stopReason: AssistantMessage["stopReason"]): AssistantMessage => ({
	role: "assistant",
	content: [],
	api: "x",
	provider: "x",
	model: "m",
	usage: emptyUsage(),
	stopReason,
	timestamp: 0,
});

describe("event streams", () => {
	test("consumers see buffered and later events; result resolves with the final event", async () => {
		const s = createAssistantMessageEventStream();
		s.push({ type: "start", partial: message("stop") });
		const seen: string[] = [];
		const consuming = (async () => {
			for await (const e of s) seen.push(e.type);
		})();
		await Bun.sleep(1);
		const final = message("stop");
		s.push({ type: "done", reason: "stop", message: final });
		s.push({ type: "start", partial: final }); // after the final event: ignored
		await consuming;
		expect(seen).toEqual(["start", "done"]);
		expect(await s.result()).toBe(final);
	});
	test("an error event resolves result with the error message (never rejects)", async () => {
		const s = createAssistantMessageEventStream();
		const failed = message("error");
		s.push({ type: "error", reason: "error", error: failed });
		expect(await s.result()).toBe(failed);
	});
	test("two consumers each get every event", async () => {
		const s = new EventStream<number, number>(
			(n) => n < 0,
			(n) => n,
		);
		const a: number[] = [];
		const b: number[] = [];
		const run = (out: number[]) =>
			(async () => {
				for await (const n of s) out.push(n);
			})();
		const both = Promise.all([run(a), run(b)]);
		s.push(1);
		s.push(2);
		s.push(-1);
		await both;
		expect(a).toEqual([1, 2, -1]);
		expect(b).toEqual([1, 2, -1]);
		expect(await s.result()).toBe(-1);
	});
});
