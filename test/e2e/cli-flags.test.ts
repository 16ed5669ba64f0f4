/**
 * Command-line options of a print-mode run through the compiled binary, checked on the requests the mock LLM
 * receives: credentials, model and thinking selection, tool selection, `--list-models`, `@file` arguments, piped
 * stdin, several messages, and the one-line errors for a missing key or an unknown model.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, runPiAsync } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { type RecordedRequest, startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

/** A 1×1 PNG. */
const PNG = Buffer.from(
	"89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c48900000010494441547801010500faff00c81e1eff04ba02040a5e32390000000049454e44ae426082",
	"hex",
);

const home = makeTempDir("pi-home-");
const model = (id: string, extra: Record<string, unknown> = {}) => ({
	id,
	reasoning: true,
	input: ["text", "image"],
	contextWindow: 200_000,
	maxTokens: 64_000,
	...extra,
});
writeTree(join(home, ".pi", "agent"), {
	"models.json": JSON.stringify({
		providers: {
			mock: {
				baseUrl: server.url,
				api: "anthropic-messages",
				apiKey: "mock-key",
				models: [model("mock-1"), model("mock-large-2", { name: "Mock Large", input: ["text"], maxTokens: 8192 })],
			},
			other: {
				baseUrl: server.url,
				api: "anthropic-messages",
				apiKey: "other-key",
				models: [model("mock-1"), model("plain-3", { reasoning: false })],
			},
		},
	}),
});

const cwd = makeTempDir("pi-cwd-");
writeTree(cwd, {
	"notes.txt": "NOTE CONTENT\n",
	"shout.ts": `import { Type } from "@sinclair/typebox";
export default function (pi) {
	pi.registerTool({
		name: "shout",
		label: "shout",
		description: "Shouts",
		parameters: Type.Object({}),
		execute: async () => ({ content: [{ type: "text", text: "HEY" }], details: {} }),
	});
}
`,
});
writeFileSync(join(cwd, "pic.png"), PNG);

interface Run extends RunResult {
	requests: RecordedRequest[];
}

/**
 * Runs the binary with `replies` scripted answers queued; returns its output and the requests it made. Answers a
 * failed run did not ask for are consumed afterwards, so the next run starts with an empty queue.
 */
async function pi(
	args: string[],
	options: { replies?: number; stdin?: string; env?: Record<string, string> } = {},
): Promise<Run> {
	const replies = options.replies ?? 1;
	const before = server.requests.length;
	for (let i = 0; i < replies; i++) server.push({ kind: "reply", text: `answer ${i + 1}` });
	const run = await runPiAsync(args, {
		home,
		cwd,
		...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
		...(options.env ? { env: options.env } : {}),
	});
	const requests = server.requests.slice(before);
	while (server.pending() > 0) {
		await fetch(`${server.url}/v1/messages`, { method: "POST", body: "{}" }).then((r) => r.text());
	}
	return { ...run, requests };
}

const toolNames = (request: RecordedRequest | undefined) =>
	(request?.body.tools as { name: string }[] | undefined)?.map((t) => t.name);
const lastUserContent = (request: RecordedRequest | undefined) => request?.body.messages.at(-1).content;

