import { afterEach, describe, expect, test } from "bun:test";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	type RegisterFauxProviderOptions,
	registerFauxProvider,
} from "../../../src/ai/providers/faux.ts";
import { complete, stream } from "../../../src/ai/stream.ts";
import type { AssistantMessageEvent, Context, Model, StreamOptions } from "../../../src/ai/types.ts";

const registrations: FauxProviderRegistration[] = [];

function faux(options?: RegisterFauxProviderOptions): FauxProviderRegistration {
	const registration = registerFauxProvider(options);
	registrations.push(registration);
	return registration;
}

afterEach(() => {
	for (const registration of registrations.splice(0)) registration.unregister();
});

function userContext(text = "hello"): Context {
	return { messages: [{ role: "user", content: text, timestamp: 1 }] };
}

async function collect(
	model: Model,
	context: Context,
	options?: StreamOptions,
): Promise<{ events: AssistantMessageEvent[]; types: string[] }> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream(model, context, options)) events.push(event);
	return { events, types: events.map((e) => e.type) };
}

/** Event types with runs of the same delta type collapsed to one entry. */
function shape(types: string[]): string[] {
	return types.filter((t, i) => !(t.endsWith("_delta") && types[i - 1] === t));
}

describe("registerFauxProvider: models and helpers", () => {
	test("default model, unique default api, and getModel by id", () => {
		const f = faux();
		const model = f.getModel();
		expect(f.api.startsWith("faux")).toBe(true);
		expect(model).toMatchObject({
			id: "faux-1",
			api: f.api,
			provider: "faux",
			reasoning: false,
			input: ["text", "image"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128_000,
			maxTokens: 16_384,
		});
		expect(f.models).toEqual([model]);
		expect(faux().api).not.toBe(f.api);

		const multi = faux({
			api: "faux-multi-api",
			provider: "faux-multi",
			models: [{ id: "fast" }, { id: "thinker", reasoning: true, contextWindow: 1000, name: "Thinker" }],
		});
		expect(multi.api).toBe("faux-multi-api");
		expect(multi.getModel().id).toBe("fast");
		expect(multi.getModel("thinker")).toMatchObject({
			name: "Thinker",
			reasoning: true,
			contextWindow: 1000,
			provider: "faux-multi",
		});
		expect(multi.getModel("missing")).toBeUndefined();
	});

	test("content helpers and fauxAssistantMessage defaults", () => {
		expect(fauxText("a")).toEqual({ type: "text", text: "a" });
		expect(fauxThinking("b")).toEqual({ type: "thinking", thinking: "b" });
		expect(fauxToolCall("echo", { x: 1 }, { id: "t1" })).toEqual({
			type: "toolCall",
			id: "t1",
			name: "echo",
			arguments: { x: 1 },
		});
		const a = fauxToolCall("echo", {});
		const b = fauxToolCall("echo", {});
		expect(a.id).not.toBe(b.id);

		const m = fauxAssistantMessage("hi");
		expect(m).toMatchObject({ role: "assistant", content: [{ type: "text", text: "hi" }], stopReason: "stop" });
		expect(typeof m.timestamp).toBe("number");
		expect(m.errorMessage).toBeUndefined();
		expect(fauxAssistantMessage(fauxThinking("t")).content).toEqual([{ type: "thinking", thinking: "t" }]);
		const e = fauxAssistantMessage([], { stopReason: "error", errorMessage: "x", responseId: "r", timestamp: 5 });
		expect(e).toMatchObject({ stopReason: "error", errorMessage: "x", responseId: "r", timestamp: 5, content: [] });
	});
});

describe("registerFauxProvider: streaming", () => {
	test("text streams in small chunks and completes", async () => {
		const f = faux();
		const text = "The quick brown fox jumps over the lazy dog, again and again and again.";
		f.setResponses([fauxAssistantMessage(text, { responseId: "resp-1", timestamp: 42 })]);
		const { events, types } = await collect(f.getModel(), userContext());
		expect(shape(types)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
		const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
		expect(deltas.join("")).toBe(text);
		expect(deltas.length).toBeGreaterThan(1);
		// default 3–5 tokens per chunk at ≈ 4 chars per token
		for (const d of deltas.slice(0, -1)) {
			expect(d.length).toBeGreaterThanOrEqual(12);
			expect(d.length).toBeLessThanOrEqual(20);
		}
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.reason).toBe("stop");
		expect(done.message).toMatchObject({
			role: "assistant",
			content: [{ type: "text", text }],
			api: f.api,
			provider: "faux",
			model: "faux-1",
			stopReason: "stop",
			responseId: "resp-1",
			timestamp: 42,
		});
	});

	test("tokenSize sets the chunk size", async () => {
		const f = faux({ tokenSize: { min: 1, max: 1 } });
		f.setResponses([fauxAssistantMessage("abcdefghij")]);
		const { events } = await collect(f.getModel(), userContext());
		const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
		expect(deltas).toEqual(["abcd", "efgh", "ij"]);
	});

	test("thinking then text, each block separate; adjacent text blocks stay separate", async () => {
		const f = faux();
		f.setResponses([
			fauxAssistantMessage([fauxThinking("Let me think about it."), fauxText("First."), fauxText("Second.")]),
		]);
		const { events, types } = await collect(f.getModel(), userContext());
		expect(shape(types)).toEqual([
			"start",
			"thinking_start",
			"thinking_delta",
			"thinking_end",
			"text_start",
			"text_delta",
			"text_end",
			"text_start",
			"text_delta",
			"text_end",
			"done",
		]);
		const thinkingEnd = events.find((e) => e.type === "thinking_end");
		expect(thinkingEnd?.type === "thinking_end" && thinkingEnd.content).toBe("Let me think about it.");
		const final = events.at(-1);
		expect(final?.type === "done" && final.message.content).toEqual([
			{ type: "thinking", thinking: "Let me think about it." },
			{ type: "text", text: "First." },
			{ type: "text", text: "Second." },
		]);
	});

	test("tool calls stream their JSON arguments and end as toolUse", async () => {
		const f = faux();
		const args = { path: "package.json", options: { lines: [1, 2, 3], verbose: true }, note: "a fairly long note" };
		f.setResponses([
			fauxAssistantMessage([fauxText("Reading."), fauxToolCall("read", args, { id: "call-1" })], {
				stopReason: "toolUse",
			}),
		]);
		const { events, types } = await collect(f.getModel(), userContext());
		expect(shape(types)).toEqual([
			"start",
			"text_start",
			"text_delta",
			"text_end",
			"toolcall_start",
			"toolcall_delta",
			"toolcall_end",
			"done",
		]);
		const json = events.flatMap((e) => (e.type === "toolcall_delta" ? [e.delta] : [])).join("");
		expect(JSON.parse(json)).toEqual(args);
		expect(events.filter((e) => e.type === "toolcall_delta").length).toBeGreaterThan(1);
		const end = events.find((e) => e.type === "toolcall_end");
		if (end?.type !== "toolcall_end") throw new Error("expected toolcall_end");
		expect(end.contentIndex).toBe(1);
		expect(end.toolCall).toEqual({ type: "toolCall", id: "call-1", name: "read", arguments: args });
		const final = events.at(-1);
		expect(final?.type === "done" && final.reason).toBe("toolUse");
	});

	test("a tool call scripted with the default stop reason still ends as toolUse", async () => {
		const f = faux();
		f.setResponses([fauxAssistantMessage(fauxToolCall("ls", {}))]);
		const result = await complete(f.getModel(), userContext());
		expect(result.stopReason).toBe("toolUse");
		expect(result.content[0]).toMatchObject({ type: "toolCall", name: "ls", arguments: {} });
	});

	test("the scripted message is not mutated and can be reused", async () => {
		const f = faux();
		const scripted = fauxAssistantMessage("same");
		const snapshot = structuredClone(scripted);
		f.setResponses([scripted, scripted]);
		const a = await complete(f.getModel(), userContext());
		const b = await complete(f.getModel(), userContext());
		expect(a.content).toEqual([{ type: "text", text: "same" }]);
		expect(b.content).toEqual([{ type: "text", text: "same" }]);
		expect(a).not.toBe(b);
		expect(scripted).toEqual(snapshot);
	});
});

describe("registerFauxProvider: response queue", () => {
	test("factory steps receive context, options, state and model", async () => {
		const f = faux();
		const seen: { callCount: number; text: string; sessionId: string | undefined; modelId: string }[] = [];
		f.setResponses([
			(context, options, state, model) => {
				const first = context.messages[0];
				seen.push({
					callCount: state.callCount,
					text: first?.role === "user" && typeof first.content === "string" ? first.content : "",
					sessionId: options?.sessionId,
					modelId: model.id,
				});
				return fauxAssistantMessage(`call ${state.callCount}`);
			},
			async (_context, _options, state) => {
				await Bun.sleep(1);
				return fauxAssistantMessage(`async call ${state.callCount}`);
			},
		]);
		expect(f.state.callCount).toBe(0);
		const a = await complete(f.getModel(), userContext("question one"), { sessionId: "s-1" });
		expect(a.content).toEqual([{ type: "text", text: "call 1" }]);
		expect(seen).toEqual([{ callCount: 1, text: "question one", sessionId: "s-1", modelId: "faux-1" }]);
		const b = await complete(f.getModel(), userContext());
		expect(b.content).toEqual([{ type: "text", text: "async call 2" }]);
		expect(f.state.callCount).toBe(2);
	});

	test("a throwing factory ends the stream with its error", async () => {
		const f = faux();
		f.setResponses([
			() => {
				throw new Error("factory exploded");
			},
		]);
		const result = await complete(f.getModel(), userContext());
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("factory exploded");
	});

	test("setResponses replaces, appendResponses appends, responses are taken in request order", async () => {
		const f = faux();
		f.setResponses([fauxAssistantMessage("dropped")]);
		f.setResponses([fauxAssistantMessage("one")]);
		f.appendResponses([fauxAssistantMessage("two"), fauxAssistantMessage("three")]);
		expect(f.getPendingResponseCount()).toBe(3);
		// Started together: each request takes its response when it starts, even if a later one finishes first.
		const first = stream(f.getModel(), userContext());
		const second = stream(f.getModel(), userContext());
		expect(f.getPendingResponseCount()).toBe(1);
		const [b, a] = await Promise.all([second.result(), first.result()]);
		expect(a.content).toEqual([{ type: "text", text: "one" }]);
		expect(b.content).toEqual([{ type: "text", text: "two" }]);
		expect((await complete(f.getModel(), userContext())).content).toEqual([{ type: "text", text: "three" }]);
		expect(f.getPendingResponseCount()).toBe(0);
		expect(f.state.callCount).toBe(3);
	});

	test("an empty queue ends the stream with an error event", async () => {
		const f = faux();
		const { events, types } = await collect(f.getModel(), userContext());
		expect(types).toEqual(["error"]);
		const final = events[0];
		if (final?.type !== "error") throw new Error("expected error");
		expect(final.reason).toBe("error");
		expect(final.error.stopReason).toBe("error");
		expect(final.error.errorMessage).toBe("No more faux responses queued");
		expect(final.error.content).toEqual([]);
		expect(f.state.callCount).toBe(1);
	});

	test("a scripted error message streams its content and ends with its errorMessage", async () => {
		const f = faux();
		f.setResponses([fauxAssistantMessage("partial answer", { stopReason: "error", errorMessage: "overloaded" })]);
		const { events, types } = await collect(f.getModel(), userContext());
		expect(shape(types)).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
		const final = events.at(-1);
		if (final?.type !== "error") throw new Error("expected error");
		expect(final.reason).toBe("error");
		expect(final.error.errorMessage).toBe("overloaded");
		expect(final.error.content).toEqual([{ type: "text", text: "partial answer" }]);
	});

	test("a scripted length stop is kept", async () => {
		const f = faux();
		f.setResponses([fauxAssistantMessage("cut", { stopReason: "length" })]);
		expect((await complete(f.getModel(), userContext())).stopReason).toBe("length");
	});
});

describe("registerFauxProvider: abort and pacing", () => {
	test("aborting mid-stream ends with aborted and the partial text", async () => {
		const f = faux({ tokensPerSecond: 2000 });
		const text = "x".repeat(2000);
		f.setResponses([fauxAssistantMessage(text)]);
		const controller = new AbortController();
		const s = stream(f.getModel(), userContext(), { signal: controller.signal });
		const types: string[] = [];
		for await (const event of s) {
			types.push(event.type);
			if (event.type === "text_delta") controller.abort();
		}
		const result = await s.result();
		expect(types.at(-1)).toBe("error");
		expect(types).not.toContain("done");
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		const partial = result.content[0];
		expect(partial?.type).toBe("text");
		const partialText = partial?.type === "text" ? partial.text : "";
		expect(partialText.length).toBeGreaterThan(0);
		expect(partialText.length).toBeLessThan(text.length);
	});

	test("an already aborted signal ends at once with aborted", async () => {
		const f = faux();
		f.setResponses([fauxAssistantMessage("never")]);
		const controller = new AbortController();
		controller.abort();
		const result = await complete(f.getModel(), userContext(), { signal: controller.signal });
		expect(result.stopReason).toBe("aborted");
		expect(result.content).toEqual([]);
	});

	test("tokensPerSecond paces chunks in real time", async () => {
		const f = faux({ tokensPerSecond: 100, tokenSize: 4 });
		f.setResponses([fauxAssistantMessage("y".repeat(40))]);
		const started = performance.now();
		const result = await complete(f.getModel(), userContext());
		const elapsed = performance.now() - started;
		expect(result.content).toEqual([{ type: "text", text: "y".repeat(40) }]);
		// 10 tokens at 100 tokens/s ≈ 100 ms
		expect(elapsed).toBeGreaterThanOrEqual(60);
	});

	test("without tokensPerSecond a long reply streams without waiting on timers", async () => {
		const f = faux();
		f.setResponses([fauxAssistantMessage("z".repeat(4000))]);
		const started = performance.now();
		const result = await complete(f.getModel(), userContext());
		expect(result.stopReason).toBe("stop");
		expect(performance.now() - started).toBeLessThan(1000);
	});
});

describe("registerFauxProvider: usage", () => {
	test("usage is estimated at about 4 characters per token", async () => {
		const f = faux();
		const prompt = "p".repeat(400);
		const reply = "r".repeat(80);
		f.setResponses([fauxAssistantMessage(reply)]);
		const result = await complete(f.getModel(), userContext(prompt));
		expect(result.usage.output).toBe(20);
		expect(result.usage.input).toBeGreaterThanOrEqual(100);
		expect(result.usage.input).toBeLessThanOrEqual(110);
		expect(result.usage.cacheRead).toBe(0);
		expect(result.usage.cacheWrite).toBe(0);
		expect(result.usage.totalTokens).toBe(result.usage.input + result.usage.output);
		expect(result.usage.cost.total).toBe(0);
	});

	test("model prices apply to the estimate", async () => {
		const f = faux({
			models: [{ id: "priced", cost: { input: 1_000_000, output: 2_000_000, cacheRead: 0, cacheWrite: 0 } }],
		});
		f.setResponses([fauxAssistantMessage("r".repeat(8))]);
		const result = await complete(f.getModel(), userContext());
		expect(result.usage.cost.output).toBe(4);
		expect(result.usage.cost.input).toBe(result.usage.input);
	});

	test("repeated prefixes in one session are reported as cache reads", async () => {
		const f = faux();
		f.setResponses([fauxAssistantMessage("a".repeat(40)), fauxAssistantMessage("b"), fauxAssistantMessage("c")]);
		f.appendResponses([fauxAssistantMessage("d"), fauxAssistantMessage("e")]);
		const context = userContext("q".repeat(400));
		const options: StreamOptions = { sessionId: "session-1", cacheRetention: "short" };

		const first = await complete(f.getModel(), context, options);
		expect(first.usage.cacheRead).toBe(0);
		const firstPrompt = first.usage.input;

		context.messages.push(first, { role: "user", content: "follow-up question", timestamp: 2 });
		const second = await complete(f.getModel(), context, options);
		expect(second.usage.cacheRead).toBeGreaterThan(firstPrompt - 2);
		expect(second.usage.cacheRead).toBeLessThanOrEqual(firstPrompt);
		expect(second.usage.input).toBeGreaterThan(0);
		expect(second.usage.input).toBeLessThan(firstPrompt);
		expect(second.usage.totalTokens).toBe(second.usage.input + second.usage.cacheRead + second.usage.output);

		// Same prompt, other session / caching off / no session: nothing cached.
		for (const other of [
			{ sessionId: "session-2", cacheRetention: "short" },
			{ sessionId: "session-1", cacheRetention: "none" },
			{},
		] satisfies StreamOptions[]) {
			const result = await complete(f.getModel(), context, other);
			expect(result.usage.cacheRead).toBe(0);
			expect(result.usage.input).toBe(second.usage.input + second.usage.cacheRead);
		}
	});
});

describe("registerFauxProvider: registry", () => {
	test("two registrations with different apis are independent", async () => {
		const one = faux({ api: "faux-one" });
		const two = faux({ api: "faux-two", provider: "faux-b", models: [{ id: "b-1" }] });
		one.setResponses([fauxAssistantMessage("from one")]);
		two.setResponses([fauxAssistantMessage("from two"), fauxAssistantMessage("again two")]);
		const b = await complete(two.getModel(), userContext());
		const a = await complete(one.getModel(), userContext());
		expect(a).toMatchObject({ api: "faux-one", provider: "faux", model: "faux-1" });
		expect(a.content).toEqual([{ type: "text", text: "from one" }]);
		expect(b).toMatchObject({ api: "faux-two", provider: "faux-b", model: "b-1" });
		expect(b.content).toEqual([{ type: "text", text: "from two" }]);
		expect(one.state.callCount).toBe(1);
		expect(two.state.callCount).toBe(1);
		expect(one.getPendingResponseCount()).toBe(0);
		expect(two.getPendingResponseCount()).toBe(1);
	});

	test("unregister makes the api unknown again", async () => {
		const f = faux({ api: "faux-gone" });
		f.setResponses([fauxAssistantMessage("still queued")]);
		const model = f.getModel();
		f.unregister();
		f.unregister(); // idempotent
		const result = await complete(model, userContext());
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("No API provider registered");
		expect(result.errorMessage).toContain("faux-gone");
		expect(f.state.callCount).toBe(0);
		expect(f.getPendingResponseCount()).toBe(1);
	});
});
