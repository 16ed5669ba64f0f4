/**
 * The compiled binary doing real work against the mock LLM: a scripted read → edit → bash loop fixes a bug in a
 * temp git repo, in print mode and in JSON mode.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { type MockStep, startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
const hasGit = Bun.which("git") !== null;
if (!hasGit) console.log("agent run: git is not installed; the work folder is a plain folder, not a git repo");
afterAll(() => server.stop());

function repo(): { home: string; cwd: string } {
	const home = makeTempDir("pi-home-");
	writeMockModels(home, server.url);
	const cwd = makeTempDir("pi-repo-");
	writeTree(cwd, {
		"calc.js": "export function add(a, b) {\n\treturn a - b;\n}\n",
		"check.sh": 'grep -q "return a + b" calc.js && echo CHECK-PASS || { echo CHECK-FAIL; exit 1; }\n',
	});
	if (hasGit) Bun.spawnSync(["git", "init", "-q"], { cwd });
	return { home, cwd };
}

const FIX_SCRIPT: MockStep[] = [
	{ kind: "reply", text: "Let me look.", toolCalls: [{ id: "t1", name: "read", arguments: { path: "calc.js" } }] },
	{
		kind: "reply",
		toolCalls: [
			{ id: "t2", name: "edit", arguments: { path: "calc.js", edits: [{ oldText: "a - b", newText: "a + b" }] } },
		],
	},
	{ kind: "reply", toolCalls: [{ id: "t3", name: "bash", arguments: { command: "sh check.sh" } }] },
	{ kind: "reply", text: "Fixed: add() now adds." },
];

describe("a multi-turn tool loop through the binary", () => {
	test("print mode: the bug is fixed, the final text printed, exit 0", async () => {
		const { home, cwd } = repo();
		const before = server.requests.length;
		server.push(...FIX_SCRIPT);
		const run = await runPiAsync(["-p", "make the check pass"], { home, cwd });
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("Fixed: add() now adds.\n");
		expect(run.exitCode).toBe(0);
		expect(readFileSync(join(cwd, "calc.js"), "utf8")).toBe("export function add(a, b) {\n\treturn a + b;\n}\n");
		const requests = server.requests.slice(before);
		expect(requests).toHaveLength(4);
		expect(requests[0]?.headers["x-api-key"]).toBe("mock-key");
		expect(requests[0]?.body.tools.map((t: { name: string }) => t.name)).toEqual(["read", "bash", "edit", "write"]);
		const lastUser = requests[3]?.body.messages.at(-1);
		expect(lastUser.content[0].type).toBe("tool_result");
		expect(JSON.stringify(lastUser.content[0].content)).toContain("CHECK-PASS");
	});

	test("JSON mode: header, the full event stream, and exit 0", async () => {
		const { home, cwd } = repo();
		server.push(...FIX_SCRIPT);
		const run = await runPiAsync(["--mode", "json", "make the check pass"], { home, cwd });
		expect(run.exitCode).toBe(0);
		const events = run.stdout
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(events[0]).toMatchObject({ type: "session", version: 3, cwd });
		const types = events.map((e) => e.type);
		expect(types[1]).toBe("agent_start");
		expect(types.at(-1)).toBe("agent_settled");
		expect(types.at(-2)).toBe("agent_end");
		expect(types.filter((t) => t === "turn_start")).toHaveLength(4);
		const ends = events.filter((e) => e.type === "tool_execution_end");
		expect(ends.map((e) => [e.toolName, e.isError])).toEqual([
			["read", false],
			["edit", false],
			["bash", false],
		]);
		expect(ends[2].result.content[0].text).toContain("CHECK-PASS");
		const updates = events.filter((e) => e.type === "message_update");
		expect(updates.length).toBeGreaterThan(0);
		for (const u of updates) {
			expect(u.message).toBeUndefined();
			expect(u.assistantMessageEvent.partial).toBeUndefined();
			expect(u.usage).toBeDefined();
		}
		const toolStart = updates.find((u) => u.assistantMessageEvent.type === "toolcall_start");
		expect(toolStart.assistantMessageEvent).toMatchObject({ id: "t1", toolName: "read" });
		expect(events.find((e) => e.type === "agent_end").willRetry).toBe(false);
		// As in pi, an assistant message_start shows the message as the stream began; message_end the final one.
		const starts = events.filter((e) => e.type === "message_start" && e.message.role === "assistant");
		const finals = events.filter((e) => e.type === "message_end" && e.message.role === "assistant");
		expect(starts).toHaveLength(4);
		for (const start of starts) {
			expect(Object.keys(start.message)).toEqual([
				"role",
				"content",
				"api",
				"provider",
				"model",
				"usage",
				"stopReason",
				"timestamp",
			]);
			expect(start.message).toMatchObject({ content: [], stopReason: "pending", usage: { input: 0, output: 0 } });
		}
		expect(finals.map((e) => e.message.stopReason)).toEqual(["toolUse", "toolUse", "toolUse", "stop"]);
		expect(finals[0].message.responseId).toStartWith("msg_");
		expect(finals[0].message.timestamp).toBe(starts[0].message.timestamp);
		expect(readFileSync(join(cwd, "calc.js"), "utf8")).toContain("a + b");
	});

	test("a provider error: print mode reports it on stderr with exit 1; JSON mode exits 0", async () => {
		const { home, cwd } = repo();
		server.push({ kind: "http-error", status: 401, message: "invalid x-api-key" });
		const run = await runPiAsync(["-p", "hi"], { home, cwd });
		expect(run.exitCode).toBe(1);
		// The provider's line, then what to check (test/reliability/providers.test.ts covers every source).
		expect(run.stderr).toBe(
			`Anthropic API error 401: invalid x-api-key [invalid_request_error] — check the apiKey of provider "mock" in ${home}/.pi/agent/models.json\n`,
		);
		server.push({ kind: "http-error", status: 400, message: "bad" });
		const json = await runPiAsync(["--mode", "json", "hi"], { home, cwd });
		expect(json.exitCode).toBe(0);
		expect(json.stdout).toContain('"stopReason":"error"');
	});

	test("a retryable error is retried (auto_retry events) and then succeeds", async () => {
		const { home, cwd } = repo();
		writeTree(join(home, ".pi/agent"), { "settings.json": JSON.stringify({ retry: { baseDelayMs: 10 } }) });
		server.push(
			{ kind: "http-error", status: 529, message: "Overloaded" },
			{ kind: "reply", text: "second time lucky" },
		);
		const run = await runPiAsync(["--mode", "json", "hi"], { home, cwd });
		const events = run.stdout
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line));
		const types = events.map((e) => e.type);
		expect(types).toContain("auto_retry_start");
		expect(events.find((e) => e.type === "auto_retry_end")).toMatchObject({ success: true, attempt: 1 });
		expect(events.find((e) => e.type === "agent_end").willRetry).toBe(true);
	});
});

describe("resources shape the prompt", () => {
	test("AGENTS.md, APPEND_SYSTEM.md, skills and prompt templates reach the model; trust gates the project's own", async () => {
		const { home, cwd } = repo();
		writeTree(join(home, ".pi/agent"), {
			"AGENTS.md": "Global rule: be kind.",
			"APPEND_SYSTEM.md": "Appended: mind the tests.",
			"skills/pdf-tools/SKILL.md": "---\nname: pdf-tools\ndescription: Work with PDF files\n---\nUse pdftotext.\n",
			"prompts/review.md": "---\ndescription: Review a file\n---\nPlease review $1 carefully.",
		});
		writeTree(cwd, { "AGENTS.md": "Project rule: tabs.", ".pi/prompts/secret.md": "project template $@" });
		server.push({ kind: "reply", text: "ok" }, { kind: "reply", text: "ok" });
		const before = server.requests.length;
		const run = await runPiAsync(["-p", "/review calc.js"], { home, cwd });
		expect(run.stdout).toBe("ok\n");
		const body = server.requests[before]?.body;
		const system = body.system[0].text as string;
		expect(system).toContain("Global rule: be kind.");
		expect(system).toContain("Project rule: tabs.");
		expect(system).toContain("Appended: mind the tests.");
		expect(system).toContain("pdf-tools");
		expect(system).toContain("Work with PDF files");
		expect(body.messages[0].content[0].text).toBe("Please review calc.js carefully.");
		// A project prompt template is trust-gated: without --approve "/secret" is sent as typed.
		const second = await runPiAsync(["-p", "/secret x"], { home, cwd });
		expect(second.stderr).toContain("--approve");
		expect(server.requests.at(-1)?.body.messages[0].content[0].text).toBe("/secret x");
	});
});

describe("resources from extensions", () => {
	test("resources_discover adds a skill and a prompt template; input runs before template expansion", async () => {
		const { home, cwd } = repo();
		const extDir = join(home, ".pi/agent/extensions/dynamic");
		writeTree(extDir, {
			"index.ts": `
import { join } from "node:path";
import { fileURLToPath } from "node:url";
const here = fileURLToPath(new URL(".", import.meta.url));
export default function (pi) {
	pi.on("resources_discover", async () => ({ skillPaths: [join(here, "SKILL.md")], promptPaths: [join(here, "fix.md")] }));
	pi.on("input", async (event) => event.text.startsWith("!fix ") ? { action: "transform", text: "/fix " + event.text.slice(5) } : { action: "continue" });
}`,
			"SKILL.md": "---\nname: dynamic\ndescription: A skill an extension provides\n---\nBody.\n",
			"fix.md": "---\ndescription: Fix something\n---\nFix $@ now.",
		});
		server.push({ kind: "reply", text: "ok" });
		const before = server.requests.length;
		const run = await runPiAsync(["-p", "!fix the build"], { home, cwd });
		expect(run.stdout).toBe("ok\n");
		const body = server.requests[before]?.body;
		expect(body.system[0].text).toContain("A skill an extension provides");
		expect(body.messages[0].content[0].text).toBe("Fix the build now.");
	});
});

describe("bash commands and their session", () => {
	const ENV_SCRIPT: MockStep[] = [
		{ kind: "reply", toolCalls: [{ id: "e1", name: "bash", arguments: { command: "env | grep '^PI_' | sort" } }] },
		{ kind: "reply", text: "done" },
	];
	const toolOutput = (events: { type: string; result?: { content: { text: string }[] } }[]) =>
		events.find((e) => e.type === "tool_execution_end")?.result?.content[0]?.text ?? "";

	test("PI_SESSION_ID, PI_SESSION_FILE, PI_PROVIDER, PI_MODEL and PI_REASONING_LEVEL describe the run, never ours", async () => {
		const { home, cwd } = repo();
		server.push(...ENV_SCRIPT);
		const stale = { PI_SESSION_ID: "stale", PI_MODEL: "stale", PI_SESSION_FILE: "/stale" };
		const run = await runPiAsync(["--mode", "json", "--thinking", "low", "show env"], { home, cwd, env: stale });
		expect(run.exitCode).toBe(0);
		const events = run.stdout
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line));
		const header = events[0] as { id: string };
		const vars = Object.fromEntries(
			toolOutput(events)
				.trim()
				.split("\n")
				.map((line) => line.split("=", 2) as [string, string]),
		);
		expect(vars.PI_SESSION_ID).toBe(header.id);
		expect(vars.PI_SESSION_FILE).toEndWith(`_${header.id}.jsonl`);
		expect(vars.PI_PROVIDER).toBe("mock");
		expect(vars.PI_MODEL).toBe("mock-1");
		expect(vars.PI_REASONING_LEVEL).toBe("low");
		// The rule about them is in the prompt while bash is active.
		expect(JSON.stringify(server.requests.at(-1)?.body.system)).toContain("PI_* environment variables");
	});

	test("with --no-session there is an id but no file", async () => {
		const { home, cwd } = repo();
		server.push(...ENV_SCRIPT);
		const run = await runPiAsync(["--mode", "json", "--no-session", "show env"], {
			home,
			cwd,
			env: { PI_SESSION_FILE: "/stale" },
		});
		const out = toolOutput(
			run.stdout
				.trimEnd()
				.split("\n")
				.map((line) => JSON.parse(line)),
		);
		expect(out).toContain("PI_SESSION_ID=");
		expect(out).not.toContain("PI_SESSION_FILE");
	});
});
