/**
 * `ExtensionRunner`, pi's SDK class for driving extensions by hand: the same two small extensions are loaded
 * with `discoverAndLoadExtensions` and driven through the runner by ours and by pi 0.87.1's (Node 22), and every
 * observation (event results, what handlers saw, errors reported, registered tools, commands, flags, shortcuts,
 * the stale ctx after `invalidate`) must be the same.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";

const pi = piReference("extension-runner-vs-pi");

const EXTENSION_A = `
export default function (pi) {
	globalThis.__piA = pi;
	const log = (...entry) => globalThis.__log.push(entry);
	pi.registerFlag("verbose", { description: "Talk more", type: "boolean", default: false });
	pi.registerFlag("name", { type: "string", default: "anon" });
	pi.registerProvider("fake-provider", { baseUrl: "http://127.0.0.1:9", apiKey: "k", api: "openai-completions", models: [] });
	pi.registerCommand("hello", { description: "Say hi", handler: async (args, ctx) => {
		log("command", args, pi.getFlag("verbose"), ctx.cwd === globalThis.__cwd);
		log("newSession", await ctx.newSession({ parentSession: "p" }));
		log("waited", await ctx.waitForIdle());
	} });
	pi.registerTool({ name: "greet", label: "Greet", description: "Greets", parameters: { type: "object", properties: {} },
		execute: async () => ({ content: [], details: undefined }) });
	pi.registerShortcut("ctrl+c", { description: "reserved", handler: () => {} });
	pi.registerShortcut("ctrl+b", { description: "takes a bound key", handler: () => {} });
	pi.registerShortcut("ctrl+shift+h", { description: "free", handler: () => {} });
	pi.registerMessageRenderer("note", () => undefined);
	pi.on("session_start", (event, ctx) => {
		try { pi.sendMessage({ customType: "note", content: "hi", display: true }); log("sent"); }
		catch { log("send threw"); }
		log("session_start", event.reason, ctx.hasUI, ctx.mode, ctx.isIdle(), ctx.model?.id ?? null);
	});
	pi.on("session_before_switch", (event) => ({ cancel: event.reason === "new" }));
	pi.on("input", (event) => event.text.startsWith("x") ? { action: "transform", text: event.text.toUpperCase() }
		: event.text === "stop" ? { action: "handled" } : undefined);
	pi.on("tool_call", (event) => event.toolName === "bash" ? { block: true, reason: "no bash" } : undefined);
	pi.on("tool_result", () => ({ content: [{ type: "text", text: "patched" }] }));
	pi.on("before_provider_request", (event) => ({ ...event.payload, extra: 1 }));
	pi.on("before_provider_headers", (event) => { event.headers["x-ext"] = "1"; delete event.headers.drop; });
	pi.on("resources_discover", (event) => ({ skillPaths: ["/skills/" + event.reason] }));
	pi.on("turn_start", () => { throw new Error("boom"); });
	pi.on("message_end", (event) => ({ message: { ...event.message, content: "changed" } }));
	pi.on("context", (event) => ({ messages: event.messages.slice(-1) }));
	pi.on("user_bash", (event) => event.command === "ls"
		? { result: { output: "fake", exitCode: 0, cancelled: false, truncated: false } }
		: event.command === "bad" ? { nonsense: 1 } : undefined);
	pi.on("cache_warming_decision", () => ({ action: "stop" }));
	pi.on("before_agent_start", (event) => {
		log("before_agent_start", event.prompt, typeof event.systemPrompt, event.systemPromptOptions.cwd === globalThis.__cwd);
		return { message: { customType: "note", content: "from a", display: true } };
	});
	pi.on("turn_end", (event) => {
		log("turn_end", event.entries.length, event.continue, event.context);
		return { entries: [{ type: "custom", customType: "t", data: 1 }], continue: true };
	});
	pi.on("ui_prompt_start", (event) => log("ui_prompt_start", event.kind, event.title ?? null));
	pi.on("ui_prompt_end", (event) => log("ui_prompt_end", event.kind, event.title ?? null));
}
`;

const EXTENSION_B = `
export default function (pi) {
	pi.registerFlag("verbose", { type: "boolean", default: true });
	pi.registerCommand("hello", { description: "Also hi", handler: async () => {} });
	pi.registerCommand("bye", { handler: async () => {} });
	pi.registerTool({ name: "greet", label: "Second greet", description: "x", parameters: { type: "object", properties: {} },
		execute: async () => ({ content: [], details: undefined }) });
	pi.registerShortcut("ctrl+shift+h", { description: "later wins", handler: () => {} });
	pi.on("before_agent_start", () => ({ message: { customType: "note", content: "from b", display: false } }));
	pi.on("input", (event) => event.text === "XYZ" ? { action: "transform", text: event.text + "!" } : undefined);
	pi.on("session_start", () => {
		pi.registerTool({ name: "late", label: "Late", description: "registered from a handler",
			parameters: { type: "object", properties: {} }, execute: async () => ({ content: [], details: undefined }) });
	});
}
`;

const SCRIPT = `
const fs = await import("node:fs");
const path = await import("node:path");
const root = args.dir;
const cwd = path.join(root, "proj");
const agentDir = path.join(root, "agent");
fs.mkdirSync(cwd, { recursive: true });
fs.mkdirSync(agentDir, { recursive: true });
fs.writeFileSync(path.join(root, "a.ts"), args.a);
fs.writeFileSync(path.join(root, "b.ts"), args.b);
globalThis.__log = [];
globalThis.__cwd = cwd;
const log = (...entry) => globalThis.__log.push(entry);
const base = (p) => path.basename(p);
const attempt = async (fn) => { try { return await fn(); } catch { return "threw"; } };
const loaded = await pi.discoverAndLoadExtensions([path.join(root, "a.ts"), path.join(root, "b.ts")], cwd, agentDir);
const registry = {
	registerProvider: (name) => log("registry.registerProvider", name),
	unregisterProvider: (name) => log("registry.unregisterProvider", name),
};
const runner = new pi.ExtensionRunner(loaded.extensions, loaded.runtime, cwd, { getCwd: () => cwd }, registry);
const errors = [];
const off = runner.onError((e) => errors.push([base(e.extensionPath), e.event, e.event === "user_bash" ? "-" : e.error]));
const out = {};
out.loadErrors = loaded.errors.length;
out.paths = runner.getExtensionPaths().map(base);
out.hasUI = runner.hasUI();
out.flags = [...runner.getFlags()].map(([name, f]) => [name, f.type, f.default, base(f.extensionPath)]);
out.flagValues = [...runner.getFlagValues()].sort();
out.beforeBind = await runner.emit({ type: "session_start", reason: "startup" }) ?? null;
runner.bindCore(
	{ sendMessage: (m) => log("action.sendMessage", m.customType), sendUserMessage: () => {}, appendEntry: () => {},
		setSessionName: () => {}, getSessionName: () => undefined, setLabel: () => {}, getActiveTools: () => ["read"],
		getAllTools: () => [], setActiveTools: () => {}, refreshTools: () => log("action.refreshTools"), getCommands: () => [],
		setModel: async () => true, getThinkingLevel: () => "high", setThinkingLevel: () => {} },
	{ getModel: () => ({ id: "m1" }), getScopedModels: () => [], isIdle: () => false, isProjectTrusted: () => true,
		getSignal: () => undefined, abort: () => log("action.abort"), hasPendingMessages: () => true,
		shutdown: () => log("action.shutdown"), getContextUsage: () => undefined, compact: () => {}, getSystemPrompt: () => "SP" },
);
out.afterBind = await runner.emit({ type: "session_start", reason: "reload" }) ?? null;
out.tools = runner.getAllRegisteredTools().map((t) => [t.definition.name, t.definition.label, t.sourceInfo.source]);
out.greet = runner.getToolDefinition("greet")?.label ?? null;
out.none = runner.getToolDefinition("nope") ?? null;
out.cancelNew = await runner.emit({ type: "session_before_switch", reason: "new" }) ?? null;
out.cancelResume = await runner.emit({ type: "session_before_switch", reason: "resume" }) ?? null;
out.inputs = [];
for (const text of ["xyz", "stop", "plain"]) out.inputs.push(await runner.emitInput(text, undefined, "interactive"));
out.toolCalls = [
	await runner.emitToolCall({ type: "tool_call", toolCallId: "1", toolName: "bash", input: { command: "ls" } }) ?? null,
	await runner.emitToolCall({ type: "tool_call", toolCallId: "2", toolName: "read", input: { path: "x" } }) ?? null,
];
out.toolResult = await runner.emitToolResult({ type: "tool_result", toolCallId: "1", toolName: "read", input: {},
	content: [], details: { d: 1 }, isError: false });
out.request = await runner.emitBeforeProviderRequest({ model: "x" });
out.headers = await runner.emitBeforeProviderHeaders({ keep: "1", drop: "2" });
const found = await runner.emitResourcesDiscover(cwd, "startup");
out.resources = Object.fromEntries(Object.entries(found).map(([k, list]) => [k, list.map((r) => [r.path, base(r.extensionPath)])]));
out.turnStart = await runner.emit({ type: "turn_start", turnIndex: 0, timestamp: 1 }) ?? null;
out.messageEnd = await runner.emitMessageEnd({ type: "message_end", message: { role: "assistant", content: "x" } }) ?? null;
out.context = await runner.emitContext([{ role: "user", content: "a", timestamp: 1 }, { role: "user", content: "b", timestamp: 2 }]);
out.userBash = [
	await runner.emitUserBash({ type: "user_bash", command: "ls", excludeFromContext: false, cwd }) ?? null,
	await runner.emitUserBash({ type: "user_bash", command: "pwd", excludeFromContext: false, cwd }) ?? null,
	await attempt(() => runner.emitUserBash({ type: "user_bash", command: "bad", excludeFromContext: false, cwd })),
];
out.warming = await runner.emitCacheWarmingDecision({ type: "cache_warming_decision", warmCost: 1, missCost: 2,
	continuationProbability: 0.5, action: "warm" });
const started = await runner.emitBeforeAgentStart("go", undefined, { cwd });
out.agentStart = started.messages;
out.boundary = await runner.emitBoundary({ type: "turn_end", turnIndex: 0, message: { role: "assistant", content: "x" },
	toolResults: [] }, (entries) => ({ count: entries.length }));
out.hasHandlers = ["input", "agent_end", "turn_end", "nothing"].map((e) => runner.hasHandlers(e));
out.renderer = typeof runner.getMessageRenderer("note");
out.noRenderer = runner.getMessageRenderer("other") ?? null;
out.commands = runner.getRegisteredCommands().map((c) => [c.invocationName, c.name, c.description ?? null, c.sourceInfo.source]);
out.commandLookup = [runner.getCommand("hello")?.description ?? null, runner.getCommand("hello:2")?.description ?? null,
	runner.getCommand("bye")?.name ?? null];
runner.setFlagValue("verbose", true);
out.flagValuesAfter = [...runner.getFlagValues()].sort();
runner.bindCommandContext({ waitForIdle: async () => { log("action.waitForIdle"); }, newSession: async (o) => { log("action.newSession", o.parentSession); return { cancelled: true }; },
	fork: async () => ({ cancelled: false }), navigateTree: async () => ({ cancelled: false }),
	switchSession: async () => ({ cancelled: false }), reload: async () => {} });
await runner.getCommand("hello:1").handler("arg", runner.createCommandContext());
const shortcuts = runner.getShortcuts({ "app.interrupt": "escape", "app.clear": "ctrl+c", "tui.editor.cursorLeft": ["left", "ctrl+b"] });
out.shortcuts = [...shortcuts].map(([key, s]) => [key, s.description, base(s.extensionPath)]);
out.shortcutDiagnostics = runner.getShortcutDiagnostics().map((d) => [d.type, d.message.split(root).join("<root>"), base(d.path)]);
const ctx = runner.createContext();
out.ctx = [ctx.model.id, ctx.isIdle(), ctx.mode, ctx.hasUI, ctx.thinkingLevel, ctx.hasPendingMessages(), ctx.getSystemPrompt(), ctx.cwd === cwd];
out.activeTools = runner.getActiveTools();
runner.shutdown();
ctx.abort();
runner.setUIContext({ select: async () => "picked", confirm: async () => true, input: async () => "typed", editor: async () => "ed",
	custom: async () => 1, notify: (m) => log("notify", m) }, "rpc");
out.hasUIAfter = runner.hasUI();
const uiCtx = runner.createContext();
out.uiAnswers = [await uiCtx.ui.select("Pick", ["a"]), await uiCtx.ui.confirm("Sure?", "m"), uiCtx.mode, uiCtx.hasUI];
await new Promise((resolve) => setTimeout(resolve, 50));
runner.emitError({ extensionPath: "/x/manual.ts", event: "custom", error: "by hand" });
off();
runner.emitError({ extensionPath: "/x/unheard.ts", event: "custom", error: "nobody listens" });
runner.invalidate();
out.stale = [await attempt(() => ctx.cwd), await attempt(() => runner.getActiveTools()), await attempt(() => globalThis.__piA.getFlag("verbose"))];
out.errors = errors;
out.log = globalThis.__log;
return out;
`;

describe("ExtensionRunner", () => {
	(pi ? test : test.skip)(
		"loads, drives and reports like pi 0.87.1's",
		async () => {
			const mine = realpathSync(mkdtempSync(join(tmpdir(), "pi-runner-ours-")));
			const theirs = realpathSync(mkdtempSync(join(tmpdir(), "pi-runner-theirs-")));
			try {
				const expected = pi?.run(SCRIPT, { dir: theirs, a: EXTENSION_A, b: EXTENSION_B }, { HOME: theirs });
				const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
				const actual = await new AsyncFunction("pi", "args", SCRIPT)(ours, {
					dir: mine,
					a: EXTENSION_A,
					b: EXTENSION_B,
				});
				if (process.env.SHOW) console.log(JSON.stringify(actual, null, 1));
				const plain = JSON.parse(JSON.stringify(actual));
				for (const key of Object.keys(expected as object)) {
					expect([key, plain[key]]).toEqual([key, (expected as Record<string, unknown>)[key]]);
				}
				expect(plain).toEqual(expected as never);
			} finally {
				rmSync(mine, { recursive: true, force: true });
				rmSync(theirs, { recursive: true, force: true });
			}
		},
		60_000,
	);
});
