import { describe, expect, test } from "bun:test";
import type { AgentMessage } from "../../../src/agent/index.ts";
import {
	type BoundaryContextPreview,
	createExtensionRunner,
	type ExtensionContext,
	type ExtensionError,
	type ExtensionHandler,
	type NormalizedSystemPromptOptions,
	type ProjectTrustContext,
	type SessionBoundaryDraft,
} from "../../../src/extensions/index.ts";

type Handlers = Record<string, ExtensionHandler[]>;

/** A runner over fake extensions, in the given load order, with every reported error collected. */
function setup(extensions: Record<string, Handlers>) {
	const list = Object.entries(extensions).map(([path, handlers]) => ({
		path,
		handlers: new Map(Object.entries(handlers)),
	}));
	const runner = createExtensionRunner(() => list);
	const errors: ExtensionError[] = [];
	runner.onError((error) => errors.push(error));
	return { runner, errors, list };
}

const ctx = {} as ExtensionContext;
const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const system = (text: string) => ({ role: "system", content: text, timestamp: 1 }) as unknown as AgentMessage;
const never = () => new Promise<never>(() => {});
const promptOptions = (): NormalizedSystemPromptOptions => ({
	cwd: "/w",
	selectedTools: [],
	toolSnippets: {},
	toolGuidelines: {},
	promptGuidelines: [],
	appendSystemPrompt: "",
	sections: {},
	contextFiles: [],
	skills: [],
});

describe("dispatch order and isolation", () => {
	test("extensions in load order, then registration order; async handlers are awaited", async () => {
		const seen: string[] = [];
		const { runner } = setup({
			"/a.ts": {
				agent_start: [
					async () => {
						await Bun.sleep(5);
						seen.push("a1");
					},
					() => {
						seen.push("a2");
					},
				],
			},
			"/b.ts": { agent_start: [() => seen.push("b1"), () => seen.push("b2")] },
		});
		const outcome = await runner.emit("agent_start", {}, ctx);
		expect(seen).toEqual(["a1", "a2", "b1", "b2"]);
		expect(outcome).toBeUndefined();
	});

	test("notify handlers share one event object; the caller's payload is not touched", async () => {
		const events: object[] = [];
		const { runner } = setup({
			"/a.ts": { session_start: [(e) => events.push(e)] },
			"/b.ts": { session_start: [(e) => events.push(e)] },
		});
		const payload = { reason: "startup" as const };
		await runner.emit("session_start", payload, ctx);
		expect(events[0]).toBe(events[1] as object);
		expect(events[0]).toEqual({ type: "session_start", reason: "startup" });
		expect(payload).toEqual({ reason: "startup" });
	});

	test("a throwing or rejecting handler is reported once, with path, event and stack; the rest still run", async () => {
		const seen: string[] = [];
		const { runner, errors } = setup({
			"/a.ts": {
				turn_start: [
					() => {
						throw new Error("sync boom");
					},
				],
			},
			"/b.ts": {
				turn_start: [
					async () => {
						throw new Error("async boom");
					},
					() => seen.push("b2"),
				],
			},
		});
		await runner.emit("turn_start", { turnIndex: 0, timestamp: 1 }, ctx);
		expect(seen).toEqual(["b2"]);
		expect(errors.map(({ extensionPath, event, error }) => ({ extensionPath, event, error }))).toEqual([
			{ extensionPath: "/a.ts", event: "turn_start", error: "sync boom" },
			{ extensionPath: "/b.ts", event: "turn_start", error: "async boom" },
		]);
		expect(errors[0]?.stack).toContain("sync boom");
	});

	test("non-Error throws are reported with a readable message and no stack", async () => {
		const { runner, errors } = setup({
			"/a.ts": {
				agent_end: [
					() => {
						throw "plain string";
					},
				],
			},
		});
		await runner.emit("agent_end", { messages: [] }, ctx);
		expect(errors).toEqual([{ extensionPath: "/a.ts", event: "agent_end", error: "plain string", stack: undefined }]);
	});

	test("handlers are snapshotted: changes during a dispatch apply to the next one", async () => {
		const seen: string[] = [];
		const late: ExtensionHandler = () => seen.push("late");
		const { runner, list } = setup({
			"/a.ts": {
				agent_settled: [
					() => {
						seen.push("first");
						list[0]?.handlers.get("agent_settled")?.push(late);
					},
				],
			},
		});
		await runner.emit("agent_settled", {}, ctx);
		expect(seen).toEqual(["first"]);
		await runner.emit("agent_settled", {}, ctx);
		expect(seen).toEqual(["first", "first", "late"]);
	});

	test("hasHandlers, onError unsubscribe, and a throwing error listener does not break the dispatch", async () => {
		const { runner, errors } = setup({
			"/a.ts": {
				agent_start: [
					() => {
						throw new Error("x");
					},
				],
			},
		});
		expect(runner.hasHandlers("agent_start")).toBe(true);
		expect(runner.hasHandlers("agent_end")).toBe(false);
		const other: ExtensionError[] = [];
		const off = runner.onError((e) => other.push(e));
		const offBroken = runner.onError(() => {
			throw new Error("listener broke");
		});
		const originalError = console.error;
		console.error = () => {};
		try {
			await runner.emit("agent_start", {}, ctx);
		} finally {
			console.error = originalError;
		}
		off();
		offBroken();
		await runner.emit("agent_start", {}, ctx);
		expect(other).toHaveLength(1);
		expect(errors).toHaveLength(2);
	});
});