describe("credentials and model selection", () => {
	test("--api-key is sent instead of the configured key", async () => {
		const run = await pi(["-p", "--model", "mock/mock-1", "--api-key", "sk-from-cli", "hi"]);
		expect(run.stdout).toBe("answer 1\n");
		expect(run.requests[0]?.headers["x-api-key"]).toBe("sk-from-cli");
		const plain = await pi(["-p", "--model", "mock/mock-1", "hi"]);
		expect(plain.requests[0]?.headers["x-api-key"]).toBe("mock-key");
	});

	test("--model: exact id, provider/id, a fuzzy id or name; --provider narrows the search", async () => {
		const cases: Array<[string[], string, string]> = [
			[["--model", "mock-large-2"], "mock-large-2", "mock-key"],
			[["--model", "large"], "mock-large-2", "mock-key"],
			[["--model", "Mock Large"], "mock-large-2", "mock-key"],
			[["--model", "other/mock-1"], "mock-1", "other-key"],
			[["--provider", "other", "--model", "mock-1"], "mock-1", "other-key"],
			[["--provider", "other", "--model", "plain"], "plain-3", "other-key"],
		];
		for (const [args, id, key] of cases) {
			const run = await pi(["-p", ...args, "hi"]);
			expect(run.exitCode).toBe(0);
			expect([run.requests[0]?.body.model, run.requests[0]?.headers["x-api-key"]]).toEqual([id, key]);
		}
	});

	test("a :thinking suffix and --thinking set the level; --thinking wins; a model without reasoning gets none", async () => {
		const budget = async (args: string[]) => (await pi(["-p", ...args, "hi"])).requests[0]?.body.thinking;
		expect(await budget(["--model", "mock-1"])).toEqual({
			type: "enabled",
			budget_tokens: 8192,
			display: "summarized",
		});
		expect(await budget(["--model", "mock/mock-1:low"])).toEqual({
			type: "enabled",
			budget_tokens: 2048,
			display: "summarized",
		});
		expect(await budget(["--model", "mock-1:high"])).toEqual({
			type: "enabled",
			budget_tokens: 16384,
			display: "summarized",
		});
		expect(await budget(["--model", "mock-1", "--thinking", "minimal"])).toEqual({
			type: "enabled",
			budget_tokens: 1024,
			display: "summarized",
		});
		// As pi: a reasoning model asked not to think is told so.
		expect(await budget(["--model", "mock-1:high", "--thinking", "off"])).toEqual({ type: "disabled" });
		expect(await budget(["--model", "plain-3", "--thinking", "high"])).toBeUndefined();
	});

	test("--api-key without a model, an unknown model or provider, and no API key: one line, exit 1", async () => {
		const cases: Array<[string[], string]> = [
			[["--api-key", "k"], "Error: --api-key needs --model (or --provider) to know which provider the key is for"],
			[["--model", "nope"], 'Error: unknown model "nope" (see pi --list-models)'],
			[["--provider", "nope"], 'Error: unknown provider "nope" (see pi --list-models)'],
			[
				["--model", "anthropic/claude-sonnet-4-5"],
				"No API key found for anthropic. Set its API key or pass --api-key.",
			],
		];
		for (const [args, message] of cases) {
			const run = await pi(["-p", ...args, "hi"]);
			expect(run.stderr).toBe(`${message}\n`);
			expect(run.stdout).toBe("");
			expect(run.exitCode).toBe(1);
			expect(run.requests).toHaveLength(0);
		}
	});
});

describe("tool selection", () => {
	test("by default read, bash, edit and write are sent", async () => {
		expect(toolNames((await pi(["-p", "hi"])).requests[0])).toEqual(["read", "bash", "edit", "write"]);
	});

	test("--tools read,ls sends only those", async () => {
		expect(toolNames((await pi(["-p", "--tools", "read,ls", "hi"])).requests[0])).toEqual(["read", "ls"]);
	});

	test("--no-tools sends none, even an extension's", async () => {
		const run = await pi(["-p", "--no-tools", "-e", "shout.ts", "hi"]);
		expect(run.exitCode).toBe(0);
		expect(toolNames(run.requests[0]) ?? []).toEqual([]);
	});

	test("--no-builtin-tools keeps an extension's tool", async () => {
		const run = await pi(["-p", "--no-builtin-tools", "-e", "shout.ts", "hi"]);
		expect(run.exitCode).toBe(0);
		expect(toolNames(run.requests[0])).toEqual(["shout"]);
	});
});

describe("--list-models", () => {
	test("lists the models with credentials, then exits without a request", async () => {
		const run = await pi(["--list-models"], { replies: 0 });
		expect(run.exitCode).toBe(0);
		const lines = run.stdout
			.trimEnd()
			.split("\n")
			.map((line) => line.trimEnd());
		expect(lines[0]).toBe("provider  model         context  max-out  thinking  images");
		expect(lines.slice(1)).toEqual([
			"mock      mock-1        200K     64K      yes       yes",
			"mock      mock-large-2  200K     8.2K     yes       no",
			"other     mock-1        200K     64K      yes       yes",
			"other     plain-3       200K     64K      no        yes",
		]);
		expect(run.requests).toHaveLength(0);
	});

	test("a search filters fuzzily; no match says so", async () => {
		const large = await pi(["--list-models", "large2"], { replies: 0 });
		expect(large.stdout.trimEnd().split("\n").slice(1)).toEqual([
			"mock      mock-large-2  200K     8.2K     yes       no",
		]);
		const other = await pi(["--list-models", "other mock"], { replies: 0 });
		expect(other.stdout.trimEnd().split("\n")).toHaveLength(2);
		const none = await pi(["--list-models", "zzz"], { replies: 0 });
		expect(none.stdout).toBe('No models matching "zzz"\n');
	});
});

