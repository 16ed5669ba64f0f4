/**
 * Damaged session files opened with the compiled binary: a corrupt header and a file that is not a session are
 * refused in one line naming the file and line; a corrupt middle line is loaded around with a `file:line` note.
 * The bad bytes stay where they are and nothing is rewritten unless the user goes on (then only appended).
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { mockAssistant } from "./big-session.ts";
import { startRpcProcess } from "./rpc-process.ts";

const server = startMockLlm();
afterAll(() => server.stop());

const T = "2026-01-01T00:00:00.000Z";
const header = JSON.stringify({
	type: "session",
	version: 3,
	id: "0194f0c0-0000-7000-8000-000000000001",
	timestamp: T,
	cwd: "/tmp",
});
const entry = (id: string, parentId: string | null, role: "user" | "assistant", text: string) =>
	JSON.stringify({
		type: "message",
		id,
		parentId,
		timestamp: T,
		message: role === "user" ? { role, content: text, timestamp: 1 } : mockAssistant([{ type: "text", text }], 2),
	});
const good = [header, entry("a1", null, "user", "hi"), entry("a2", "a1", "assistant", "hello")];

function home(): string {
	const dir = makeTempDir("pi-rel-home-");
	writeMockModels(dir, server.url);
	return dir;
}

function sessionFile(name: string, text: string): string {
	const file = join(makeTempDir("pi-rel-corrupt-"), name);
	writeFileSync(file, text);
	return file;
}

const refusals: [string, string, string][] = [
	["a corrupt header", `{"type":"session","version":3,"id":${"\n"}${good.slice(1).join("\n")}\n`, "line 1"],
	["a header that is valid JSON but not a session", `${good.slice(1).join("\n")}\n`, "line 1"],
	["a text file", "# notes\n\nnot a session at all\n", "line 1"],
	["a binary file", "\u0000\u0001\u0002PNG\u0000\n", "line 1"],
];

for (const [what, text, line] of refusals) {
	test(`${what}: refused in one line naming the file and ${line}; the file is not touched`, async () => {
		const file = sessionFile("s.jsonl", text);
		const before = readFileSync(file);
		const run = await runPiAsync(["--session", file, "--model", "mock/mock-1", "-p", "hi"], { home: home() });
		expect(run.exitCode).not.toBe(0);
		const lines = run.stderr.trim().split("\n");
		const message = lines.find((l) => l.includes(file));
		expect(message).toBeDefined();
		expect(message).toContain(`Not a pi session file: ${file}`);
		expect(message).toContain(line);
		expect(lines.filter((l) => l.includes(file))).toHaveLength(1);
		expect(readFileSync(file).equals(before)).toBe(true);
	}, 30_000);
}

test("a corrupt middle line: loaded around with a file:line note; opening rewrites nothing, going on only appends", async () => {
	const bad = '{"type":"message","id":"b1","parentId":"a2","message":{"role":"user","content":"cut off';
	const text = `${[...good, bad, entry("a3", "b1", "user", "again"), entry("a4", "a3", "assistant", "still here")].join("\n")}\n`;
	const file = sessionFile("s.jsonl", text);
	const before = readFileSync(file);

	// Opened in RPC mode and read, no prompt: byte for byte the same afterwards.
	const pi = startRpcProcess({ mockUrl: server.url, args: ["--session", file] });
	pi.send({ id: "m", type: "get_messages" });
	const messages = await pi.waitFor((r) => r.type === "response" && r.id === "m", 15_000);
	const texts = messages.data.messages.map((m: any) => (typeof m.content === "string" ? m.content : m.content[0].text));
	// b1's child a3 is attached to b1's own parent, so the branch reads on past the bad line.
	expect(texts).toEqual(["hi", "hello", "again", "still here"]);
	pi.end();
	expect(await pi.exit(10_000)).toBe(0);
	expect(pi.stderr()).toContain(`${file}:4: skipped corrupt line`);
	expect(readFileSync(file).equals(before)).toBe(true);

	// Going on appends after the bad line and leaves it in place.
	server.push({ kind: "reply", text: "appended" });
	const run = await runPiAsync(["--session", file, "--model", "mock/mock-1", "-p", "more"], { home: pi.home });
	expect(run.exitCode).toBe(0);
	expect(run.stdout).toContain("appended");
	const after = readFileSync(file);
	expect(after.subarray(0, before.length).equals(before)).toBe(true);
	const added = after.subarray(before.length).toString("utf8").trim().split("\n");
	for (const line of added) JSON.parse(line);
	expect(JSON.parse(added[0]!).parentId).toBe("a4");
}, 60_000);
