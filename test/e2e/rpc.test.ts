/**
 * RPC mode through the compiled binary, driven by our exported `RpcClient` against the mock LLM: a full session
 * (prompt with tool calls, steer and follow-up while streaming, session name, compact, fork, switch, clone,
 * get_messages/get_entries/get_tree), the extension UI sub-protocol (every method, a dialog timeout, degraded
 * methods), garbage input lines, and the lifecycle (stdin EOF and SIGTERM shut down in order).
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { type JsonAgentSessionEvent, RpcClient, type RpcExtensionUIRequest } from "../../src/modes/rpc/index.ts";
import { ensureBinary, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

const clients: RpcClient[] = [];
afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.stop()));
});

interface Setup {
	home: string;
	cwd: string;
	env: Record<string, string>;
}

function setup(files: Record<string, string> = {}, settings?: object): Setup {
	const home = makeTempDir("pi-rpc-home-");
	writeMockModels(home, server.url);
	if (settings) writeTree(home, { ".pi/agent/settings.json": JSON.stringify(settings) });
	const cwd = makeTempDir("pi-rpc-cwd-");
	writeTree(cwd, files);
	// Only our own variables: no inherited PI_* or provider keys may change what the binary does.
	const env: Record<string, string> = { HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") };
	return { home, cwd, env };
}

async function start(s: Setup, args: string[] = []): Promise<RpcClient> {
	const client = new RpcClient({ cliPath: ensureBinary(), cwd: s.cwd, env: s.env, args, forwardStderr: false });
	clients.push(client);
	await client.start();
	return client;
}

/** Every event the client sees from now on (the listener stays for the client's life). */
function record(client: RpcClient): JsonAgentSessionEvent[] {
	const events: JsonAgentSessionEvent[] = [];
	client.onEvent((event) => events.push(event));
	return events;
}

function types(events: { type: string }[]): string[] {
	return events.map((event) => event.type);
}

/** Text of a request body's user messages (Anthropic format), in order. */
function userTexts(body: { messages: { role: string; content: unknown }[] }): string[] {
	return body.messages
		.filter((m) => m.role === "user")
		.flatMap((m) =>
			typeof m.content === "string"
				? [m.content]
				: (m.content as { type: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text ?? ""),
		);
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await Bun.sleep(5);
	}
}