describe("cancellable: session_before_*", () => {
	test("{ cancel: true } short-circuits", async () => {
		const seen: string[] = [];
		const { runner } = setup({
			"/a.ts": { session_before_switch: [() => ({ cancel: true })] },
			"/b.ts": { session_before_switch: [() => seen.push("b")] },
		});
		expect(await runner.emit("session_before_switch", { reason: "new" }, ctx)).toEqual({ cancel: true });
		expect(seen).toEqual([]);
	});

	test("without a cancel the last object wins; wrong shapes are reported and ignored", async () => {
		const compaction = { summary: "s", firstKeptEntryId: "e1", tokensBefore: 10 };
		const { runner, errors } = setup({
			"/a.ts": { session_before_compact: [() => ({ compaction })] },
			"/b.ts": { session_before_compact: [() => "cancel" as any, () => undefined] },
		});
		const outcome = await runner.emit(
			"session_before_compact",
			{
				preparation: {} as any,
				branchEntries: [],
				reason: "manual",
				willRetry: false,
				signal: new AbortController().signal,
			},
			ctx,
		);
		expect(outcome).toEqual({ compaction });
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({ extensionPath: "/b.ts", event: "session_before_compact" });
		expect(errors[0]?.error).toContain("a string");
	});

	test("a throwing handler is isolated: the next one can still cancel", async () => {
		const { runner, errors } = setup({
			"/a.ts": {
				session_before_fork: [
					() => {
						throw new Error("nope");
					},
				],
			},
			"/b.ts": { session_before_fork: [() => ({ cancel: true, skipConversationRestore: true })] },
		});
		const outcome = await runner.emit("session_before_fork", { entryId: "e", position: "at" }, ctx);
		expect(outcome).toEqual({ cancel: true, skipConversationRestore: true });
		expect(errors).toHaveLength(1);
	});
});

