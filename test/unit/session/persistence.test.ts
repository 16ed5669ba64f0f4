import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionFormatError, SessionManager } from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, readJsonl, tempDir, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

function session(dir: string) {
	const m = SessionManager.create("/p", dir);
	const u1 = m.appendMessage(user("u1"));
	const a1 = m.appendMessage(assistant("a1"));
	const u2 = m.appendMessage(user("u2"));
	return { m, file: m.getSessionFile()!, u1, a1, u2 };
}

describe("deferred first write", () => {
	test("nothing is written before the first assistant message; then everything at once", () => {
		const dir = tempDir();
		const m = SessionManager.create("/p", dir);
		m.appendModelChange("anthropic", "claude-sonnet-4-5");
		m.appendMessage(user("hello"));
		m.appendCustomEntry("ext", { a: 1 });
		expect(existsSync(m.getSessionFile()!)).toBe(false);
		expect(readdirSync(dir)).toEqual([]);
		m.appendMessage(assistant("hi"));
		const lines = readJsonl(m.getSessionFile()!);
		expect(lines.map((l) => l.type)).toEqual(["session", "model_change", "message", "custom", "message"]);
		m.appendMessage(user("next"));
		expect(readJsonl(m.getSessionFile()!)).toHaveLength(6);
		expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
		m.close();
	});

	test("a session without an assistant message leaves no file", () => {
		const dir = tempDir();
		const m = SessionManager.create("/p", dir);
		m.appendMessage(user("only a question"));
		m.close();
		expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl"))).toEqual([]);
	});

	test("each later entry is one whole line appended to the file", () => {
		const dir = tempDir();
		const { m, file } = session(dir);
		for (let i = 0; i < 20; i++) {
			const before = statSync(file).size;
			const id = m.appendMessage(user(`line ${i}`));
			const text = readFileSync(file, "utf8");
			expect(text.endsWith("\n")).toBe(true);
			const added = text.slice(Buffer.from(text).subarray(0, before).toString().length);
			expect(added.split("\n")).toHaveLength(2);
			expect(JSON.parse(added).id).toBe(id);
		}
		m.close();
	});
});

describe("large files", () => {
	test("lines across the 4 MiB read chunks, and a line larger than a chunk, load intact", () => {
		const dir = tempDir();
		const m = SessionManager.create("/p", dir);
		const ids: string[] = [];
		for (let i = 0; i < 3000; i++) {
			const text = `${i}:${"é".repeat(700 + (i % 97))}`;
			ids.push(m.appendMessage(i % 2 ? assistant(text) : user(text)));
		}
		const big = "x".repeat(9 * 1024 * 1024);
		ids.push(m.appendMessage(user(big)));
		ids.push(m.appendMessage(assistant("after the big one")));
		m.close();
		expect(statSync(m.getSessionFile()!).size).toBeGreaterThan(12 * 1024 * 1024);
		const again = SessionManager.open(m.getSessionFile()!);
		expect(again.getDiagnostics()).toEqual([]);
		const messages = again.buildSessionContext().messages;
		expect(messages).toHaveLength(3002);
		expect(again.getEntries().map((e) => e.id)).toEqual(ids);
		messages.slice(0, 3000).forEach((msg, i) => {
			const content = (msg as { content: unknown }).content;
			const text = typeof content === "string" ? content : (content as { text: string }[])[0]!.text;
			expect(text).toBe(`${i}:${"é".repeat(700 + (i % 97))}`);
		});
		expect((messages[3000] as { content: string }).content).toHaveLength(big.length);
		again.close();
	});
});

