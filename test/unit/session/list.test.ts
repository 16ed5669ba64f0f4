import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd, SessionManager } from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, copyFixture, readJsonl, tempDir, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** A saved session whose file mtime is `secondsAgo` in the past. */
function make(dir: string, cwd: string, first: string, secondsAgo: number, name?: string): SessionManager {
	const m = SessionManager.create(cwd, dir);
	m.appendMessage(user(first));
	m.appendMessage(assistant("ok"));
	if (name) m.appendSessionInfo(name);
	m.close();
	const t = Date.now() / 1000 - secondsAgo;
	utimesSync(m.getSessionFile()!, t, t);
	return m;
}

describe("finding sessions", () => {
	test("list: newest first, with the documented SessionInfo fields; other files ignored", async () => {
		const dir = tempDir();
		const older = make(dir, "/proj", "first question", 100);
		const newer = make(dir, "/proj", "second question", 10, "Named one");
		writeFileSync(join(dir, "notes.jsonl"), "not a session\n");
		writeFileSync(join(dir, "readme.txt"), "x");
		const progress: number[] = [];
		const infos = await SessionManager.list("/proj", dir, (loaded) => progress.push(loaded));
		expect(infos.map((i) => i.id)).toEqual([newer.getSessionId(), older.getSessionId()]);
		expect(progress).toEqual([1, 2, 3]);
		const info = infos[0]!;
		expect(info).toEqual({
			path: newer.getSessionFile()!,
			id: newer.getSessionId(),
			cwd: "/proj",
			name: "Named one",
			created: new Date(newer.getHeader()!.timestamp),
			modified: expect.any(Date),
			messageCount: 2,
			firstMessage: "second question",
		});
		expect(infos[1]!.name).toBeUndefined();
		expect(infos[0]!.modified.getTime()).toBeGreaterThan(infos[1]!.modified.getTime());
	});

	test("listAll covers every working-directory folder under the sessions root", async () => {
		const root = tempDir();
		const a = make(join(root, encodeCwd("/a")), "/a", "in a", 30);
		const b = make(join(root, encodeCwd("/b")), "/b", "in b", 20);
		const infos = await SessionManager.listAll(root);
		expect(infos.map((i) => [i.cwd, i.firstMessage])).toEqual([
			["/b", "in b"],
			["/a", "in a"],
		]);
		expect(infos.map((i) => i.path)).toEqual([b.getSessionFile()!, a.getSessionFile()!]);
	});

	test("list reads old v1 files without rewriting them (parentSessionPath from branchedFrom)", async () => {
		const dir = tempDir();
		const file = copyFixture("v1-before-compaction.jsonl", dir);
		const raw = readJsonl(file);
		const [info] = await SessionManager.list("/x", dir);
		const firstUser = raw.find((l) => l.type === "message" && l.message.role === "user")!.message;
		expect(info).toMatchObject({
			id: raw[0]!.id,
			cwd: raw[0]!.cwd,
			parentSessionPath: raw[0]!.branchedFrom,
			messageCount: raw.filter((l) => l.type === "message").length,
			firstMessage: firstUser.content.map((b: { text: string }) => b.text).join(" "),
		});
		expect(readJsonl(file)[0]!.version).toBeUndefined();
	});

	test("continueRecent opens the most recently modified valid session, else creates one", () => {
		const dir = tempDir();
		expect(SessionManager.continueRecent("/proj", dir).getEntries()).toEqual([]);
		make(dir, "/proj", "old", 100);
		const recent = make(dir, "/proj", "recent", 50);
		writeFileSync(join(dir, "9999-newest-but-broken.jsonl"), "garbage\n");
		mkdirSync(join(dir, "folder.jsonl"));
		const m = SessionManager.continueRecent("/proj", dir);
		expect(m.getSessionFile()).toBe(recent.getSessionFile()!);
		expect(m.getSessionId()).toBe(recent.getSessionId());
		expect(m.buildSessionContext().messages[0]).toMatchObject({ content: "recent" });
		m.close();
	});

	test("findById finds a session by its header id", () => {
		const dir = tempDir();
		const m = make(dir, "/proj", "q", 1);
		expect(SessionManager.findById("/proj", m.getSessionId(), dir)).toBe(m.getSessionFile()!);
		expect(SessionManager.findById("/proj", "no-such-id", dir)).toBeUndefined();
	});
});

describe("forks record their parent", () => {
	test("forkFrom copies every entry into a new session of the target cwd", () => {
		const dir = tempDir();
		const target = tempDir();
		const source = make(dir, "/from", "question", 1);
		const fork = SessionManager.forkFrom(source.getSessionFile()!, "/to", target);
		const file = fork.getSessionFile()!;
		expect(file.startsWith(target)).toBe(true);
		const lines = readJsonl(file);
		expect(lines[0]).toMatchObject({ type: "session", version: 3, cwd: "/to", parentSession: source.getSessionFile() });
		expect(lines[0]!.id).not.toBe(source.getSessionId());
		expect(lines.slice(1)).toEqual(readJsonl(source.getSessionFile()!).slice(1));
		expect(fork.getLeafId()).toBe(lines.at(-1)!.id);
		fork.appendMessage(user("more"));
		fork.close();
	});

	test("newSession records parentSession when asked; in-memory forks stay in memory", () => {
		const dir = tempDir();
		const m = make(dir, "/p", "q", 1);
		const previous = m.getSessionFile()!;
		const again = SessionManager.open(previous);
		const next = again.newSession({ parentSession: previous })!;
		again.appendMessage(user("fresh"));
		again.appendMessage(assistant("start"));
		expect(readJsonl(next)[0]!.parentSession).toBe(previous);
		expect(again.getEntries()).toHaveLength(2);
		again.close();

		const mem = SessionManager.inMemory("/p");
		mem.appendMessage(user("q"));
		expect(mem.forkToNewFile()).toBeUndefined();
		expect(mem.getEntries()).toHaveLength(1);
	});
});

describe("findMostRecentSession with a working directory", () => {
	test("only a session whose header names that cwd counts (a shared session dir holds other projects too)", async () => {
		const { mkdirSync, utimesSync, writeFileSync } = await import("node:fs");
		const { join } = await import("node:path");
		const { findMostRecentSession } = await import("../../../src/session/index.ts");
		const { makeTempDir } = await import("../../helpers/tmp.ts");
		const dir = makeTempDir("pi-recent-");
		mkdirSync(dir, { recursive: true });
		const write = (name: string, cwd: string, secondsAgo: number) => {
			const path = join(dir, name);
			writeFileSync(path, `${JSON.stringify({ type: "session", version: 3, id: name, timestamp: "t", cwd })}\n`);
			const when = new Date(Date.now() - secondsAgo * 1000);
			utimesSync(path, when, when);
			return path;
		};
		const mine = write("a.jsonl", "/repo/project", 60);
		write("b.jsonl", "/repo/other", 10);
		expect(findMostRecentSession(dir, "/repo/project")).toBe(mine);
		expect(findMostRecentSession(dir, "/repo/project/")).toBe(mine);
		expect(findMostRecentSession(dir)).toBe(join(dir, "b.jsonl"));
		expect(findMostRecentSession(dir, "/repo/none")).toBeNull();
	});
});