describe("blocking: tool_call (fails closed)", () => {
	const call = () => ({ toolCallId: "c1", toolName: "bash", input: { command: "ls" } });

	test("{ block: true } short-circuits; input edits are seen by later handlers and by the caller", async () => {
		const seen: string[] = [];
		const { runner } = setup({
			"/a.ts": {
				tool_call: [
					(e) => {
						e.input.command = "ls -la";
					},
				],
			},
			"/b.ts": {
				tool_call: [
					(e) => {
						seen.push(e.input.command);
						return { block: true, reason: "no listing" };
					},
					() => seen.push("never"),
				],
			},
		});
		const payload = call();
		expect(await runner.emit("tool_call", payload, ctx)).toEqual({ block: true, reason: "no listing" });
		expect(seen).toEqual(["ls -la"]);
		expect(payload.input.command).toBe("ls -la");
	});

	test("a throwing handler blocks the call with its error text, is reported once, and stops the dispatch", async () => {
		const seen: string[] = [];
		const { runner, errors } = setup({
			"/a.ts": {
				tool_call: [
					() => {
						throw new Error("policy service down");
					},
				],
			},
			"/b.ts": { tool_call: [() => seen.push("b")] },
		});
		expect(await runner.emit("tool_call", call(), ctx)).toEqual({ block: true, reason: "policy service down" });
		expect(seen).toEqual([]);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({ extensionPath: "/a.ts", event: "tool_call", error: "policy service down" });
	});

	test("with rethrow (pi's SDK runner), a throwing handler is reported once and its error rejects the emit", async () => {
		const boom = new Error("policy service down");
		const { runner, errors } = setup({
			"/a.ts": {
				tool_call: [
					() => {
						throw boom;
					},
				],
			},
		});
		await expect(runner.emit("tool_call", call(), ctx, { rethrow: true })).rejects.toBe(boom);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({ extensionPath: "/a.ts", event: "tool_call", error: "policy service down" });
	});

	test("a rejecting async handler blocks too", async () => {
		const { runner } = setup({ "/a.ts": { tool_call: [async () => Promise.reject(new Error("denied"))] } });
		expect(await runner.emit("tool_call", call(), ctx)).toEqual({ block: true, reason: "denied" });
	});

	test("a string return is ignored with a report; a non-blocking object passes through", async () => {
		const { runner, errors } = setup({
			"/a.ts": { tool_call: [() => "block" as any] },
			"/b.ts": { tool_call: [() => ({ terminate: true })] },
		});
		expect(await runner.emit("tool_call", call(), ctx)).toEqual({ terminate: true });
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({ extensionPath: "/a.ts", event: "tool_call" });
	});

	test("an abandoned handler (timeout) blocks", async () => {
		const { runner, errors } = setup({ "/a.ts": { tool_call: [never] } });
		const outcome = await runner.emit("tool_call", call(), ctx, { timeoutMs: 10 });
		expect(outcome?.block).toBe(true);
		expect(outcome?.reason).toContain("10 ms");
		expect(errors).toHaveLength(1);
	});

	test("an aborted caller gets a block, whether the handler was running or not yet started", async () => {
		const controller = new AbortController();
		const { runner, errors } = setup({ "/a.ts": { tool_call: [never] } });
		const pending = runner.emit("tool_call", call(), ctx, { signal: controller.signal });
		await Bun.sleep(1);
		controller.abort();
		expect((await pending)?.block).toBe(true);
		expect(errors).toHaveLength(1);
		expect(await runner.emit("tool_call", call(), ctx, { signal: controller.signal })).toEqual({
			block: true,
			reason: "the caller aborted",
		});
		expect(errors).toHaveLength(1);
	});

	test("no handlers: undefined (the tool runs)", async () => {
		const { runner } = setup({});
		expect(await runner.emit("tool_call", call(), ctx)).toBeUndefined();
	});
});

