/**
 * The `pi-messages` API in the compiled binary (its code is a chunk loaded on first use): a models.json provider
 * with `"api": "pi-messages"` runs a tool loop against the mock gateway, and the key goes only where it belongs.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

function listFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => join(entry.parentPath, entry.name));
}

describe("pi-messages through the binary", () => {
	test("a tool loop against a pi-messages gateway; the key stays in the authorization header", async () => {
		const home = makeTempDir("pi-home-");
		writeMockModels(home, `${server.url}/pi`, "pi-messages", "balanced");
		const cwd = makeTempDir("pi-work-");
		writeTree(cwd, { "note.txt": "the answer is 42\n" });
		const before = server.requests.length;
		server.push(
			{
				kind: "reply",
				thinking: "read it",
				text: "Reading.",
				toolCalls: [{ name: "read", arguments: { path: "note.txt" } }],
			},
			{ kind: "reply", text: "It says 42.", usage: { input: 100, output: 5, cacheRead: 20 } },
		);
		const run = await runPiAsync(["-p", "what does note.txt say?"], { home, cwd });
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("It says 42.\n");
		expect(run.exitCode).toBe(0);
		const requests = server.requests.slice(before);
		expect(requests.map((r) => r.path)).toEqual(["/pi/messages", "/pi/messages"]);
		expect(requests[0]?.headers.authorization).toBe("Bearer mock-key");
		const body = requests[1]?.body;
		expect(body.model).toBe("balanced");
		const roles = body.context.messages.map((m: { role: string }) => m.role);
		expect(roles[0]).toBe("system");
		expect(roles.slice(-3)).toEqual(["user", "assistant", "toolResult"]);
		expect(JSON.stringify(body.context.messages.at(-1))).toContain("the answer is 42");
		for (const file of listFiles(join(home, ".pi", "agent", "sessions"))) {
			expect(readFileSync(file, "utf8")).not.toContain("mock-key");
		}
	}, 60_000);
});