describe("prompt inputs", () => {
	test("@file: a text file is inlined, an image attached as an image block", async () => {
		const run = await pi(["-p", "@notes.txt", "@pic.png", "what is this?"]);
		expect(run.exitCode).toBe(0);
		const content = lastUserContent(run.requests[0]);
		expect(content[0]).toMatchObject({
			type: "text",
			text: `<file name="${join(cwd, "notes.txt")}">\nNOTE CONTENT\n\n</file>\n<file name="${join(cwd, "pic.png")}"></file>\nwhat is this?`,
		});
		expect(content[1]).toMatchObject({
			type: "image",
			source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") },
		});
		expect(content).toHaveLength(2);
	});

	test("@file naming a missing file is a one-line error", async () => {
		const run = await pi(["-p", "@missing.txt", "hi"]);
		expect(run.stderr).toBe(`Error: File not found: ${join(cwd, "missing.txt")}\n`);
		expect(run.exitCode).toBe(1);
		expect(run.requests).toHaveLength(0);
	});

	test("piped stdin is joined to the first prompt; several messages run in turn", async () => {
		const run = await pi(["-p", "first", "second", "third"], { replies: 3, stdin: "PIPED INPUT\n\n" });
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe("answer 3\n");
		expect(run.requests).toHaveLength(3);
		const texts = run.requests.map((r) => {
			const content = lastUserContent(r);
			return typeof content === "string" ? content : content[0].text;
		});
		expect(texts).toEqual(["PIPED INPUT\nfirst", "second", "third"]);
		const history = run.requests[2]?.body.messages.map((m: { role: string }) => m.role);
		expect(history).toEqual(["user", "assistant", "user", "assistant", "user"]);
	});

	test("piped stdin alone is the prompt", async () => {
		const run = await pi(["-p"], { stdin: "just stdin\n" });
		expect(run.stdout).toBe("answer 1\n");
		expect(lastUserContent(run.requests[0])[0].text).toBe("just stdin");
	});
});

describe("PI_TIMING", () => {
	test("PI_TIMING=1 prints the start-up phases to stderr after the answer; without it nothing is printed", async () => {
		const timed = await pi(["-p", "hi"], { env: { PI_TIMING: "1" } });
		expect(timed.exitCode).toBe(0);
		expect(timed.stdout).toBe("answer 1\n");
		const lines = timed.stderr.trimEnd().split("\n");
		expect(lines[0]).toBe("pi timings (ms since process start, phase duration):");
		const labels = lines.slice(1).map((line) => line.replace(/^\s*[\d.]+\s+\+[\d.]+\s+/, ""));
		for (const label of [
			"cli modules loaded",
			"credentials and models",
			"runtime started",
			"llm call: stream opened",
			"done",
		]) {
			expect(labels).toContain(label);
		}
		const times = lines.slice(1).map((line) => Number(line.trim().split(/\s+/)[0]));
		expect(times).toEqual([...times].sort((a, b) => a - b));
		const plain = await pi(["-p", "hi"]);
		expect(plain.stderr).toBe("");
	});
});

describe("--export", () => {
	test("writes a session file's page and prints where; a missing file is one clear error", async () => {
		const dir = makeTempDir("pi-export-");
		const file = join(dir, "2026-01-01T00-00-00-000Z_abc.jsonl");
		const entries = [
			{ type: "session", version: 3, id: "abc", timestamp: "2026-01-01T00:00:00.000Z", cwd: dir },
			{
				type: "message",
				id: "a1",
				parentId: null,
				timestamp: "2026-01-01T00:00:01.000Z",
				message: { role: "user", content: "<b>bold</b> question", timestamp: 1 },
			},
		];
		writeFileSync(file, `${entries.map((e) => JSON.stringify(e)).join("\n")}\n`);
		const run = await pi(["--export", file], { replies: 0 });
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe("Exported to: pi-session-2026-01-01T00-00-00-000Z_abc.html\n");
		const page = readFileSync(join(cwd, "pi-session-2026-01-01T00-00-00-000Z_abc.html"), "utf8");
		expect(page).toContain("&lt;b&gt;bold&lt;/b&gt; question");
		const named = await pi(["--export", file, join(dir, "named.html")], { replies: 0 });
		expect(named.stdout).toBe(`Exported to: ${join(dir, "named.html")}\n`);
		expect(existsSync(join(dir, "named.html"))).toBe(true);
		const missing = await pi(["--export", join(dir, "nope.jsonl")], { replies: 0 });
		expect(missing.exitCode).toBe(1);
		expect(missing.stderr.trim()).toBe(`Error: File not found: ${join(dir, "nope.jsonl")}`);
	});
});