describe("first-wins", () => {
	const bash = { command: "ls", excludeFromContext: false, cwd: "/w" };
	const result = { output: "hi", exitCode: 0, cancelled: false, truncated: false };

	test("user_bash: undefined passes on; the first result wins and later handlers do not run", async () => {
		const seen: string[] = [];
		const { runner } = setup({
			"/a.ts": { user_bash: [() => undefined] },
			"/b.ts": { user_bash: [() => ({ result })] },
			"/c.ts": { user_bash: [() => seen.push("c")] },
		});
		expect(await runner.emit("user_bash", bash, ctx)).toEqual({ result: { result }, extensionPath: "/b.ts" });
		expect(seen).toEqual([]);
	});

	test("user_bash: operations are accepted; nobody answering means local execution", async () => {
		const operations = { exec: async () => ({ exitCode: 0 }) };
		const { runner } = setup({ "/a.ts": { user_bash: [() => ({ operations })] } });
		expect((await runner.emit("user_bash", bash, ctx)).result).toEqual({ operations });
		expect(await setup({}).runner.emit("user_bash", bash, ctx)).toEqual({});
	});

	test("user_bash fails closed: a throw or an invalid result becomes an error, reported once", async () => {
		const thrown = setup({
			"/a.ts": {
				user_bash: [
					() => {
						throw new Error("ssh down");
					},
				],
			},
			"/b.ts": { user_bash: [() => ({ result })] },
		});
		expect(await thrown.runner.emit("user_bash", bash, ctx)).toEqual({ error: "ssh down", extensionPath: "/a.ts" });
		expect(thrown.errors).toHaveLength(1);

		const invalid = setup({ "/a.ts": { user_bash: [() => ({})] } });
		const outcome = await invalid.runner.emit("user_bash", bash, ctx);
		expect(outcome.error).toContain("invalid user_bash result");
		expect(outcome.result).toBeUndefined();
		expect(invalid.errors).toHaveLength(1);
	});

	test("user_bash: a handler abandoned on abort is an error, not local execution", async () => {
		const controller = new AbortController();
		const { runner } = setup({ "/a.ts": { user_bash: [never] } });
		const pending = runner.emit("user_bash", bash, ctx, { signal: controller.signal });
		await Bun.sleep(1);
		controller.abort();
		const outcome = await pending;
		expect(outcome.extensionPath).toBe("/a.ts");
		expect(outcome.error).toContain("abandoned");
	});

	test("project_trust: undecided falls through, failures are isolated, the first yes/no wins", async () => {
		const seen: string[] = [];
		const { runner, errors } = setup({
			"/a.ts": {
				project_trust: [
					() => ({ trusted: "undecided" }),
					() => {
						throw new Error("broken");
					},
					() => undefined,
				],
			},
			"/b.ts": { project_trust: [() => ({ trusted: "yes", remember: true }), () => seen.push("later")] },
		});
		const trustCtx = { cwd: "/w", mode: "print", hasUI: false, ui: {} } as unknown as ProjectTrustContext;
		expect(await runner.emit("project_trust", { cwd: "/w" }, trustCtx)).toEqual({ trusted: "yes", remember: true });
		expect(seen).toEqual([]);
		expect(errors.map((e) => e.extensionPath)).toEqual(["/a.ts", "/a.ts"]);
	});
});

describe("aggregate: resources_discover", () => {
	test("collects paths from every handler, each tagged with its extension; bad entries are reported", async () => {
		const { runner, errors } = setup({
			"/a.ts": { resources_discover: [() => ({ skillPaths: ["/a/skills"], promptPaths: ["/a/prompts"] })] },
			"/b.ts": {
				resources_discover: [
					() => {
						throw new Error("x");
					},
					() => ({ skillPaths: ["/b/skills", 42], themePaths: "/b/themes" }),
				],
			},
		});
		const outcome = await runner.emit("resources_discover", { cwd: "/w", reason: "startup" }, ctx);
		expect(outcome).toEqual({
			skillPaths: [
				{ path: "/a/skills", extensionPath: "/a.ts" },
				{ path: "/b/skills", extensionPath: "/b.ts" },
			],
			promptPaths: [{ path: "/a/prompts", extensionPath: "/a.ts" }],
			themePaths: [],
		});
		expect(errors).toHaveLength(3);
		expect(errors.every((e) => e.extensionPath === "/b.ts" && e.event === "resources_discover")).toBe(true);
	});
});