describe("damaged files", () => {
	test("a torn last line is ignored with a warning and cut off before the next append", () => {
		const dir = tempDir();
		const { m, file, u2 } = session(dir);
		m.close();
		const good = readFileSync(file, "utf8");
		const fragment = '{"type":"message","id":"deadbeef","parentId":"';
		appendFileSync(file, fragment);
		const again = SessionManager.open(file);
		expect(again.getDiagnostics()).toEqual([
			`${file}:5: ignored torn last line (${fragment.length} bytes, no newline); before the next write it moves to ${file}.torn`,
		]);
		expect(again.getLeafId()).toBe(u2);
		expect(readFileSync(file, "utf8")).toBe(good + fragment);
		expect(existsSync(`${file}.torn`)).toBe(false);
		const next = again.appendMessage(assistant("after the crash"));
		// The cut bytes are kept, one torn line per line of the sidecar.
		expect(readFileSync(`${file}.torn`, "utf8")).toBe(`${fragment}\n`);
		const lines = readJsonl(file);
		expect(lines).toHaveLength(5);
		expect(lines[4]).toMatchObject({ id: next, parentId: u2 });
		expect(readFileSync(file, "utf8").startsWith(good)).toBe(true);
		again.close();
		expect(SessionManager.open(file).getDiagnostics()).toEqual([]);
	});

	test("a whole last entry without its newline is kept, and the next append completes the line", () => {
		const dir = tempDir();
		const { m, file, u2 } = session(dir);
		m.close();
		const extra = {
			type: "custom",
			id: "c0ffee00",
			parentId: u2,
			timestamp: new Date().toISOString(),
			customType: "x",
		};
		appendFileSync(file, JSON.stringify(extra));
		const again = SessionManager.open(file);
		expect(again.getLeafId()).toBe("c0ffee00");
		expect(again.getDiagnostics()[0]).toContain(":5: last line has no newline; kept");
		const next = again.appendMessage(user("more"));
		expect(
			readJsonl(file)
				.slice(4)
				.map((l) => l.id),
		).toEqual(["c0ffee00", next]);
		again.close();
	});

	test("a header without its newline is completed by the first append", () => {
		const dir = tempDir();
		const file = join(dir, "h.jsonl");
		writeFileSync(
			file,
			JSON.stringify({ type: "session", version: 3, id: "h1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" }),
		);
		const m = SessionManager.open(file);
		const id = m.appendMessage(user("first"));
		expect(readJsonl(file).map((l) => l.id)).toEqual(["h1", id]);
		m.close();
	});

	test("a corrupt middle line is skipped with file:line; its child is bridged to its parent; file untouched", () => {
		const dir = tempDir();
		const { m, file, u1, a1, u2 } = session(dir);
		m.close();
		const lines = readFileSync(file, "utf8").split("\n");
		lines[2] = `${lines[2]!.slice(0, 60)}#garbage#${lines[2]!.slice(70)}`; // a1's line, envelope intact
		writeFileSync(file, lines.join("\n"));
		const bytes = readFileSync(file);
		const again = SessionManager.open(file);
		const diagnostics = again.getDiagnostics();
		expect(diagnostics.some((d) => d.startsWith(`${file}:3: skipped corrupt`))).toBe(true);
		expect(diagnostics.some((d) => d.includes(`parent ${a1} was on a corrupt line; entry attached to ${u1}`))).toBe(
			true,
		);
		expect(again.getEntry(a1)).toBeUndefined();
		expect(again.getBranch().map((e) => e.id)).toEqual([u1, u2]);
		expect(again.buildSessionContext().messages.map((x) => x.role)).toEqual(["user", "user"]);
		expect(readFileSync(file).equals(bytes)).toBe(true);
		again.appendMessage(assistant("still appendable"));
		expect(readFileSync(file).subarray(0, bytes.length).equals(bytes)).toBe(true);
		again.close();
	});

	test("a malformed system message is reported with file:line and skipped like any bad line; file untouched", () => {
		const dir = tempDir();
		const file = join(dir, "s.jsonl");
		const header = { type: "session", version: 3, id: "h1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
		const at = "2025-01-01T00:00:01.000Z";
		const good = { role: "system", content: "", sections: { preamble: "P" }, timestamp: 1 };
		const bad = { role: "system", content: "", sections: { preamble: 5 }, toolsAdded: "read", timestamp: 2 };
		const lines = [
			header,
			{ type: "message", id: "s1", parentId: null, timestamp: at, message: good },
			{ type: "message", id: "s2", parentId: "s1", timestamp: at, message: bad },
			{
				type: "message",
				id: "u1",
				parentId: "s2",
				timestamp: at,
				message: { role: "user", content: "q", timestamp: 3 },
			},
		];
		writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
		const bytes = readFileSync(file);
		const m = SessionManager.open(file);
		// Entries are checked as they are read: building the context reads them.
		expect(m.buildSessionContext().messages.map((x) => x.role)).toEqual(["system", "user"]);
		expect(m.getEntry("s2")).toBeUndefined();
		expect(m.getDiagnostics()).toEqual([
			`${file}:3: skipped corrupt entry s2 (bad system message (/sections/preamble: Expected union value))`,
		]);
		expect(readFileSync(file).equals(bytes)).toBe(true);
		m.close();
	});

	test("a torn entry that pi later appended onto (no newline in between) keeps the whole entry", () => {
		const dir = tempDir();
		const { m, file, u1, u2 } = session(dir);
		m.close();
		const torn = `{"type":"message","id":"deadbeef","parentId":"${u2}","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"assi`;
		const next = {
			type: "message",
			id: "abcdef01",
			parentId: "deadbeef",
			timestamp: "2025-01-01T00:00:01.000Z",
			message: user("after"),
		};
		appendFileSync(file, torn + JSON.stringify(next) + "\n");
		const again = SessionManager.open(file);
		expect(again.getDiagnostics()).toEqual([
			`${file}:5: a torn entry runs into entry abcdef01 (crash mid-write); kept the whole entry`,
			`${file}:5: parent deadbeef was on a corrupt line; entry attached to ${u2}`,
		]);
		expect(again.getLeafEntry()).toMatchObject({ id: "abcdef01", parentId: u2 });
		expect(
			again
				.getBranch()
				.map((e) => e.id)
				.slice(0, 1),
		).toEqual([u1]);
		expect(again.buildSessionContext().messages.map((x) => (x as { content: unknown }).content)).toEqual([
			"u1",
			[{ type: "text", text: "a1" }],
			"u2",
			"after",
		]);
		again.close();
	});

	test("garbage and NUL-filled lines are skipped; an unrecoverable parent starts a separate root", () => {
		const dir = tempDir();
		const { m, file, u2 } = session(dir);
		m.close();
		const lines = readFileSync(file, "utf8").split("\n");
		lines[1] = "\0\0\0\0\0\0\0\0";
		lines[2] = "not json at all";
		writeFileSync(file, lines.join("\n"));
		const again = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const diagnostics = again.getDiagnostics();
		expect(diagnostics.filter((d) => d.includes("skipped corrupt line"))).toHaveLength(2);
		expect(diagnostics.some((d) => d.includes(`${file}:4: parent`) && d.includes("separate root"))).toBe(true);
		expect(again.getEntries().map((e) => e.id)).toEqual([u2]);
		expect(again.getTree().map((n) => n.entry.id)).toEqual([u2]);
	});

	test("a line whose envelope is fine but whose body is damaged is reported when first read", () => {
		const dir = tempDir();
		const { m, file, a1 } = session(dir);
		m.close();
		const text = readFileSync(file, "utf8");
		// Same length, still ends with "}", but the JSON is broken inside: only parsing finds out.
		writeFileSync(file, text.replace('"text":"a1"', '"text":"a1}'));
		const again = SessionManager.open(file);
		expect(again.getDiagnostics()).toEqual([]);
		expect(again.buildSessionContext().messages.map((x) => x.role)).toEqual(["user", "user"]);
		expect(again.getDiagnostics()).toEqual([expect.stringContaining(`${file}:3: skipped corrupt entry ${a1}`)]);
		again.close();
	});

	test("entries that fail the schema are skipped", () => {
		const dir = tempDir();
		const { m, file } = session(dir);
		m.close();
		const bad = { type: "compaction", id: "abababab", parentId: null, timestamp: "t", summary: 5 };
		appendFileSync(file, `${JSON.stringify(bad)}\n`);
		const again = SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(again.getEntry("abababab")).toBeUndefined();
		expect(again.getDiagnostics()[0]).toMatch(/:5: skipped corrupt line \(bad compaction entry/);
	});

	test("a file that is not a session is refused with a one-line error and left untouched", () => {
		const dir = tempDir();
		const cases: Record<string, string> = {
			"notes.jsonl": '{"hello":"world"}\n{"type":"message"}\n',
			"binary.jsonl": "\u0000\u0001garbage",
			"bad-header.jsonl": '{"type":"session","cwd":"/p"}\n',
			"entry-first.jsonl":
				'{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"t","message":{"role":"user","content":"x"}}\n',
		};
		for (const [name, content] of Object.entries(cases)) {
			const file = join(dir, name);
			writeFileSync(file, content);
			let error: unknown;
			try {
				SessionManager.open(file);
			} catch (e) {
				error = e;
			}
			expect(error).toBeInstanceOf(SessionFormatError);
			expect((error as Error).message).toStartWith(`Not a pi session file: ${file} (`);
			expect((error as Error).message).not.toContain("\n");
			expect(readFileSync(file, "utf8")).toBe(content);
			expect(existsSync(`${file}.lock`)).toBe(false);
		}
	});

	test("a missing or empty file starts a new session at that path", () => {
		const dir = tempDir();
		const empty = join(dir, "empty.jsonl");
		writeFileSync(empty, "");
		const m = SessionManager.open(empty);
		expect(m.getEntries()).toEqual([]);
		m.appendMessage(user("q"));
		m.appendMessage(assistant("a"));
		expect(readJsonl(empty).map((l) => l.type)).toEqual(["session", "message", "message"]);
		m.close();
		const missing = SessionManager.open(join(dir, "missing.jsonl"));
		expect(missing.getSessionFile()).toBe(join(dir, "missing.jsonl"));
		expect(existsSync(join(dir, "missing.jsonl"))).toBe(false);
	});

	test("a file changed behind our back is not appended to", () => {
		const dir = tempDir();
		const { m, file } = session(dir);
		appendFileSync(file, '{"type":"custom","id":"11111111","parentId":null,"timestamp":"t","customType":"x"}\n');
		const size = statSync(file).size;
		expect(() => m.appendMessage(user("x"))).toThrow(`another program wrote to ${file} (${size} bytes, expected `);
		expect(() => m.appendMessage(user("y"))).toThrow(/read-only \(another program wrote to the file\)/);
		expect(statSync(file).size).toBe(size);
		expect(m.isReadOnly()).toBe(true);
		expect(m.getDiagnostics()[0]).toContain("changed on disk by another program");
		const fork = m.forkToNewFile()!;
		m.appendMessage(user("continues in the fork"));
		expect(readJsonl(fork).at(-1)!.message.content).toBe("continues in the fork");
		m.close();
	});
});
