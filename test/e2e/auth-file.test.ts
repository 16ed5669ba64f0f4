/**
 * A broken `~/.pi/agent/auth.json` (JSON syntax error, wrong types) stops the binary with one line naming the
 * file and the line/column or the entry, exit 1, the file untouched and no request sent.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

describe("a broken auth.json", () => {
	const cases: { name: string; text: string; message: (path: string) => string }[] = [
		{
			name: "a JSON syntax error: file, line and column",
			text: '{\n  "mock": { "type": "api_key", "key": "sk-1" },\n  oops\n}\n',
			message: (path) =>
				`Error: ${path}: invalid JSON at line 3, column 3 (expected double-quoted property name); fix or remove the file (it was not changed)`,
		},
		{
			name: "a key of the wrong type: file and entry",
			text: '{ "mock": { "type": "api_key", "key": 5 } }',
			message: (path) =>
				`Error: ${path}: "mock": "key" must be a string; fix or remove that entry (the file was not changed)`,
		},
		{
			name: "an entry that is not an object",
			text: '{ "mock": "sk-1" }',
			message: (path) =>
				`Error: ${path}: "mock": expected an object; fix or remove that entry (the file was not changed)`,
		},
		{
			name: "a file that ends too early",
			text: '{ "mock": ',
			message: (path) =>
				`Error: ${path}: invalid JSON at line 1, column 11 (the file ends too early); fix or remove the file (it was not changed)`,
		},
		{
			name: "not an object at the top",
			text: "[1, 2]",
			message: (path) => `Error: ${path}: expected a JSON object of provider entries`,
		},
	];
	for (const c of cases) {
		test(c.name, async () => {
			const home = makeTempDir("pi-auth-home-");
			writeMockModels(home, server.url);
			const path = join(home, ".pi/agent/auth.json");
			writeTree(home, { ".pi/agent/auth.json": c.text });
			const before = statSync(path).mtimeMs;
			const requests = server.requests.length;
			const run = await runPiAsync(["--provider", "mock", "--model", "mock-1", "-p", "hello"], { home });
			expect(run.stderr).toBe(`${c.message(path)}\n`);
			expect(run.exitCode).toBe(1);
			expect(run.stdout).toBe("");
			expect(readFileSync(path, "utf8")).toBe(c.text);
			expect(statSync(path).mtimeMs).toBe(before);
			expect(server.requests.length).toBe(requests);
		});
	}
});