describe("chained: input", () => {
	const payload = { text: "hello", source: "interactive" as const };

	test("transforms chain; images are kept unless replaced; no change means continue", async () => {
		const image = { type: "image" as const, data: "x", mimeType: "image/png" };
		const seen: string[] = [];
		const { runner } = setup({
			"/a.ts": { input: [(e) => ({ action: "transform", text: `${e.text}!` })] },
			"/b.ts": {
				input: [
					(e) => {
						seen.push(e.text);
						return { action: "continue" };
					},
					(e) => ({ action: "transform", text: e.text.toUpperCase() }),
				],
			},
		});
		expect(await runner.emit("input", { ...payload, images: [image] }, ctx)).toEqual({
			action: "transform",
			text: "HELLO!",
			images: [image],
		});
		expect(seen).toEqual(["hello!"]);
		expect(
			await setup({ "/a.ts": { input: [() => ({ action: "continue" })] } }).runner.emit("input", payload, ctx),
		).toEqual({ action: "continue" });
	});

	test("handled short-circuits", async () => {
		const seen: string[] = [];
		const { runner } = setup({
			"/a.ts": { input: [() => ({ action: "handled" })] },
			"/b.ts": { input: [() => seen.push("b")] },
		});
		expect(await runner.emit("input", payload, ctx)).toEqual({ action: "handled" });
		expect(seen).toEqual([]);
	});

	test("an unknown action is reported and ignored", async () => {
		const { runner, errors } = setup({ "/a.ts": { input: [() => ({ action: "explode" })] } });
		expect(await runner.emit("input", payload, ctx)).toEqual({ action: "continue" });
		expect(errors).toHaveLength(1);
	});

	test("a never-resolving handler is abandoned when the caller aborts: continue, one report", async () => {
		const seen: string[] = [];
		const { runner, errors } = setup({
			"/a.ts": { input: [never] },
			"/b.ts": { input: [() => seen.push("b")] },
		});
		const controller = new AbortController();
		const pending = runner.emit("input", payload, ctx, { signal: controller.signal });
		await Bun.sleep(5);
		controller.abort();
		expect(await pending).toEqual({ action: "continue" });
		expect(seen).toEqual([]);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({ extensionPath: "/a.ts", event: "input" });
		expect(errors[0]?.error).toContain("aborted");
	});

	test("a per-handler timeout abandons the slow handler and moves on", async () => {
		const { runner, errors } = setup({
			"/a.ts": { input: [never] },
			"/b.ts": { input: [(e) => ({ action: "transform", text: `${e.text} (b)` })] },
		});
		expect(await runner.emit("input", payload, ctx, { timeoutMs: 10 })).toEqual({
			action: "transform",
			text: "hello (b)",
			images: undefined,
		});
		expect(errors).toHaveLength(1);
	});
});

describe("chained: context and context_with_system", () => {
	test("handlers work on a deep copy; replacements chain; system messages are hidden and restored", async () => {
		const original = [system("prompt"), user("one"), user("two")];
		const snapshot = structuredClone(original);
		const seen: number[] = [];
		const { runner } = setup({
			"/a.ts": {
				context: [
					(e) => {
						seen.push(e.messages.length);
						(e.messages[0] as any).content = "edited in place";
						return { messages: e.messages.slice(1) };
					},
				],
			},
			"/b.ts": {
				context: [
					(e) => {
						seen.push(e.messages.length);
						e.messages.push(user("three"));
					},
				],
			},
		});
		const out = await runner.emit("context", { messages: original }, ctx);
		expect(seen).toEqual([2, 1]);
		expect(out.map((m: any) => m.content)).toEqual(["prompt", "two", "three"]);
		expect(original).toEqual(snapshot);
	});

	test("an untouched list is returned as the copy; a custom restore hook is used when given", async () => {
		const { runner } = setup({ "/a.ts": { context: [(e) => ({ messages: e.messages.slice(1) })] } });
		const restoreSystemMessages = (_current: AgentMessage[], conversation: AgentMessage[]) => [
			system("checkpoint"),
			...conversation,
		];
		const out = await runner.emit(
			"context",
			{ messages: [system("a"), user("x"), system("b"), user("y")], restoreSystemMessages },
			ctx,
		);
		expect(out.map((m: any) => m.content)).toEqual(["checkpoint", "y"]);
		const untouched = await setup({ "/a.ts": { context: [() => undefined] } }).runner.emit(
			"context",
			{ messages: [user("x")] },
			ctx,
		);
		expect(untouched).toEqual([user("x")]);
	});

	test("a throwing context handler is isolated; wrong shapes are reported", async () => {
		const { runner, errors } = setup({
			"/a.ts": {
				context: [
					() => {
						throw new Error("bad");
					},
					() => ({ messages: "nope" }),
				],
			},
		});
		expect(await runner.emit("context", { messages: [user("x")] }, ctx)).toEqual([user("x")]);
		expect(errors).toHaveLength(2);
	});

	test("context_with_system sees the whole transcript; dropping the leading system message is reported, not undone", async () => {
		const { runner, errors } = setup({
			"/a.ts": { context_with_system: [(e) => ({ messages: e.messages.filter((m: any) => m.role !== "system") })] },
		});
		const out = await runner.emit("context_with_system", { messages: [system("p"), user("x")] }, ctx);
		expect(out).toEqual([user("x")]);
		expect(errors).toHaveLength(1);
		expect(errors[0]?.error).toContain("leading system message");
	});
});

