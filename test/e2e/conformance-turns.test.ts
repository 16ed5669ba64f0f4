/**
 * Conformance through real turns: pi's own example extensions, from each pinned release (0.87.1, 0.73.1, 0.58.4),
 * loaded unchanged into the compiled binary and driven with the mock LLM in print or RPC mode. Each case asserts
 * the effect the example's source promises (a blocked `rm -rf`, a refused write, a rewritten prompt, todo state
 * rebuilt on a fork, a compaction written by the extension's own summary, …). One test per release and example;
 * a line per release reports how many passed. Without the release cache (no registry) the cases are skipped.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePackage, PINNED } from "../../scripts/conformance-cache.ts";
import {
	ripgrepEnv,
	systemPrompt,
	type TurnsEnv,
	toolNames,
	toolResults,
	userTexts,
	withTurnsEnv,
} from "../helpers/conformance-turns.ts";

interface TurnCase {
	/** The example's file name without `.ts`. */
	example: string;
	files?: Record<string, string>;
	/** Built-in providers the example calls by name, re-pointed at the mock for this release. */
	repoint?: (version: string) => string[];
	/** Runs the turns and asserts; `version` (e.g. "0.87.1") for examples that differ between releases. */
	drive: (env: TurnsEnv, version: string) => Promise<void>;
}

const reply = (text: string, ...calls: [string, Record<string, unknown>][]) => ({
	kind: "reply" as const,
	text,
	toolCalls: calls.map(([name, args]) => ({ name, arguments: args })),
});