describe("rpc mode (binary)", () => {
	test("a prompt with tool calls streams pi's events; message_update deltas rebuild the reply", async () => {
		const s = setup({ "notes.txt": "alpha\nbeta\n" });
		const client = await start(s);
		server.push(
			{ kind: "reply", text: "Reading.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
			{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo from-bash" } }] },
			{ kind: "reply", text: "The file says alpha and beta.", chunkSize: 3 },
		);
		const events = await client.promptAndWait("what is in notes.txt?");
		const seq = types(events);
		expect(seq[0]).toBe("agent_start");
		expect(seq.at(-1)).toBe("agent_settled");
		expect(seq.filter((t) => t === "turn_start").length).toBe(3);
		expect(seq.filter((t) => t === "tool_execution_start").length).toBe(2);
		const ends = events.filter((e) => e.type === "tool_execution_end") as Extract<
			JsonAgentSessionEvent,
			{ type: "tool_execution_end" }
		>[];
		expect(ends.map((e) => [e.toolName, e.isError])).toEqual([
			["read", false],
			["bash", false],
		]);
		expect(JSON.stringify(ends[0]?.result)).toContain("alpha");
		expect(JSON.stringify(ends[1]?.result)).toContain("from-bash");
		// Clients rebuild the streamed text from the deltas between message_start and message_end.
		const lastStart = seq.lastIndexOf("message_start");
		const deltas = events
			.slice(lastStart)
			.filter((e) => e.type === "message_update")
			.map((e) => (e as { assistantMessageEvent: { type: string; delta?: string } }).assistantMessageEvent)
			.filter((e) => e.type === "text_delta")
			.map((e) => e.delta)
			.join("");
		expect(deltas).toBe("The file says alpha and beta.");
		// message_update carries no cumulative snapshot in the wire form.
		expect(events.find((e) => e.type === "message_update")).not.toHaveProperty("message");
		expect(await client.getLastAssistantText()).toBe("The file says alpha and beta.");
		const messages = await client.getMessages();
		// The transcript starts with the system message declaring the prompt and tools (pi 0.86+).
		expect(messages.map((m) => m.role)).toEqual([
			"system",
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"toolResult",
			"assistant",
		]);
		const state = await client.getState();
		expect(state).toMatchObject({ isStreaming: false, messageCount: 7, pendingMessageCount: 0 });
		expect(state.model).toMatchObject({ provider: "mock", id: "mock-1" });
		const stats = await client.getSessionStats();
		expect(stats).toMatchObject({ userMessages: 1, assistantMessages: 3, toolCalls: 2, toolResults: 2 });
	});

	test("steer and follow-up while streaming: steering joins the next request, follow-up runs after", async () => {
		const s = setup();
		const client = await start(s);
		const events = record(client);
		const first = server.requests.length;
		server.push(
			// Slow first reply with a tool call, so the steer arrives while the agent is streaming.
			{
				kind: "reply",
				text: "working on it",
				frameDelayMs: 40,
				toolCalls: [{ name: "bash", arguments: { command: "true" } }],
			},
			{ kind: "reply", text: "steered reply" },
			{ kind: "reply", text: "follow-up reply" },
		);
		await client.prompt("start");
		await until(() => events.some((e) => e.type === "message_update"), "streaming");
		await client.steer("also check the README");
		await client.followUp("then summarise");
		const queued = events.filter((e) => e.type === "queue_update") as Extract<
			JsonAgentSessionEvent,
			{ type: "queue_update" }
		>[];
		await until(() => events.some((e) => e.type === "agent_settled"), "agent_settled");
		expect(queued[0]).toMatchObject({ steering: ["also check the README"], followUp: [] });
		expect(queued[1]).toMatchObject({ steering: ["also check the README"], followUp: ["then summarise"] });
		const requests = server.requests.slice(first);
		expect(requests.length).toBe(3);
		expect(userTexts(requests[1]?.body).at(-1)).toBe("also check the README");
		expect(userTexts(requests[2]?.body).at(-1)).toBe("then summarise");
		// The queues were emptied as the messages were taken.
		expect(events.filter((e) => e.type === "queue_update").at(-1)).toMatchObject({ steering: [], followUp: [] });
		expect(await client.getLastAssistantText()).toBe("follow-up reply");
	});

	test("session commands: name, compact, fork, switch back, clone, entries and tree", async () => {
		const s = setup({}, { compaction: { keepRecentTokens: 1 } });
		const client = await start(s);
		const events = record(client);
		server.push({ kind: "reply", text: "first answer" }, { kind: "reply", text: "second answer" });
		await client.promptAndWait("first question");
		await client.promptAndWait("second question");
		await client.setSessionName("rpc session");
		expect(events.find((e) => e.type === "session_info_changed")).toMatchObject({ name: "rpc session" });
		const state = await client.getState();
		expect(state.sessionName).toBe("rpc session");
		const originalFile = state.sessionFile as string;
		expect(existsSync(originalFile)).toBe(true);

		// compact: the mock writes the summary (and, the cut falling inside the last turn, the turn prefix's own).
		server.push({ kind: "reply", text: "## Goal\nSummary of the talk." }, { kind: "reply", text: "Prefix summary." });
		const compacted = await client.compact();
		expect(compacted.summary).toContain("Summary of the talk.");
		expect(typeof compacted.firstKeptEntryId).toBe("string");
		expect(compacted.tokensBefore).toBeGreaterThan(0);
		expect(server.pending()).toBe(0);
		const compactEvents = events.filter((e) => e.type === "compaction_start" || e.type === "compaction_end");
		expect(compactEvents.map((e) => [e.type, (e as { reason: string }).reason])).toEqual([
			["compaction_start", "manual"],
			["compaction_end", "manual"],
		]);
		expect(compactEvents[1]).toMatchObject({ aborted: false, willRetry: false });
		const afterCompact = await client.getMessages();
		// The compaction's checkpoint (the prompt and tools at that point) leads, then its summary.
		expect(afterCompact.slice(0, 2).map((m) => m.role)).toEqual(["system", "compactionSummary"]);
		expect((afterCompact[0] as { sections?: Record<string, string> }).sections?.cwd).toContain("<cwd>");
		const entries = await client.getEntries();
		expect(entries.entries.some((e: { type: string }) => e.type === "compaction")).toBe(true);
		const lastId = entries.entries.at(-1)?.id as string;
		expect((await client.getEntries(lastId)).entries).toEqual([]);
		const tree = await client.getTree();
		expect(tree.leafId).toBe(lastId);

		// fork at the second user message: a new file holding the history before it, the text returned.
		const forkable = await client.getForkMessages();
		expect(forkable.map((m) => m.text)).toEqual(["first question", "second question"]);
		const second = forkable[1] as { entryId: string };
		const forked = await client.fork(second.entryId);
		expect(forked).toMatchObject({ text: "second question", cancelled: false });
		const forkState = await client.getState();
		expect(forkState.sessionFile).not.toBe(originalFile);
		const forkHeader = JSON.parse(readFileSync(forkState.sessionFile as string, "utf8").split("\n")[0] as string);
		expect(forkHeader.parentSession).toBe(originalFile);
		expect((await client.getMessages()).map((m) => m.role)).toEqual(["system", "user", "assistant"]);

		// switch back to the first file: its name and compaction are there.
		expect(await client.switchSession(originalFile)).toEqual({ cancelled: false });
		const back = await client.getState();
		expect(back).toMatchObject({ sessionFile: originalFile, sessionName: "rpc session" });
		expect((await client.getMessages())[1]?.role).toBe("compactionSummary");

		// clone: a copy of the current branch in a new file.
		expect(await client.clone()).toEqual({ cancelled: false });
		const cloned = await client.getState();
		expect(cloned.sessionFile).not.toBe(originalFile);
		expect((await client.getMessages()).length).toBe(back.messageCount);
	});

	test("an extension using every UI method; a select that times out; degraded methods as pi documents", async () => {
		const extension = `
export default function (pi) {
	pi.on("session_start", async (_event, ctx) => {
		ctx.ui.setTitle("rpc title");
		ctx.ui.setWidget("w", ["line 1", "line 2"], { placement: "belowEditor" });
		ctx.ui.setWidget("component", () => ({ render: () => [] }));
		ctx.ui.setStatus("s", "ready");
	});
	pi.registerCommand("ui-all", {
		handler: async (_args, ctx) => {
			const picked = await ctx.ui.select("Pick one", ["a", "b"]);
			const ok = await ctx.ui.confirm("Sure?", "Really sure?");
			const text = await ctx.ui.input("Name", "your name");
			const edited = await ctx.ui.editor("Edit", "one\\ntwo");
			const late = await ctx.ui.select("Too slow", ["x"], { timeout: 150 });
			const cancelled = await ctx.ui.input("Cancel me");
			ctx.ui.setEditorText("prefilled");
			ctx.ui.setStatus("s");
			const degraded = {
				custom: await ctx.ui.custom(() => ({})),
				editorText: ctx.ui.getEditorText(),
				themes: ctx.ui.getAllThemes(),
				setTheme: ctx.ui.setTheme("dark"),
				expanded: ctx.ui.getToolsExpanded(),
				hasUI: ctx.hasUI,
				mode: ctx.mode,
			};
			ctx.ui.notify(JSON.stringify({ picked, ok, text, edited, late: late ?? null, cancelled: cancelled ?? null, degraded }), "warning");
		},
	});
}
`;
		const s = setup({ "ui.ts": extension });
		const requests: RpcExtensionUIRequest[] = [];
		const client = new RpcClient({
			cliPath: ensureBinary(),
			cwd: s.cwd,
			env: s.env,
			args: ["-e", "./ui.ts", "--no-session"],
			forwardStderr: false,
		});
		clients.push(client);
		client.onExtensionUIRequest((request) => {
			requests.push(request);
			const id = request.id;
			if (request.method === "select" && request.title === "Pick one")
				client.respondToExtensionUI({ type: "extension_ui_response", id, value: "b" });
			if (request.method === "confirm")
				client.respondToExtensionUI({ type: "extension_ui_response", id, confirmed: true });
			if (request.method === "input" && request.title === "Name")
				client.respondToExtensionUI({ type: "extension_ui_response", id, value: "Ada" });
			if (request.method === "input" && request.title === "Cancel me")
				client.respondToExtensionUI({ type: "extension_ui_response", id, cancelled: true });
			if (request.method === "editor")
				client.respondToExtensionUI({ type: "extension_ui_response", id, value: `${request.prefill}\nthree` });
		});
		await client.start();
		await client.prompt("/ui-all");
		await until(() => requests.some((r) => r.method === "notify"), "the notify request");
		const byMethod = (method: string) => requests.filter((r) => r.method === method);
		expect(byMethod("setTitle")).toMatchObject([{ title: "rpc title" }]);
		// Only string lines travel; the component widget is dropped.
		expect(byMethod("setWidget")).toMatchObject([
			{ widgetKey: "w", widgetLines: ["line 1", "line 2"], widgetPlacement: "belowEditor" },
		]);
		expect(byMethod("setStatus").map((r) => (r as { statusText?: string }).statusText)).toEqual(["ready", undefined]);
		expect(byMethod("select")).toMatchObject([
			{ title: "Pick one", options: ["a", "b"] },
			{ title: "Too slow", options: ["x"], timeout: 150 },
		]);
		expect(byMethod("confirm")).toMatchObject([{ title: "Sure?", message: "Really sure?" }]);
		expect(byMethod("input")).toMatchObject([{ title: "Name", placeholder: "your name" }, { title: "Cancel me" }]);
		expect(byMethod("editor")).toMatchObject([{ title: "Edit", prefill: "one\ntwo" }]);
		expect(byMethod("set_editor_text")).toMatchObject([{ text: "prefilled" }]);
		const notify = byMethod("notify")[0] as { message: string; notifyType: string };
		expect(notify.notifyType).toBe("warning");
		expect(JSON.parse(notify.message)).toEqual({
			picked: "b",
			ok: true,
			text: "Ada",
			edited: "one\ntwo\nthree",
			late: null,
			cancelled: null,
			degraded: {
				editorText: "",
				themes: [],
				setTheme: { success: false, error: "Theme switching not supported in RPC mode" },
				expanded: false,
				hasUI: true,
				mode: "rpc",
			},
		});
	});

	test("bash streams bash_execution_update with the command's id; abort ends a hanging request; retries and extension errors are events", async () => {
		const extension = `
export default function (pi) {
	pi.on("turn_start", async () => { throw new Error("turn_start broke"); });
}
`;
		const s = setup({ "bad.ts": extension }, { retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 } });
		const client = await start(s, ["-e", "./bad.ts", "--no-session"]);
		const events = record(client);
		const bash = await client.request({ type: "bash", command: "printf 'one\\ntwo\\n'" });
		expect(bash.data).toMatchObject({ output: "one\ntwo\n", exitCode: 0, cancelled: false, truncated: false });
		const updates = events.filter((e) => e.type === "bash_execution_update") as unknown as {
			id: string;
			delta: string;
		}[];
		expect(updates.map((u) => u.delta).join("")).toBe("one\ntwo\n");
		expect(new Set(updates.map((u) => u.id))).toEqual(new Set([bash.id as string]));

		// A provider that hangs: abort resolves once the run is idle; the reply is marked aborted.
		const before = server.requests.length;
		server.push({ kind: "hang" });
		await client.prompt("wait forever");
		await until(() => server.requests.length > before, "the request");
		await client.abort();
		await until(() => events.some((e) => e.type === "agent_settled"), "agent_settled");
		const end = events.find((e) => e.type === "message_end" && (e as any).message.role === "assistant") as any;
		expect(end.message.stopReason).toBe("aborted");
		// extension_error is an RPC-only record: it reaches onEvent listeners but is not an agent session event.
		const extensionError = (events as { type: string; extensionPath?: string }[]).find(
			(e) => e.type === "extension_error",
		);
		expect(extensionError).toMatchObject({ event: "turn_start", error: "turn_start broke" });
		expect(extensionError?.extensionPath).toEndWith("bad.ts");

		// A 529 is retried with auto_retry_start/end around the successful attempt.
		events.length = 0;
		server.push({ kind: "http-error", status: 529, message: "overloaded" }, { kind: "reply", text: "after retry" });
		await client.promptAndWait("try again");
		expect(events.find((e) => e.type === "auto_retry_start")).toMatchObject({ attempt: 1, maxAttempts: 2 });
		expect(events.find((e) => e.type === "auto_retry_end")).toMatchObject({ success: true, attempt: 1 });
		expect(await client.getLastAssistantText()).toBe("after retry");
		await expect(client.setModel("invalid", "model")).rejects.toThrow("Model not found: invalid/model");
	});

	test("model, thinking, queue-mode, retry and command queries answer with pi's shapes", async () => {
		const s = setup({
			".pi/prompts/review.md": "---\ndescription: Review the change\n---\nReview $1",
		});
		writeTree(s.home, {
			".pi/agent/models.json": JSON.stringify({
				providers: {
					mock: {
						baseUrl: server.url,
						api: "anthropic-messages",
						apiKey: "mock-key",
						models: [{ id: "mock-1", reasoning: true }, { id: "mock-2" }],
					},
				},
			}),
		});
		const client = await start(s, ["--approve", "--no-session"]);
		const models = await client.getAvailableModels();
		expect(models.map((m) => `${m.provider}/${m.id}`)).toEqual(["mock/mock-1", "mock/mock-2"]);
		expect(await client.getAvailableThinkingLevels()).toContain("high");
		await client.setThinkingLevel("high");
		expect((await client.getState()).thinkingLevel).toBe("high");
		const cycledLevel = await client.cycleThinkingLevel();
		expect(cycledLevel?.level).toBeDefined();
		expect(cycledLevel?.level).not.toBe("high");
		const cycled = await client.cycleModel();
		expect(cycled).toMatchObject({ model: { provider: "mock", id: "mock-2" }, isScoped: false });
		// A model without reasoning has only "off", and nothing to cycle.
		expect(await client.getAvailableThinkingLevels()).toEqual(["off"]);
		expect(await client.cycleThinkingLevel()).toBeNull();
		const set = await client.setModel("mock", "mock-1");
		expect(set).toMatchObject({ provider: "mock", id: "mock-1" });
		await client.setSteeringMode("all");
		await client.setFollowUpMode("all");
		expect(await client.getState()).toMatchObject({ steeringMode: "all", followUpMode: "all" });
		await client.setAutoCompaction(false);
		expect((await client.getState()).autoCompactionEnabled).toBe(false);
		await client.setAutoRetry(false);
		await client.abortRetry();
		await client.abortBash();
		expect(await client.clearQueue()).toEqual({ steering: [], followUp: [] });
		const commands = await client.getCommands();
		expect(commands).toContainEqual(expect.objectContaining({ name: "review", source: "prompt" }));
		await expect(client.exportHtml()).rejects.toThrow("Cannot export in-memory session to HTML");
		expect(await client.newSession()).toEqual({ cancelled: false });
	});

	test("export_html writes the session's page: pi's default name in cwd, or the path asked for", async () => {
		const s = setup();
		const client = await start(s);
		await expect(client.exportHtml()).rejects.toThrow("Nothing to export yet - start a conversation first");
		server.push({ kind: "reply", text: "an <answer> & more" });
		await client.promptAndWait("a <question>");
		const file = (await client.getState()).sessionFile as string;
		const { path } = await client.exportHtml();
		expect(path).toBe(`pi-session-${basename(file, ".jsonl")}.html`);
		const page = readFileSync(join(s.cwd, path), "utf8");
		expect(page).toContain("a &lt;question&gt;");
		expect(page).toContain("an &lt;answer&gt; &amp; more");
		expect(page).toContain("System prompt");
		const custom = join(s.cwd, "out", "page.html");
		mkdirSync(join(s.cwd, "out"));
		expect((await client.exportHtml(custom)).path).toBe(custom);
		expect(readFileSync(custom, "utf8")).toContain("an &lt;answer&gt; &amp; more");
	});

	test("garbage lines get pi's error responses and never stop the process", async () => {
		const s = setup();
		const proc = Bun.spawn([ensureBinary(), "--mode", "rpc", "--no-session"], {
			cwd: s.cwd,
			env: s.env,
			stdin: "pipe",
			stdout: "pipe",
			stderr: "pipe",
		});
		proc.stdin.write(
			[
				"not json",
				"",
				'{"type":"no_such_command","id":"x1"}',
				"[1,2]",
				'{"id":"x2","type":"set_model"}',
				'{"id":"x3","type":"get_state"}\r',
				'{"id":"x4","type":"get_last_assistant_text"}',
			].join("\n"),
		);
		proc.stdin.write("\n");
		proc.stdin.end();
		const out = await new Response(proc.stdout).text();
		expect(await proc.exited).toBe(0);
		const records = out
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(records.length).toBe(7);
		expect(records[0]).toMatchObject({ type: "response", command: "parse", success: false });
		expect(records[0].error).toStartWith("Failed to parse command: ");
		expect(records[1]).toMatchObject({ command: "parse", success: false });
		const byId = new Map(records.filter((r) => r.id).map((r) => [r.id, r]));
		expect(byId.get("x1")).toEqual({
			id: "x1",
			type: "response",
			command: "no_such_command",
			success: false,
			error: "Unknown command: no_such_command",
		});
		expect(byId.get("x2")).toMatchObject({ command: "set_model", success: false });
		expect(byId.get("x3")).toMatchObject({ command: "get_state", success: true });
		expect(byId.get("x4")).toMatchObject({ command: "get_last_assistant_text", success: true });
		// Without an assistant message pi answers `data: {}` (no `text` at all).
		expect((byId.get("x4") as { data?: unknown }).data).toEqual({});
	});

	test("stdin EOF and SIGTERM shut down in order: session_shutdown fires, the session file is kept", async () => {
		const extension = `
import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("session_shutdown", async (event) => appendFileSync(process.cwd() + "/shutdown.log", event.reason + "\\n"));
	pi.registerCommand("bye", { handler: async (_args, ctx) => ctx.shutdown() });
}
`;
		const s = setup({ "ext.ts": extension });
		server.push({ kind: "reply", text: "kept" });
		const proc = Bun.spawn([ensureBinary(), "--mode", "rpc", "-e", "./ext.ts"], {
			cwd: s.cwd,
			env: s.env,
			stdin: "pipe",
			stdout: "pipe",
			stderr: "pipe",
		});
		proc.stdin.write('{"id":"p","type":"prompt","message":"remember this"}\n');
		// The run settles, then EOF ends the process.
		const reader = proc.stdout.getReader();
		let out = "";
		while (!out.includes('"agent_settled"')) {
			const chunk = await reader.read();
			if (chunk.done) break;
			out += new TextDecoder().decode(chunk.value);
		}
		proc.stdin.write('{"id":"s","type":"get_state"}\n');
		proc.stdin.end();
		while (true) {
			const chunk = await reader.read();
			if (chunk.done) break;
			out += new TextDecoder().decode(chunk.value);
		}
		expect(await proc.exited).toBe(0);
		expect(out).toContain('"id":"s"');
		expect(readFileSync(join(s.cwd, "shutdown.log"), "utf8")).toBe("quit\n");
		const state = out
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l))
			.find((r) => r.id === "s");
		const sessionLines = readFileSync(state.data.sessionFile, "utf8").trim().split("\n");
		expect(sessionLines.some((l) => l.includes("remember this"))).toBe(true);

		// SIGTERM and SIGHUP: the same orderly shutdown, with exit codes 143 and 129; an extension's
		// ctx.shutdown() ends the process after its command, with 0.
		for (const [how, code] of [
			["SIGTERM", 143],
			["SIGHUP", 129],
			["ctx.shutdown", 0],
		] as const) {
			const again = Bun.spawn([ensureBinary(), "--mode", "rpc", "--no-session", "-e", "./ext.ts"], {
				cwd: s.cwd,
				env: s.env,
				stdin: "pipe",
				stdout: "pipe",
				stderr: "pipe",
			});
			again.stdin.write('{"id":"s","type":"get_state"}\n');
			await again.stdout.getReader().read();
			if (how === "ctx.shutdown") again.stdin.write('{"id":"q","type":"prompt","message":"/bye"}\n');
			else again.kill(how);
			expect(await again.exited).toBe(code);
		}
		expect(readFileSync(join(s.cwd, "shutdown.log"), "utf8")).toBe("quit\nquit\nquit\nquit\n");
	}, 20_000);
});