describe("chained: before_agent_start", () => {
	test("systemPrompt chains for this run; messages are collected from every handler", async () => {
		const seen: string[] = [];
		const options = promptOptions();
		const message = (customType: string) => ({ customType, content: "c", display: false });
		const { runner } = setup({
			"/a.ts": {
				before_agent_start: [
					(e) => {
						seen.push(e.systemPrompt);
						e.systemPromptOptions.promptGuidelines.push("be brief");
						return { message: message("a"), systemPrompt: `${e.systemPrompt} +a` };
					},
				],
			},
			"/b.ts": {
				before_agent_start: [
					(e) => {
						seen.push(e.systemPrompt);
						seen.push(String(e.systemPromptOptions.promptGuidelines));
						return { message: message("b") };
					},
				],
			},
		});
		const outcome = await runner.emit(
			"before_agent_start",
			{ prompt: "hi", systemPrompt: "base", systemPromptOptions: options },
			ctx,
		);
		expect(seen).toEqual(["base", "base +a", "be brief"]);
		expect(outcome.messages.map((m) => m.customType)).toEqual(["a", "b"]);
		expect(outcome.systemPrompt).toBe("base +a");
		expect(outcome.systemPromptOptions.forceSystemPrompt).toBe("base +a");
	});

	test("a getter systemPrompt in the payload stays live until a handler overrides it", async () => {
		const options = promptOptions();
		const seen: string[] = [];
		const { runner } = setup({
			"/a.ts": {
				before_agent_start: [
					(e) => {
						e.systemPromptOptions.sections.extra = "X";
					},
					(e) => {
						seen.push(e.systemPrompt);
					},
				],
			},
		});
		const payload = {
			prompt: "hi",
			get systemPrompt() {
				return `sections:${Object.keys(options.sections).join(",")}`;
			},
			systemPromptOptions: options,
		};
		const outcome = await runner.emit("before_agent_start", payload, ctx);
		expect(seen).toEqual(["sections:extra"]);
		expect(outcome.systemPrompt).toBeUndefined();
	});
});

