/**
 * The `/resume` picker's pieces without a terminal: reading session files into rows (damaged ones included), the
 * list model (threaded order, named filter, search modes, incremental filtering that agrees with a fresh search),
 * the rows as drawn, and the picker component's delete confirmation and damaged-file refusal.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { APP_KEYBINDINGS } from "../../src/modes/interactive/app/keybindings.ts";
import { parseSearchQuery, SessionListModel } from "../../src/modes/interactive/selectors/session-list-model.ts";
import { renderRows } from "../../src/modes/interactive/selectors/session-list-view.ts";
import {
	forgetSessionRow,
	listSessionFiles,
	readSessionRow,
	rowOf,
	type SessionRow,
} from "../../src/modes/interactive/selectors/session-scan.ts";
import { SessionSelector } from "../../src/modes/interactive/selectors/session-selector.ts";
import { loadChalk } from "../../src/resources/index.ts";
import { KeybindingsManager, setKeybindings, stripTerminalSequences } from "../../src/tui/index.ts";
import { makeTempDir } from "../helpers/tmp.ts";

beforeAll(async () => {
	await loadChalk();
	setKeybindings(new KeybindingsManager(APP_KEYBINDINGS));
});

const ref = { path: "/s/x.jsonl", mtimeMs: 1000, size: 1 };

function jsonl(...lines: unknown[]): string {
	return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

function message(role: string, text: string, timestamp: number, extra: Record<string, unknown> = {}) {
	return {
		type: "message",
		id: `m${timestamp}`,
		parentId: null,
		timestamp: new Date(timestamp).toISOString(),
		message: { role, content: [{ type: "text", text }], timestamp, ...extra },
	};
}

function session(id: string, question: string, extra: Record<string, unknown> = {}): string {
	return jsonl(
		{ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w", ...extra },
		message("user", question, 1767225600000),
		message("assistant", `about ${question}`, 1767225601000),
	);
}

function row(path: string, modified: number, extra: Partial<SessionRow> = {}): SessionRow {
	return {
		path,
		id: path,
		cwd: "/w",
		modified,
		messageCount: 2,
		firstMessage: `first of ${path}`,
		searchText: `${path} ${extra.name ?? ""} ${extra.firstMessage ?? ""}`.toLowerCase(),
		...extra,
	};
}

const plain = (lines: string[]) => lines.map((l) => stripTerminalSequences(l));

describe("session rows", () => {
	test("a pi session: id, cwd, counts, first user message, latest name, last activity, parent", () => {
		const text = jsonl(
			{
				type: "session",
				version: 3,
				id: "abc",
				timestamp: "2026-01-01T00:00:00.000Z",
				cwd: "/w",
				parentSession: "/p.jsonl",
			},
			message("user", "fix the renderer", 1767225600000),
			{ type: "session_info", id: "i1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", name: "first" },
			message("assistant", "done", 1767225605000),
			message("toolResult", "output", 1767225606000, { toolCallId: "c", toolName: "bash" }),
			{ type: "session_info", id: "i2", parentId: null, timestamp: "2026-01-01T00:00:02.000Z", name: " Renamed " },
		);
		const r = rowOf(ref, text);
		expect(r.id).toBe("abc");
		expect(r.cwd).toBe("/w");
		expect(r.messageCount).toBe(3);
		expect(r.firstMessage).toBe("fix the renderer");
		expect(r.name).toBe("Renamed");
		expect(r.modified).toBe(1767225606000);
		expect(r.parentSessionPath).toBe("/p.jsonl");
		expect(r.searchText).toContain("fix the renderer");
		expect(r.searchText).toContain("done");
		expect(r.searchText).not.toContain("output");
		expect(r.damaged).toBeUndefined();
	});

	test("damaged files are rows with the reason", () => {
		expect(rowOf(ref, "").damaged).toBe("empty file: no session header");
		expect(rowOf(ref, "not json\n").damaged).toBe("the first line is not valid JSON");
		expect(rowOf(ref, jsonl({ type: "message" })).damaged).toBe("the first line is not a session header");
		expect(rowOf(ref, "not json\n").firstMessage).toBe("the first line is not valid JSON");
	});

	test("files are listed newest name first without being read; rows are cached until the file changes", () => {
		const dir = makeTempDir("pi-resume-unit-");
		writeFileSync(join(dir, "2026-01-01T00-00-00-000Z_a.jsonl"), session("a", "alpha"));
		writeFileSync(join(dir, "2026-02-01T00-00-00-000Z_b.jsonl"), session("b", "bravo"));
		writeFileSync(join(dir, "notes.txt"), "x");
		const files = listSessionFiles([dir, join(dir, "missing")]);
		expect(files.map((f) => f.slice(dir.length + 1))).toEqual([
			"2026-02-01T00-00-00-000Z_b.jsonl",
			"2026-01-01T00-00-00-000Z_a.jsonl",
		]);
		const first = readSessionRow(files[0] as string);
		expect(first?.firstMessage).toBe("bravo");
		expect(readSessionRow(files[0] as string)).toBe(first as SessionRow);
		writeFileSync(files[0] as string, session("b", "bravo changed"));
		expect(readSessionRow(files[0] as string)?.firstMessage).toBe("bravo changed");
		unlinkSync(files[1] as string);
		expect(readSessionRow(files[1] as string)).toBeUndefined();
		forgetSessionRow();
	});
});

describe("session list model", () => {
	test("threaded: forks under their parent, subtrees by latest activity, tree prefixes drawn", () => {
		const model = new SessionListModel();
		model.setRows([
			row("/a", 100),
			row("/b", 200),
			row("/a1", 300, { parentSessionPath: "/a" }),
			row("/a2", 50, { parentSessionPath: "/a" }),
		]);
		expect(model.items.map((i) => [i.row.path, i.depth])).toEqual([
			["/a", 0],
			["/a1", 1],
			["/a2", 1],
			["/b", 0],
		]);
		const lines = plain(
			renderRows(
				{ items: model.items, selected: 0, maxVisible: 10, showCwd: false, showPath: false, names: "all" },
				80,
			),
		);
		expect(lines[1]).toContain("├─ first of /a1");
		expect(lines[2]).toContain("└─ first of /a2");
		model.setSort("recent");
		expect(model.items.map((i) => i.row.path)).toEqual(["/a1", "/b", "/a", "/a2"]);
	});

	test("named-only filter and the search modes (fuzzy words, phrase, regex, bad regex)", () => {
		const model = new SessionListModel();
		model.setRows([
			row("/1", 1, { name: "Refactor plan", firstMessage: "split the render loop" }),
			row("/2", 2, { firstMessage: "render the loop later" }),
			row("/3", 3, { firstMessage: "unrelated" }),
		]);
		model.setNameFilter("named");
		expect(model.items.map((i) => i.row.path)).toEqual(["/1"]);
		model.setNameFilter("all");
		model.setQuery("rndr loop");
		expect(new Set(model.items.map((i) => i.row.path))).toEqual(new Set(["/1", "/2"]));
		model.setQuery('"render loop"');
		expect(model.items.map((i) => i.row.path)).toEqual(["/1"]);
		model.setQuery("re:^/3");
		expect(model.items.map((i) => i.row.path)).toEqual(["/3"]);
		model.setQuery("re:(");
		expect(model.items).toEqual([]);
		expect(parseSearchQuery('a "b c').mode).toBe("tokens");
		expect(parseSearchQuery('a "b c')).toEqual({
			mode: "tokens",
			tokens: [
				{ kind: "fuzzy", value: "a" },
				{ kind: "fuzzy", value: '"b' },
				{ kind: "fuzzy", value: "c" },
			],
		});
	});

	test("typing a query key by key gives the same list as searching for it at once", () => {
		const words = "render loop frame session picker token cache tool error value".split(" ");
		let seed = 7;
		const rand = () => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed / 2 ** 31;
		};
		const rows = Array.from({ length: 300 }, (_, i) => {
			const text = Array.from({ length: 8 }, () => words[Math.floor(rand() * words.length)]).join(" ");
			return row(`/s${i}`, i * 10, { firstMessage: text });
		});
		for (const query of ["render loop", "rl fr", "cache  tool er", "zzz", "tok sess"]) {
			const typed = new SessionListModel();
			typed.setRows(rows);
			for (let i = 1; i <= query.length; i++) typed.setQuery(query.slice(0, i));
			const once = new SessionListModel();
			once.setRows(rows);
			once.setQuery(query);
			expect(typed.items.map((x) => x.row.path)).toEqual(once.items.map((x) => x.row.path));
		}
	});
});

describe("session picker component", () => {
	async function picker(dir: string, removed: string[]) {
		let renders = 0;
		const selected: string[] = [];
		const selector = new SessionSelector({
			folders: () => [dir],
			requestRender: () => renders++,
			onSelect: (path) => selected.push(path),
			onCancel: () => {},
			remove: async (path) => {
				removed.push(path);
				unlinkSync(path);
				return "Session deleted";
			},
		});
		await new Promise((r) => setImmediate(r));
		await new Promise((r) => setImmediate(r));
		return { selector, selected, screen: () => plain(selector.render(100)).join("\n") };
	}

	test("delete asks first; Escape keeps the file, Enter removes it", async () => {
		const dir = makeTempDir("pi-resume-picker-");
		const path = join(dir, "2026-01-01T00-00-00-000Z_a.jsonl");
		writeFileSync(path, session("a", "alpha question"));
		const removed: string[] = [];
		const { selector, screen } = await picker(dir, removed);
		expect(screen()).toContain("alpha question");
		selector.handleInput("\x04"); // ctrl+d
		expect(screen()).toContain("Delete session?");
		selector.handleInput("\x1b");
		expect(screen()).not.toContain("Delete session?");
		expect(existsSync(path)).toBe(true);
		selector.handleInput("\x04");
		selector.handleInput("\r");
		await new Promise((r) => setTimeout(r, 10));
		expect(removed).toEqual([path]);
		expect(screen()).toContain("Session deleted");
		expect(screen()).not.toContain("alpha question");
		selector.dispose();
	});

	test("a damaged file is listed and choosing it says why, without selecting it", async () => {
		const dir = makeTempDir("pi-resume-picker-");
		writeFileSync(join(dir, "broken.jsonl"), "{oops\n");
		const { selector, selected, screen } = await picker(dir, []);
		expect(screen()).toContain("[damaged] broken.jsonl: the first line is not valid JSON");
		selector.handleInput("\r");
		expect(selected).toEqual([]);
		expect(screen()).toContain("Cannot open broken.jsonl: the first line is not valid JSON");
		selector.dispose();
	});
});