const CASES: TurnCase[] = [
	{
		example: "permission-gate",
		files: { "victim/keep.txt": "keep" },
		drive: async (env) => {
			// Print mode has no UI: a dangerous command is blocked outright.
			env.server.push(reply("", ["bash", { command: "rm -rf victim" }]), reply("gave up"));
			const run = await env.run(["-p", "clean up"]);
			expect(run.stdout.trim()).toBe("gave up");
			expect(existsSync(join(env.cwd, "victim/keep.txt"))).toBe(true);
			expect(toolResults(env.server.requests[1])).toEqual(["Dangerous command blocked (no UI for confirmation)"]);
			// With a UI the user is asked; "No" blocks, a harmless command is not asked about.
			const rpc = await env.rpc({ answer: (r) => (r.method === "select" ? { value: "No" } : undefined) });
			env.server.push(reply("", ["bash", { command: "sudo rm -rf victim" }], ["bash", { command: "echo safe" }]));
			env.server.push(reply("done"));
			await rpc.turn("try again");
			const selects = rpc.ui.filter((r) => r.method === "select");
			expect(selects).toMatchObject([{ options: ["Yes", "No"] }]);
			expect((selects[0] as { title: string }).title).toContain("sudo rm -rf victim");
			expect(toolResults(env.server.requests[3])).toEqual(["Blocked by user", "safe\n"]);
			expect(existsSync(join(env.cwd, "victim/keep.txt"))).toBe(true);
		},
	},
	{
		example: "protected-paths",
		drive: async (env) => {
			env.server.push(
				reply("", ["write", { path: ".env", content: "KEY=1" }], ["write", { path: "ok.txt", content: "fine" }]),
				reply("written"),
			);
			const run = await env.run(["-p", "write files"]);
			expect(run.stdout.trim()).toBe("written");
			expect(existsSync(join(env.cwd, ".env"))).toBe(false);
			expect(readFileSync(join(env.cwd, "ok.txt"), "utf8")).toBe("fine");
			const [blocked, written] = toolResults(env.server.requests[1]);
			expect(blocked).toBe('Path ".env" is protected');
			expect(written).toContain("ok.txt");
		},
	},
	{
		example: "tool-override",
		files: { ".env": "SECRET=1", "notes.txt": "alpha\nbeta" },
		drive: async (env) => {
			env.server.push(
				reply("", ["read", { path: ".env" }], ["read", { path: "notes.txt", offset: 2 }]),
				reply("read them"),
			);
			const run = await env.run(["-p", "read files"]);
			expect(run.stdout.trim()).toBe("read them");
			const description = (env.server.requests[0]?.body.tools as { name: string; description: string }[]).find(
				(t) => t.name === "read",
			)?.description;
			expect(description).toContain("access logging");
			const [denied, allowed] = toolResults(env.server.requests[1]);
			expect(denied).toStartWith('Access denied: ".env" matches a blocked pattern');
			expect(allowed).toBe("beta");
			const log = readFileSync(join(env.home, ".pi/agent/read-access.log"), "utf8");
			expect(log).toContain(`BLOCKED: ${join(env.cwd, ".env")} (matches blocked pattern)`);
			expect(log).toContain(`ALLOWED: ${join(env.cwd, "notes.txt")}`);
		},
	},
	{
		example: "input-transform",
		drive: async (env) => {
			env.server.push(reply("brief answer"));
			const run = await env.run(["-p", "?quick What is TypeScript?", "ping", "time"]);
			expect(run.stdout.trim()).toBe("brief answer");
			// "ping" and "time" are handled by the extension: only the transformed prompt reached the model.
			expect(env.server.requests.length).toBe(1);
			expect(userTexts(env.server.requests[0])).toEqual(["Respond briefly in 1-2 sentences: What is TypeScript?"]);
		},
	},
	{
		example: "todo",
		drive: async (env) => {
			const rpc = await env.rpc();
			env.server.push(reply("", ["todo", { action: "add", text: "milk" }]), reply("added milk"));
			await rpc.turn("add milk");
			env.server.push(reply("", ["todo", { action: "add", text: "eggs" }]), reply("added eggs"));
			await rpc.turn("add eggs");
			expect(toolResults(env.server.requests.at(-1))).toEqual(["Added todo #1: milk", "Added todo #2: eggs"]);
			// Fork before "add eggs": the todo list is rebuilt from that branch, where only milk was added.
			const forkable = await rpc.client.getForkMessages();
			const second = forkable.find((m) => m.text === "add eggs") as { entryId: string };
			expect((await rpc.client.fork(second.entryId)).cancelled).toBe(false);
			env.server.push(reply("", ["todo", { action: "list" }]), reply("listed"));
			await rpc.turn("list todos");
			expect(toolResults(env.server.requests.at(-1)).at(-1)).toBe("[ ] #1: milk");
		},
	},
	{
		example: "dynamic-tools",
		drive: async (env) => {
			// echo_session comes at session_start, shout from the command: both reach the model and run.
			env.server.push(reply("", ["echo_session", { message: "hi" }], ["shout", { message: "yo" }]), reply("echoed"));
			const run = await env.run(["-p", "/add-echo-tool Shout", "echo please"]);
			expect(run.stdout.trim()).toBe("echoed");
			expect(toolNames(env.server.requests[0])).toEqual(expect.arrayContaining(["echo_session", "shout"]));
			expect(systemPrompt(env.server.requests[0])).toContain("Echo back user-provided text with [session] prefix");
			expect(toolResults(env.server.requests[1])).toEqual(["[session] hi", "[shout] yo"]);
		},
	},
	{
		example: "event-bus",
		drive: async (env) => {
			const rpc = await env.rpc();
			await rpc.until(() => rpc.notices().length > 0, "the session_start notification");
			await rpc.command("/emit over the bus");
			await rpc.command("/emit");
			expect(rpc.notices()).toEqual([
				"Event from event-bus-example: Session started",
				"Event from /emit command: over the bus",
				"Event from /emit command: hello",
			]);
		},
	},
	{
		example: "send-user-message",
		drive: async (env) => {
			const rpc = await env.rpc();
			env.server.push(reply("four"), reply("concise"));
			await rpc.turn("/ask What is 2+2?");
			await rpc.turn("/askwith list files");
			expect(userTexts(env.server.requests[0])).toEqual(["What is 2+2?"]);
			expect(userTexts(env.server.requests[1]).at(-1)).toBe("User request: list files\nPlease respond concisely.");
			// While streaming, /steer joins the running turn and /followup waits for the run's end.
			env.server.push(
				{ ...reply("working", ["bash", { command: "true" }]), frameDelayMs: 40 },
				reply("steered"),
				reply("followed up"),
			);
			const idle = rpc.client.waitForIdle(15_000);
			await rpc.client.prompt("start");
			await rpc.until(() => rpc.events.some((e) => e.type === "message_update"), "streaming");
			await rpc.command("/steer focus on tests");
			await rpc.command("/followup and then?");
			await idle;
			expect(env.server.requests.length).toBe(5);
			expect(userTexts(env.server.requests[3]).at(-1)).toBe("focus on tests");
			expect(userTexts(env.server.requests[4]).at(-1)).toBe("and then?");
			expect(rpc.notices()).toEqual(["Follow-up queued"]);
		},
	},
	{
		example: "system-prompt-header",
		drive: async (env) => {
			const rpc = await env.rpc();
			env.server.push(reply("ok"));
			await rpc.turn("hello");
			const statuses = rpc.ui.filter((r) => r.method === "setStatus");
			const length = systemPrompt(env.server.requests[0]).length;
			expect(statuses).toMatchObject([{ statusKey: "system-prompt", statusText: `System: ${length} chars` }]);
		},
	},
	{
		example: "truncated-tool",
		files: { "big.txt": Array.from({ length: 2500 }, (_, i) => `match ${i}`).join("\n") },
		drive: async (env) => {
			env.server.push(reply("", ["rg", { pattern: "match", path: "big.txt" }], ["rg", { pattern: "absent" }]));
			env.server.push(reply("searched"));
			const run = await env.run(["-p", "search"], ripgrepEnv(env.home));
			expect(run.stdout.trim()).toBe("searched");
			const [truncated, none] = toolResults(env.server.requests[1]);
			const notice = truncated?.match(
				/\[Output truncated: showing 2000 of 2500 lines .* Full output saved to: (.+)\]$/,
			);
			expect(notice).not.toBeNull();
			expect(truncated?.split("\n").slice(0, 2)).toEqual(["1:match 0", "2:match 1"]);
			expect(readFileSync(notice?.[1] as string, "utf8").split("\n").length).toBeGreaterThanOrEqual(2500);
			expect(none).toBe("No matches found");
		},
	},
	{
		example: "model-status",
		drive: async (env) => {
			const rpc = await env.rpc();
			await rpc.client.setModel("mock", "mock-2");
			await rpc.until(() => rpc.notices().length > 0, "the model notification");
			expect(rpc.notices()).toEqual(["Model: mock/mock-2"]);
			const statuses = rpc.ui.filter((r) => r.method === "setStatus");
			expect(statuses.at(-1)).toMatchObject({ statusKey: "model", statusText: "🤖 mock-2" });
			env.server.push(reply("from two"));
			await rpc.turn("hi");
			expect(env.server.requests[0]?.body.model).toBe("mock-2");
			// console.log goes to stderr in RPC mode (stdout carries the protocol).
			expect(rpc.client.getStderr()).toContain("[model_select] mock/mock-1 → mock/mock-2 (set)");
		},
	},
	{
		example: "session-name",
		drive: async (env) => {
			env.server.push(reply("hello"));
			const run = await env.run(["-p", "hi", "/session-name Release planning", "/session-name"]);
			expect(run.exitCode).toBe(0);
			const infos = env.sessionEntries().filter((e) => e.type === "session_info");
			expect(infos.map((e) => e.name)).toEqual(["Release planning"]);
		},
	},
	{
		example: "bookmark",
		drive: async (env) => {
			env.server.push(reply("first answer"), reply("second answer"));
			const run = await env.run(["-p", "one", "two", "/bookmark keep-this", "/bookmark later", "/unbookmark"]);
			expect(run.exitCode).toBe(0);
			const entries = env.sessionEntries();
			const answer = entries.find((e) => e.type === "message" && e.message.content?.[0]?.text === "second answer");
			const labels = entries.filter((e) => e.type === "label");
			expect(labels.map((e) => [e.targetId, e.label ?? null])).toEqual([
				[answer?.id, "keep-this"],
				[answer?.id, "later"],
				[answer?.id, null],
			]);
		},
	},
	{
		example: "custom-compaction",
		repoint: () => ["google"],
		drive: async (env) => {
			const rpc = await env.rpc();
			env.server.push(reply("first answer"), reply("second answer"));
			await rpc.turn("first question");
			await rpc.turn("second question");
			env.server.push(reply("## Goals\nEverything, summarised by Gemini."));
			const result = await rpc.client.compact();
			expect(result.summary).toBe("## Goals\nEverything, summarised by Gemini.");
			const request = env.server.requests.at(-1);
			expect(request?.vendor).toBe("google");
			expect(request?.path).toContain("gemini-2.5-flash");
			const prompt = JSON.stringify(request?.body);
			expect(prompt).toContain("You are a conversation summarizer");
			expect(request?.body.generationConfig).toMatchObject({ maxOutputTokens: 8192 });
			expect(prompt).toContain("first question");
			expect(rpc.notices()[0]).toBe("Custom compaction extension triggered");
			const compaction = env.sessionEntries().filter((e) => e.type === "compaction");
			expect(compaction).toMatchObject([{ summary: "## Goals\nEverything, summarised by Gemini." }]);
		},
	},
	{
		example: "summarize",
		repoint: (version) => (version === "0.87.1" ? ["openai"] : []),
		drive: async (env, version) => {
			const rpc = await env.rpc();
			env.server.push(reply("", ["bash", { command: "echo hi" }]), reply("all done"));
			await rpc.turn("say hi");
			env.server.push(reply("## Summary\nSaid hi."));
			await rpc.command("/summarize");
			if (version === "0.87.1") {
				// The model comes from the registry (re-pointed at the mock by models.json).
				const request = env.server.requests.at(-1);
				expect(request?.vendor).toBe("openai-responses");
				expect(request?.body.model).toBe("gpt-5.2");
				const prompt = JSON.stringify(request?.body);
				expect(prompt).toContain("Summarize this conversation so I can resume it later.");
				expect(request?.body.reasoning).toMatchObject({ effort: "high" });
				expect(prompt).toContain("User: say hi");
				expect(prompt).toContain('Tool bash was called with args {\\"command\\":\\"echo hi\\"}');
				expect(prompt).toContain("Assistant: all done");
				expect(rpc.notices()).toEqual(["Preparing summary..."]);
			} else {
				// Older releases take openai/gpt-5.2 from the static catalogue (its URL is api.openai.com, so it is
				// not re-pointed) and auth from the registry: with no OpenAI key they stop before any request.
				expect(env.server.requests.length).toBe(2);
				expect(rpc.notices()).toEqual(["Preparing summary...", "No API key for openai/gpt-5.2"]);
			}
		},
	},
	{
		example: "pirate",
		drive: async (env) => {
			env.server.push(reply("hello"), reply("Arrr"));
			await env.run(["-p", "hi", "/pirate", "hi again"]);
			const [plain, pirate] = [systemPrompt(env.server.requests[0]), systemPrompt(env.server.requests[1])];
			expect(plain).not.toContain("PIRATE MODE");
			expect(pirate.startsWith(plain)).toBe(true);
			expect(pirate.slice(plain.length)).toStartWith("\n\nIMPORTANT: You are now in PIRATE MODE.");
		},
	},
	{
		example: "inline-bash",
		drive: async (env) => {
			env.server.push(reply("nice"));
			await env.run(["-p", "Weather: !{echo sunny}, answer !{printf 42}"]);
			expect(userTexts(env.server.requests[0])).toEqual(["Weather: sunny, answer 42"]);
		},
	},
	{
		example: "provider-payload",
		files: { ".pi/.keep": "" },
		drive: async (env, version) => {
			env.server.push(reply("logged"));
			await env.run(["-p", "log this"]);
			const log = readFileSync(join(env.cwd, ".pi/provider-payload.log"), "utf8");
			const payload = JSON.parse(log.split("\n\n")[0] as string);
			expect(payload).toEqual(env.server.requests[0]?.body);
			if (version !== "0.58.4") expect(log).toMatch(/\n\[200\] \{.*"content-type":"text\/event-stream"/);
		},
	},
	{
		example: "confirm-destructive",
		drive: async (env) => {
			const rpc = await env.rpc({
				answer: (r) =>
					r.method === "confirm"
						? { confirmed: false }
						: r.method === "select"
							? { value: "No, stay in current session" }
							: undefined,
			});
			env.server.push(reply("answer"));
			await rpc.turn("question");
			const file = (await rpc.client.getState()).sessionFile;
			expect(await rpc.client.newSession()).toEqual({ cancelled: true });
			const [entry] = await rpc.client.getForkMessages();
			expect((await rpc.client.fork(entry?.entryId as string)).cancelled).toBe(true);
			expect((await rpc.client.getState()).sessionFile).toBe(file);
			expect(rpc.ui.filter((r) => r.method === "confirm")).toMatchObject([{ title: "Clear session?" }]);
			expect(rpc.notices()).toEqual(["Clear cancelled", "Fork cancelled"]);
		},
	},
	{
		example: "status-line",
		drive: async (env) => {
			// pi 0.87.1 sends exactly these (dark theme, 256 colours: dim 241, accent 109, success 143).
			const rpc = await env.rpc();
			await rpc.until(() => rpc.ui.length > 0, "the session_start status");
			env.server.push(reply("", ["bash", { command: "echo hi" }]), reply("done"));
			await rpc.turn("run something");
			const dim = (text: string) => `\x1b[38;5;241m${text}\x1b[39m`;
			const running = (n: number) => `\x1b[38;5;109m●\x1b[39m${dim(` Turn ${n}...`)}`;
			const done = (n: number) => `\x1b[38;5;143m✓\x1b[39m${dim(` Turn ${n} complete`)}`;
			expect(rpc.ui.map((r) => ("statusKey" in r ? [r.method, r.statusKey, r.statusText] : [r.method]))).toEqual(
				[dim("Ready"), running(1), done(1), running(2), done(2)].map((text) => ["setStatus", "status-demo", text]),
			);
		},
	},
	{
		example: "working-indicator",
		drive: async (env) => {
			const rpc = await env.rpc();
			await rpc.until(() => rpc.ui.length > 0, "the session_start status");
			await rpc.command("/working-indicator dot");
			await rpc.command("/working-indicator");
			await rpc.command("/working-indicator sideways");
			await rpc.until(() => rpc.notices().length === 3, "three notices");
			const status = (mode: string) => ({
				method: "setStatus",
				statusKey: "working-indicator",
				statusText: `\x1b[38;5;241mIndicator: ${mode}\x1b[39m`,
			});
			const notify = (message: string, notifyType: string) => ({ method: "notify", message, notifyType });
			expect(rpc.ui.map(({ id: _id, type: _type, ...rest }) => rest as Record<string, unknown>)).toEqual([
				status("custom spinner"),
				status("static dot"),
				notify("Working indicator set to: static dot", "info"),
				notify("Working indicator: static dot", "info"),
				notify("Usage: /working-indicator [dot|pulse|none|spinner|reset]", "error"),
			]);
		},
	},
	{
		example: "trigger-compact",
		drive: async (env) => {
			const rpc = await env.rpc();
			env.server.push(reply("first answer"), reply("second answer"));
			await rpc.turn("first question");
			await rpc.turn("second question");
			env.server.push(reply("## Goal\nNumbers were discussed."), reply("Prefix summary."));
			await rpc.command("/trigger-compact Focus on numbers");
			await rpc.until(() => rpc.notices().includes("Compaction completed"), "the compaction");
			expect(rpc.notices()).toEqual(["Compaction started", "Compaction completed"]);
			expect(JSON.stringify(env.server.requests[2]?.body)).toContain("Focus on numbers");
			const [compaction] = env.sessionEntries().filter((e) => e.type === "compaction");
			expect(compaction?.summary).toContain("Numbers were discussed.");
		},
	},
];

const results = new Map<string, { passed: number; total: number }>();
afterAll(() => {
	for (const [version, { passed, total }] of results) console.log(`conformance turns ${version}: ${passed}/${total}`);
});

for (const spec of PINNED) {
	const version = spec.slice(spec.lastIndexOf("@") + 1);
	const pkg = ensurePackage(spec);
	describe(`pi ${version} examples through real turns`, () => {
		if ("error" in pkg) {
			test.skip(`${version} (release unavailable: ${pkg.error})`, () => {});
			return;
		}
		const dir = join(pkg.dir, "examples", "extensions");
		const cases = CASES.filter((c) => existsSync(join(dir, `${c.example}.ts`)));
		const tally = { passed: 0, total: cases.length };
		results.set(version, tally);
		for (const c of cases) {
			test(`${version} ${c.example}`, async () => {
				const options = { files: c.files ?? {}, repoint: c.repoint?.(version) ?? [] };
				await withTurnsEnv(join(dir, `${c.example}.ts`), options, (env) => c.drive(env, version));
				tally.passed++;
			}, 20_000);
		}
	});
}
