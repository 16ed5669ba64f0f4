import { describe, expect, test } from "bun:test";
import {
	createEventBus,
	createExtensionApi,
	createExtensionRunner,
	EVENT_NAMES,
	EVENT_TABLE,
	type ExtensionAPI,
	type ExtensionContext,
	isExtensionEventName,
} from "../../../src/extensions/index.ts";
import { reducerFor } from "../../../src/extensions/reducers.ts";

/** The 39 events `pi.on()` accepts in pi 0.87.1 (its ExtensionAPI overloads). */
const PI_0_87_1_EVENTS = [
	"project_trust",
	"resources_discover",
	"session_start",
	"session_info_changed",
	"session_before_switch",
	"session_before_fork",
	"session_before_compact",
	"session_compact",
	"session_compact_failed",
	"session_shutdown",
	"session_before_tree",
	"session_tree",
	"context",
	"context_with_system",
	"cache_warming_decision",
	"before_provider_request",
	"before_provider_headers",
	"after_provider_response",
	"before_agent_start",
	"agent_start",
	"agent_end",
	"agent_before_settle",
	"agent_settled",
	"ui_prompt_start",
	"ui_prompt_end",
	"turn_start",
	"turn_end",
	"message_start",
	"message_update",
	"message_end",
	"tool_execution_start",
	"tool_execution_update",
	"tool_execution_end",
	"model_select",
	"thinking_level_select",
	"tool_call",
	"tool_result",
	"user_bash",
	"input",
];

describe("event table", () => {
	test("covers pi 0.87.1's 39 events plus the two legacy session events, nothing else", () => {
		expect(PI_0_87_1_EVENTS).toHaveLength(39);
		expect<string[]>([...EVENT_NAMES].sort()).toEqual([...PI_0_87_1_EVENTS, "session_fork", "session_switch"].sort());
		const legacy = EVENT_NAMES.filter((name) => EVENT_TABLE[name].legacy);
		expect(legacy.sort()).toEqual(["session_fork", "session_switch"]);
		expect(isExtensionEventName("tool_call")).toBe(true);
		expect(isExtensionEventName("session_directory")).toBe(false);
		expect(isExtensionEventName("toString")).toBe(false);
	});

	test("kinds follow the documented semantics", () => {
		const byKind = (kind: string) => EVENT_NAMES.filter((name) => EVENT_TABLE[name].kind === kind).sort();
		expect(byKind("cancellable")).toEqual([
			"session_before_compact",
			"session_before_fork",
			"session_before_switch",
			"session_before_tree",
		]);
		expect(byKind("blocking")).toEqual(["tool_call"]);
		expect(byKind("first-wins")).toEqual(["project_trust", "user_bash"]);
		expect(byKind("aggregate")).toEqual(["resources_discover"]);
		expect(byKind("chained")).toEqual([
			"agent_before_settle",
			"before_agent_start",
			"before_provider_request",
			"cache_warming_decision",
			"context",
			"context_with_system",
			"input",
			"message_end",
			"tool_result",
			"turn_end",
		]);
		expect(byKind("notify")).toContain("before_provider_headers");
		expect(byKind("notify")).toContain("session_switch");
	});

	test("only tool_call and user_bash fail closed", () => {
		expect(EVENT_NAMES.filter((name) => EVENT_TABLE[name].failClosed).sort()).toEqual(["tool_call", "user_bash"]);
	});

	test("every event has a reducer, and fail-closed ones know how to refuse", () => {
		for (const name of EVENT_NAMES) {
			const reducer = reducerFor(name);
			if (EVENT_TABLE[name].failClosed) expect(typeof reducer.fail).toBe("function");
		}
	});
});

describe("pi.on through the loading-phase api", () => {
	test("handlers registered by pi.on run through the runner; the returned function unsubscribes", async () => {
		const handle = createExtensionApi("/ext/a.ts", createEventBus());
		const pi = handle.api as unknown as ExtensionAPI;
		const seen: string[] = [];
		const off = pi.on("agent_start", () => {
			seen.push("one");
		});
		pi.on("agent_start", () => {
			seen.push("two");
		});
		const runner = createExtensionRunner(() => [{ path: "/ext/a.ts", handlers: handle.registrations.handlers }]);
		await runner.emit("agent_start", {}, {} as ExtensionContext);
		off();
		off();
		await runner.emit("agent_start", {}, {} as ExtensionContext);
		expect(seen).toEqual(["one", "two", "two"]);
	});

	test("after invalidate, every pi member throws the stale error and its event-bus subscriptions are gone", () => {
		const bus = createEventBus();
		const handle = createExtensionApi("/ext/a.ts", bus);
		const pi = handle.api as unknown as ExtensionAPI;
		const seen: unknown[] = [];
		pi.events.on("ch", (data) => seen.push(data));
		bus.emit("ch", 1);
		handle.invalidate();
		bus.emit("ch", 2);
		expect(seen).toEqual([1]);
		expect(() => pi.on("agent_start", () => {})).toThrow("stale extension context");
		expect(() => pi.registerCommand("x", { handler: () => {} })).toThrow("stale extension context");
		expect(() => pi.getFlag("x")).toThrow("stale extension context");
		expect(() => pi.sendUserMessage("hi")).toThrow("stale extension context");
		expect(() => pi.events.emit("ch", 3)).toThrow("stale extension context");
	});
});

/** Compile-time checks: `on` takes its handler's types from the event table. Never called. */
export function typeChecks(pi: ExtensionAPI): void {
	pi.on("tool_call", (event) =>
		JSON.stringify(event.input).includes("rm") ? { block: true, reason: "no" } : undefined,
	);
	// @ts-expect-error block must be a boolean
	pi.on("tool_call", () => ({ block: "yes" }));
	pi.on("input", async (event) => ({ action: "transform", text: event.text.trim() }));
	// @ts-expect-error unknown input action
	pi.on("input", () => ({ action: "explode" }));
	pi.on("session_start", (event) => {
		const reason: "startup" | "reload" | "new" | "resume" | "fork" = event.reason;
		void reason;
	});
	// @ts-expect-error not an event
	pi.on("no_such_event", () => {});
	pi.on("project_trust", async (event, ctx) => ({
		trusted: (await ctx.ui.confirm("Trust?", event.cwd)) ? "yes" : "no",
	}));
	pi.on("before_agent_start", (event) => ({ systemPrompt: `${event.systemPrompt}\nExtra rules.` }));
	pi.on("resources_discover", () => ({ skillPaths: ["/skills"] }));
	pi.on("user_bash", () => ({ result: { output: "", exitCode: 0, cancelled: false, truncated: false } }));
	pi.on("context", (event) => ({ messages: event.messages.slice(-10) }));
	pi.on("turn_end", (event) => (event.context.canContinue ? { continue: true } : undefined));
	pi.on("session_before_switch", async (_event, ctx) => ({ cancel: !(await ctx.ui.confirm("Leave?", "")) }));
	const off: () => void = pi.on("agent_end", (event, ctx) => {
		ctx.ui.notify(`${event.messages.length} messages`, "info");
	});
	off();
}