describe("chained: tool_result, message_end, provider payload, cache warming", () => {
	test("tool_result patches chain and are returned together; nothing changed means undefined", async () => {
		const seen: unknown[] = [];
		const { runner, errors } = setup({
			"/a.ts": { tool_result: [() => ({ content: [{ type: "text", text: "redacted" }], isError: "yes" })] },
			"/b.ts": {
				tool_result: [
					(e) => {
						seen.push(e.content);
						return { details: { n: 1 } };
					},
				],
			},
		});
		const payload = {
			toolCallId: "c",
			toolName: "read",
			input: {},
			content: [{ type: "text" as const, text: "secret" }],
			details: undefined,
			isError: false,
		};
		expect(await runner.emit("tool_result", payload, ctx)).toEqual({
			content: [{ type: "text", text: "redacted" }],
			details: { n: 1 },
			isError: false,
			usage: undefined,
		});
		expect(seen).toEqual([[{ type: "text", text: "redacted" }]]);
		expect(errors).toHaveLength(1);
		expect(payload.content[0]?.text).toBe("secret");
		expect(await setup({ "/a.ts": { tool_result: [() => undefined] } }).runner.emit("tool_result", payload, ctx)).toBe(
			undefined,
		);
	});

	test("message_end may replace the message only with one of the same role", async () => {
		const replaced = user("replaced");
		const { runner, errors } = setup({
			"/a.ts": { message_end: [() => ({ message: { role: "assistant", content: [] } })] },
			"/b.ts": { message_end: [() => ({ message: replaced })] },
		});
		expect(await runner.emit("message_end", { message: user("orig") }, ctx)).toBe(replaced);
		expect(errors).toHaveLength(1);
		expect(errors[0]?.error).toContain('role "user"');
		expect(await setup({}).runner.emit("message_end", { message: user("x") }, ctx)).toBeUndefined();
	});

	test("before_provider_request: any defined value replaces the payload for the next handler", async () => {
		const seen: unknown[] = [];
		const { runner } = setup({
			"/a.ts": { before_provider_request: [(e) => ({ ...(e.payload as object), temperature: 0 })] },
			"/b.ts": {
				before_provider_request: [
					(e) => {
						seen.push(e.payload);
					},
				],
			},
		});
		expect(await runner.emit("before_provider_request", { payload: { model: "m" } }, ctx)).toEqual({
			model: "m",
			temperature: 0,
		});
		expect(seen).toEqual([{ model: "m", temperature: 0 }]);
	});

	test("before_provider_headers: handlers edit the headers in place", async () => {
		const { runner } = setup({
			"/a.ts": {
				before_provider_headers: [
					(e) => {
						e.headers["x-trace"] = "1";
						e.headers.authorization = null;
					},
				],
			},
		});
		const headers: Record<string, string | null> = { authorization: "k" };
		expect(await runner.emit("before_provider_headers", { headers }, ctx)).toBeUndefined();
		expect(headers).toEqual({ authorization: null, "x-trace": "1" });
	});

	test("cache_warming_decision: the last valid action wins; the event's own action is the default", async () => {
		const base = { warmCost: 1, missCost: 2, continuationProbability: 0.5, action: "warm" as const };
		const { runner, errors } = setup({
			"/a.ts": { cache_warming_decision: [() => ({ action: "stop" }), () => ({ action: "maybe" })] },
			"/b.ts": { cache_warming_decision: [() => ({})] },
		});
		expect(await runner.emit("cache_warming_decision", base, ctx)).toBe("stop");
		expect(errors).toHaveLength(1);
		expect(await setup({}).runner.emit("cache_warming_decision", base, ctx)).toBe("warm");
	});
});

describe("chained: boundaries (turn_end, agent_before_settle)", () => {
	const preview = (entries: SessionBoundaryDraft[]): BoundaryContextPreview => ({
		contextEntries: [],
		contextMessages: entries.map((e) => user(e.type)),
		llmMessages: [],
		pendingMessages: [],
		canContinue: true,
	});
	const draft: SessionBoundaryDraft = { type: "custom", customType: "note", data: 1 };

	test("entries and continue chain; the preview is rebuilt for each handler", async () => {
		const seen: number[] = [];
		const { runner } = setup({
			"/a.ts": { agent_before_settle: [(e) => ({ entries: [...e.entries, draft], continue: true })] },
			"/b.ts": {
				agent_before_settle: [
					(e) => {
						seen.push(e.entries.length, e.context.contextMessages.length, Number(e.continue));
					},
				],
			},
		});
		const outcome = await runner.emit("agent_before_settle", { outcome: "completed", buildContext: preview }, ctx);
		expect(seen).toEqual([1, 1, 1]);
		expect(outcome).toMatchObject({ entries: [draft], continue: true, valid: true });
	});

	test("entries the preview rejects are reported and dropped", async () => {
		const { runner, errors } = setup({ "/a.ts": { turn_end: [() => ({ entries: [draft], continue: true })] } });
		const buildContext = (entries: SessionBoundaryDraft[]) => {
			if (entries.length > 0) throw new Error("unknown target");
			return preview(entries);
		};
		const outcome = await runner.emit(
			"turn_end",
			{
				outcome: "completed",
				turnIndex: 0,
				message: user("m"),
				toolResults: [],
				messageEntryId: "e1",
				toolResultEntryIds: [],
				buildContext,
			},
			ctx,
		);
		expect(outcome).toMatchObject({ entries: [], continue: false, valid: false });
		expect(errors[0]?.error).toBe("invalid boundary entries: unknown target");
	});
});
