/**
 * A model on the `openai-codex-responses` API through the binary (a models.json provider whose key is a ChatGPT
 * access token, as a Codex login provides it): a tool loop in print mode sends pi's Codex request each turn, and a
 * usage limit ends the run with pi's message. The token never reaches the output or the session file.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { codexToken, startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());
const TOKEN = codexToken("acct-e2e");

function home(): { home: string; cwd: string } {
	const dir = makeTempDir("pi-home-");
	mkdirSync(join(dir, ".pi", "agent"), { recursive: true });
	writeFileSync(
		join(dir, ".pi", "agent", "models.json"),
		JSON.stringify({
			providers: {
				codex: {
					baseUrl: `${server.url}/backend-api`,
					api: "openai-codex-responses",
					apiKey: TOKEN,
					models: [{ id: "gpt-5.5", reasoning: true, input: ["text", "image"] }],
				},
			},
		}),
	);
	const cwd = makeTempDir("pi-work-");
	writeTree(cwd, { "note.txt": "the answer is 42\n" });
	return { home: dir, cwd };
}

function sessionText(dir: string): string {
	const root = join(dir, ".pi", "agent", "sessions");
	let text = "";
	const walk = (path: string) => {
		for (const entry of readdirSync(path, { withFileTypes: true })) {
			if (entry.isDirectory()) walk(join(path, entry.name));
			else text += readFileSync(join(path, entry.name), "utf8");
		}
	};
	walk(root);
	return text;
}

describe("openai-codex-responses through the binary", () => {
	test("a tool loop: Codex headers and body each turn; the token stays out of output and session", async () => {
		const { home: dir, cwd } = home();
		const before = server.requests.length;
		server.push(
			{
				kind: "reply",
				thinking: "read it",
				toolCalls: [{ id: "call_1", name: "read", arguments: { path: "note.txt" } }],
			},
			{ kind: "reply", text: "It says 42." },
		);
		const run = await runPiAsync(["-p", "what does note.txt say?"], { home: dir, cwd });
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("It says 42.\n");
		expect(run.exitCode).toBe(0);
		const [first, second] = server.requests.slice(before);
		expect(first?.path).toBe("/backend-api/codex/responses");
		expect(first?.headers["chatgpt-account-id"]).toBe("acct-e2e");
		expect(first?.headers.originator).toBe("pi");
		expect(first?.headers["openai-beta"]).toBe("responses=experimental");
		expect(first?.headers["session-id"]).toBeString();
		expect(first?.body).toMatchObject({ model: "gpt-5.5", store: false, stream: true, parallel_tool_calls: true });
		// pi's system prompt is the instructions, not an input item.
		expect(first?.body.instructions.length).toBeGreaterThan(100);
		expect(
			first?.body.input.some((item: { role?: string }) => item.role === "developer" || item.role === "system"),
		).toBe(false);
		const output = second?.body.input.find((item: { type?: string }) => item.type === "function_call_output");
		expect(output).toEqual({ type: "function_call_output", call_id: "call_1", output: "the answer is 42\n" });
		expect(second?.body.input.some((item: { type?: string }) => item.type === "reasoning")).toBe(true);
		expect(run.stdout + run.stderr).not.toContain(TOKEN);
		expect(sessionText(dir)).not.toContain(TOKEN);
	}, 60_000);

	test("a usage limit ends the run with pi's message and exit code 1", async () => {
		const { home: dir, cwd } = home();
		server.push({ kind: "http-error", status: 429, message: "The usage limit has been reached" });
		const run = await runPiAsync(["-p", "hello"], { home: dir, cwd });
		expect(run.exitCode).toBe(1);
		expect(run.stderr).toMatch(/You have hit your ChatGPT usage limit \(plus plan\)\. Try again in ~\d+ min\./);
		expect(run.stdout + run.stderr).not.toContain(TOKEN);
	}, 60_000);
});
