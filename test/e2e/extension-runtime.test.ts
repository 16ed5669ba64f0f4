/**
 * Extensions driving the runtime through the binary: `/reload` (changed files re-imported, old `pi` stale),
 * `ctx.newSession` / `ctx.fork` / `ctx.switchSession` from commands (with session_shutdown, session_start reasons
 * and the legacy session_switch / session_fork), the turn_end and agent_before_settle boundaries (entries and one
 * continuation), and a message_end handler replacing the message.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

function setup(files: Record<string, string>) {
	const home = makeTempDir("pi-home-");
	writeMockModels(home, server.url);
	const cwd = makeTempDir("pi-cwd-");
	writeTree(cwd, files);
	return { home, cwd };
}

function sessionFiles(home: string): string[] {
	const root = join(home, ".pi/agent/sessions");
	return readdirSync(root).flatMap((dir) =>
		readdirSync(join(root, dir))
			.filter((f) => f.endsWith(".jsonl"))
			.map((f) => join(root, dir, f)),
	);
}

function lines(path: string): Record<string, any>[] {
	return readFileSync(path, "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l));
}

describe("extensions driving the runtime", () => {
	test("/reload re-imports a changed extension; the old pi object is stale", async () => {
		const source = `
import { readFileSync, writeFileSync } from "node:fs";
const VERSION = "v1";
export default function (pi) {
	const previous = globalThis.__piOld;
	globalThis.__piOld = pi;
	pi.registerCommand("ver", { handler: async () => { console.log("version " + VERSION); } });
	pi.registerCommand("bump", { handler: async () => {
		const file = new URL(import.meta.url).pathname;
		writeFileSync(file, readFileSync(file, "utf8").replace('VERSION = "v1"', 'VERSION = "v2"'));
	} });
	pi.registerCommand("old", { handler: async () => { previous.getSessionName(); } });
	pi.on("session_start", async (e) => { console.log("start " + e.reason); });
	pi.on("session_shutdown", async (e) => { console.log("shutdown " + e.reason); });
}
`;
		const { home, cwd } = setup({ "ext.ts": source });
		const run = await runPiAsync(["-e", "./ext.ts", "-p", "/ver", "/bump", "/reload", "/ver", "/old"], { home, cwd });
		expect(run.stdout).toBe("start startup\nversion v1\nshutdown reload\nstart reload\nversion v2\nshutdown quit\n");
		expect(run.stderr).toContain("Extension command /old failed:");
		expect(run.stderr.toLowerCase()).toContain("stale");
		expect(run.exitCode).toBe(1);
	});

	test("ctx.newSession, ctx.fork and ctx.switchSession from commands replace the session", async () => {
		const source = `
import { appendFileSync } from "node:fs";
const log = (line) => appendFileSync(process.cwd() + "/events.log", line + "\\n");
let firstFile;
export default function (pi) {
	pi.on("session_start", async (e, ctx) => {
		log("start " + e.reason + " " + (e.previousSessionFile ? "prev" : "-"));
		firstFile ??= ctx.sessionManager.getSessionFile();
	});
	pi.on("session_shutdown", async (e) => log("shutdown " + e.reason));
	pi.on("session_switch", async (e) => log("legacy switch " + e.reason));
	pi.on("session_fork", async () => log("legacy fork"));
	pi.registerCommand("fresh", { handler: async (_args, ctx) => { const r = await ctx.newSession(); log("fresh " + r.cancelled); } });
	pi.registerCommand("forkfirst", { handler: async (_args, ctx) => {
		const user = ctx.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");
		const r = await ctx.fork(user.id);
		log("fork " + r.cancelled);
	} });
	pi.registerCommand("back", { handler: async (_args, ctx) => { const r = await ctx.switchSession(firstFile); log("back " + r.cancelled); } });
}
`;
		const { home, cwd } = setup({ "ext.ts": source });
		server.push({ kind: "reply", text: "one" }, { kind: "reply", text: "two" }, { kind: "reply", text: "three" });
		const run = await runPiAsync(
			["-e", "./ext.ts", "-p", "first", "/fresh", "second", "/back", "/forkfirst", "third"],
			{ home, cwd },
		);
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("three\n");
		const events = readFileSync(join(cwd, "events.log"), "utf8").trim().split("\n");
		expect(events).toEqual([
			"start startup -",
			"shutdown new",
			"start new prev",
			"legacy switch new",
			"fresh false",
			"shutdown resume",
			"start resume prev",
			"legacy switch resume",
			"back false",
			"shutdown fork",
			"start fork prev",
			"legacy fork",
			"fork false",
			"shutdown quit",
		]);
		const files = sessionFiles(home).map(lines);
		expect(files.length).toBe(3);
		const userTexts = (f: Record<string, any>[]) =>
			f
				.filter((e) => e.type === "message" && e.message.role === "user")
				.map((e) => e.message.content.map((b: { text: string }) => b.text).join(""));
		const byFirstUser = new Map(files.map((f) => [userTexts(f).join("|"), f]));
		expect([...byFirstUser.keys()].sort()).toEqual(["first", "second", "third"]);
		// Forking the first user message gives a new file whose parent is the first session, holding only "third".
		const forked = byFirstUser.get("third") as Record<string, any>[];
		expect(forked[0]?.parentSession).toContain(".jsonl");
	});

	test("turn_end and agent_before_settle append entries; one continuation is taken", async () => {
		const source = `
let continued = false;
export default function (pi) {
	pi.on("turn_end", async (e) => ({ entries: [{ type: "custom", customType: "turn-mark", data: { turn: e.turnIndex, outcome: e.outcome } }] }));
	pi.on("agent_before_settle", async (e) => {
		if (continued) return;
		continued = true;
		return { entries: [{ type: "custom_message", customType: "nudge", content: "Please also summarise.", display: true }], continue: true };
	});
}
`;
		const { home, cwd } = setup({ "ext.ts": source });
		server.push({ kind: "reply", text: "first answer" }, { kind: "reply", text: "summary" });
		const before = server.requests.length;
		const run = await runPiAsync(["-e", "./ext.ts", "-p", "go"], { home, cwd });
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("summary\n");
		expect(server.requests.length - before).toBe(2);
		expect(JSON.stringify(server.requests[before + 1]?.body.messages)).toContain("Please also summarise.");
		const entries = lines(sessionFiles(home)[0] as string);
		const marks = entries.filter((e) => e.type === "custom" && e.customType === "turn-mark").map((e) => e.data);
		expect(marks).toEqual([
			{ turn: 0, outcome: "completed" },
			{ turn: 0, outcome: "completed" },
		]);
		expect(entries.some((e) => e.type === "custom_message" && e.customType === "nudge")).toBe(true);
	});

	test("a message_end handler replaces the assistant message in the transcript and the file", async () => {
		const source = `
export default function (pi) {
	pi.on("message_end", async (e) => {
		if (e.message.role !== "assistant") return;
		return { message: { ...e.message, content: [{ type: "text", text: "[redacted]" }] } };
	});
}
`;
		const { home, cwd } = setup({ "ext.ts": source });
		server.push({ kind: "reply", text: "secret value" });
		const run = await runPiAsync(["-e", "./ext.ts", "-p", "tell me"], { home, cwd });
		expect(run.stdout).toBe("[redacted]\n");
		const file = readFileSync(sessionFiles(home)[0] as string, "utf8");
		expect(file).toContain("[redacted]");
		expect(file).not.toContain("secret value");
	});

	test("context_with_system, before_provider_headers, after_provider_response and ui_prompt events", async () => {
		const source = `
import { appendFileSync } from "node:fs";
const log = (line) => appendFileSync(process.cwd() + "/events.log", line + "\\n");
export default function (pi) {
	pi.on("context_with_system", async (e) => {
		const [system, ...rest] = e.messages;
		return { messages: [{ ...system, content: "OWNED SYSTEM PROMPT" }, ...rest] };
	});
	pi.on("before_provider_headers", async (e) => { e.headers["x-from-extension"] = "yes"; e.headers["x-api-key"] = e.headers["x-api-key"]; });
	pi.on("after_provider_response", async (e) => log("response " + e.status));
	pi.on("ui_prompt_start", async (e) => log("prompt start " + e.kind + " " + e.title));
	pi.on("ui_prompt_end", async (e) => log("prompt end " + e.kind));
	pi.registerCommand("ask", { handler: async (_a, ctx) => { log("answer " + (await ctx.ui.confirm("Proceed?", "really"))); } });
}
`;
		const { home, cwd } = setup({ "ext.ts": source });
		server.push({ kind: "reply", text: "fine" });
		const before = server.requests.length;
		const run = await runPiAsync(["-e", "./ext.ts", "-p", "/ask", "hello"], { home, cwd });
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("fine\n");
		const request = server.requests[before];
		expect(JSON.stringify(request?.body.system)).toContain("OWNED SYSTEM PROMPT");
		expect(request?.headers["x-from-extension"]).toBe("yes");
		expect(readFileSync(join(cwd, "events.log"), "utf8").trim().split("\n")).toEqual([
			"prompt start confirm Proceed?",
			"prompt end confirm",
			"answer false",
			"response 200",
		]);
	});

	test("a tool registered after start-up is active at once; a command clashing with a built-in is skipped", async () => {
		const source = `
import { Type } from "@sinclair/typebox";
export default function (pi) {
	pi.registerCommand("reload", { handler: async () => console.log("should not run") });
	pi.on("session_start", async () => {
		pi.registerTool({
			name: "late_echo",
			label: "Late echo",
			description: "echo text back",
			parameters: Type.Object({ text: Type.String() }),
			async execute(_id, params) { return { content: [{ type: "text", text: "echo: " + params.text }], details: {} }; },
		});
	});
}
`;
		const { home, cwd } = setup({ "ext.ts": source });
		server.push(
			{ kind: "reply", toolCalls: [{ id: "t1", name: "late_echo", arguments: { text: "hi" } }] },
			{ kind: "reply", text: "done" },
		);
		const before = server.requests.length;
		const run = await runPiAsync(["-e", "./ext.ts", "-p", "use the tool"], { home, cwd });
		expect(run.stderr).toContain("command /reload clashes with a built-in command; skipped");
		expect(run.stdout).toBe("done\n");
		const first = server.requests[before]?.body;
		expect(first.tools.map((t: { name: string }) => t.name)).toContain("late_echo");
		expect(JSON.stringify(server.requests[before + 1]?.body.messages)).toContain("echo: hi");
	});

	test("bad extensions: throwing everywhere, wrong shapes, an invalid tool schema, a throwing command; pi keeps working", async () => {
		const thrower = `
export default function (pi) {
	for (const name of ["session_start", "input", "before_agent_start", "agent_start", "turn_start", "context", "message_start", "message_end", "tool_call", "tool_result", "turn_end", "agent_end", "agent_settled", "session_shutdown"]) {
		pi.on(name, async () => { throw new Error("boom in " + name); });
	}
}
`;
		const shapes = `
export default function (pi) {
	pi.on("input", async () => "not an object");
	pi.on("before_agent_start", async () => ({ systemPrompt: 42 }));
	pi.on("tool_result", async () => ({ content: "should be an array" }));
	pi.on("context", async () => ({ messages: "nope" }));
	pi.registerTool({ name: "broken_schema", description: "bad", parameters: { type: "object", properties: 5 }, async execute() { return { content: [{ type: "text", text: "ran" }], details: {} }; } });
	pi.registerCommand("explode", { handler: async () => { throw new Error("command went wrong"); } });
}
`;
		const { home, cwd } = setup({ "thrower.ts": thrower, "shapes.ts": shapes });
		server.push(
			{ kind: "reply", toolCalls: [{ id: "b1", name: "bash", arguments: { command: "echo still-works" } }] },
			{ kind: "reply", text: "all good" },
		);
		const before = server.requests.length;
		const run = await runPiAsync(["-e", "./thrower.ts", "-e", "./shapes.ts", "-p", "/explode", "go"], { home, cwd });
		expect(run.stdout).toBe("all good\n");
		expect(run.exitCode).toBe(1);
		expect(run.stderr).toContain("Extension command /explode failed: command went wrong");
		expect(run.stderr).toContain("thrower.ts");
		expect(run.stderr).toContain("boom in session_start");
		expect(run.stderr).toContain("shapes.ts");
		// tool_call fails closed: the throwing handler blocked bash, and the model was told so.
		expect(JSON.stringify(server.requests[before + 1]?.body.messages)).toContain("boom in tool_call");
		// Each failure is reported once per event occurrence, never as a crash.
		expect(run.stderr).not.toContain("internal error");
	});
});
