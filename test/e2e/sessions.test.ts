/** Session files through the binary: creation, continue, --session, --fork, --no-session, --resume, locking. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

function setup() {
	const home = makeTempDir("pi-home-");
	writeMockModels(home, server.url);
	const cwd = makeTempDir("pi-cwd-");
	return { home, cwd };
}

function sessionFiles(home: string): string[] {
	const root = join(home, ".pi", "agent", "sessions");
	if (!existsSync(root)) return [];
	return readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)).map((f) => join(root, dir, f)));
}

const lines = (file: string) =>
	readFileSync(file, "utf8")
		.trimEnd()
		.split("\n")
		.map((l) => JSON.parse(l));

describe("sessions through the binary", () => {
	test("a run writes a v3 session file; --continue sends the earlier messages and appends to the same file", async () => {
		const { home, cwd } = setup();
		server.push({ kind: "reply", text: "first answer" });
		expect((await runPiAsync(["-p", "remember 42"], { home, cwd })).stdout).toBe("first answer\n");
		const files = sessionFiles(home);
		expect(files).toHaveLength(1);
		const file = files[0] as string;
		const entries = lines(file);
		expect(entries[0]).toMatchObject({ type: "session", version: 3, cwd });
		const roles = entries.filter((e) => e.type === "message").map((e) => e.message.role);
		// The prompt and tool loadout come first, as a system message (pi 0.86+).
		expect(roles).toEqual(["system", "user", "assistant"]);
		expect(entries.some((e) => e.type === "model_change" && e.modelId === "mock-1")).toBe(true);

		server.push({ kind: "reply", text: "it was 42" });
		const before = server.requests.length;
		expect((await runPiAsync(["-c", "-p", "what number?"], { home, cwd })).stdout).toBe("it was 42\n");
		const sent = server.requests[before]?.body.messages.map((m: { role: string }) => m.role);
		expect(sent).toEqual(["user", "assistant", "user"]);
		expect(sessionFiles(home)).toEqual([file]);
		// The prompt did not change, so the continued run declares nothing new.
		expect(lines(file).filter((e) => e.type === "message")).toHaveLength(5);
	});

	test("--session by id prefix, --fork records the parent, --no-session writes nothing, --resume lists", async () => {
		const { home, cwd } = setup();
		server.push({ kind: "reply", text: "a" });
		await runPiAsync(["-p", "one"], { home, cwd });
		const [file] = sessionFiles(home) as [string];
		const id = lines(file)[0].id as string;

		server.push({ kind: "reply", text: "b" });
		expect((await runPiAsync(["--session", id.slice(0, 8), "-p", "two"], { home, cwd })).stdout).toBe("b\n");
		expect(lines(file).filter((e) => e.type === "message")).toHaveLength(5);

		server.push({ kind: "reply", text: "c" });
		await runPiAsync(["--fork", id, "-p", "three"], { home, cwd });
		const forked = sessionFiles(home).find((f) => f !== file) as string;
		expect(lines(forked)[0].parentSession).toBe(file);
		expect(lines(forked).filter((e) => e.type === "message")).toHaveLength(7);

		server.push({ kind: "reply", text: "d" });
		await runPiAsync(["--no-session", "-p", "four"], { home, cwd });
		expect(sessionFiles(home)).toHaveLength(2);

		const list = await runPiAsync(["--resume"], { home, cwd });
		expect(list.stdout).toContain(id.slice(0, 8));
		expect(list.exitCode).toBe(0);
	});

	test("user errors: unknown session, a file that is not a session, --fork with --continue", async () => {
		const { home, cwd } = setup();
		const unknown = await runPiAsync(["--session", "deadbeef", "-p", "x"], { home, cwd });
		expect(unknown.exitCode).toBe(1);
		expect(unknown.stderr).toStartWith('Error: no session file or id matches "deadbeef"');
		const notSession = join(cwd, "notes.jsonl");
		await Bun.write(notSession, '{"hello": "world"}\n');
		const bad = await runPiAsync(["--session", notSession, "-p", "x"], { home, cwd });
		expect(bad.exitCode).toBe(1);
		expect(bad.stderr.trimEnd().split("\n")).toHaveLength(1);
		expect(bad.stderr).toContain("notes.jsonl");
		expect(readFileSync(notSession, "utf8")).toBe('{"hello": "world"}\n');
		const both = await runPiAsync(["--fork", "x", "-c", "-p", "x"], { home, cwd });
		expect(both.stderr).toBe("Error: --fork cannot be combined with --session, --continue, --resume or --no-session\n");
	});

	test("a second pi on a session that another pi is writing continues in a fork, never interleaved", async () => {
		const { home, cwd } = setup();
		server.push({ kind: "reply", text: "first" });
		await runPiAsync(["-p", "one"], { home, cwd });
		const [file] = sessionFiles(home) as [string];
		server.push({ kind: "reply", text: "slow", chunkSize: 1, frameDelayMs: 150 });
		const sent = server.requests.length;
		const slow = runPiAsync(["--session", file, "-p", "two"], { home, cwd });
		// Wait until the first pi holds the lock and its request is streaming, then start a second one.
		for (let i = 0; i < 300 && (!existsSync(`${file}.lock`) || server.requests.length === sent); i++) {
			await Bun.sleep(10);
		}
		server.push({ kind: "reply", text: "from the fork" });
		const second = await runPiAsync(["--session", file, "-p", "three"], { home, cwd });
		expect(second.exitCode).toBe(0);
		expect(second.stdout).toBe("from the fork\n");
		// One line on stderr names the held file, says another pi holds it, and names the fork.
		const notice = second.stderr.trimEnd().split("\n");
		expect(notice).toHaveLength(1);
		expect(notice[0]).toStartWith(`session is open in another pi process (pid `);
		expect(notice[0]).toContain(`: ${file}; continuing in a fork: `);
		const fork = (notice[0] as string).split("continuing in a fork: ")[1] as string;
		expect(fork).not.toBe(file);
		expect((await slow).stdout).toBe("slow\n");
		// The held file got only its own process's entries.
		const texts = (path: string) =>
			lines(path)
				.filter((e) => e.type === "message")
				.map((e) => [e.message.role, JSON.stringify(e.message.content)]);
		expect(texts(file).map(([role]) => role)).toEqual(["system", "user", "assistant", "user", "assistant"]);
		expect(JSON.stringify(texts(file))).not.toContain("three");
		// The fork records its parent and holds the branch as the second pi found it, then its own turn.
		// (The first pi's "two" may or may not have been written by then; its reply had not.)
		const forkLines = lines(fork);
		expect(forkLines[0]).toMatchObject({ type: "session", parentSession: file });
		const forked = texts(fork);
		expect(forked[0]?.[0]).toBe("system");
		expect(forked.slice(1, 3).map(([, text]) => text)).toEqual([
			JSON.stringify([{ type: "text", text: "one" }]),
			JSON.stringify([{ type: "text", text: "first" }]),
		]);
		expect(forked.slice(-2).map(([role]) => role)).toEqual(["user", "assistant"]);
		expect(JSON.stringify(forked.slice(-2))).toContain("three");
		expect(JSON.stringify(forked.slice(-2))).toContain("from the fork");
		expect(JSON.stringify(forked)).not.toContain("slow");
	});

	test("JSON mode's header is the session file's header", async () => {
		const { home, cwd } = setup();
		server.push({ kind: "reply", text: "x" });
		const run = await runPiAsync(["--mode", "json", "hi"], { home, cwd });
		const header = JSON.parse(run.stdout.split("\n")[0] as string);
		const [file] = sessionFiles(home) as [string];
		expect(header).toEqual(lines(file)[0]);
	});
});

describe("/compact in print mode", () => {
	test("compacts the continued session with the given instructions, using the per-model override", async () => {
		const { home, cwd } = setup();
		await Bun.write(
			join(home, ".pi/agent/settings.json"),
			JSON.stringify({
				compaction: { keepRecentTokens: 100000, modelOverrides: { "mock/mock-1": { keepRecentTokens: 50 } } },
			}),
		);
		const filler = "word ".repeat(400);
		server.push({ kind: "reply", text: `a ${filler}` }, { kind: "reply", text: `b ${filler}` });
		await runPiAsync(["-p", `one ${filler}`, `two ${filler}`], { home, cwd });
		server.push({ kind: "reply", text: "## Goal\nthe summary" }, { kind: "reply", text: "prefix" });
		const before = server.requests.length;
		const run = await runPiAsync(["-c", "-p", "/compact keep the numbers"], { home, cwd });
		expect(run.stderr).toBe("");
		expect(run.stdout).toMatch(/^Compacted: \d+ tokens of context summarised; kept from entry [0-9a-f]{8}\n$/);
		const prompt = JSON.stringify(server.requests[before]?.body.messages);
		expect(prompt).toContain("keep the numbers");
		const [file] = sessionFiles(home) as [string];
		expect(lines(file).some((e) => e.type === "compaction" && String(e.summary).includes("the summary"))).toBe(true);
	});
});
