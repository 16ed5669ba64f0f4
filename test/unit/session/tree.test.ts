import { afterAll, describe, expect, test } from "bun:test";
import { SessionManager, type SessionTreeNode } from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, readJsonl, tempDir, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** u1 → a1 → u2 → a2, then a branch from a1: u3 → a3. */
function branched() {
	const m = SessionManager.inMemory("/p");
	const u1 = m.appendMessage(user("one"));
	const a1 = m.appendMessage(assistant("one!"));
	const u2 = m.appendMessage(user("two"));
	const a2 = m.appendMessage(assistant("two!"));
	m.branch(a1);
	const u3 = m.appendMessage(user("three"));
	const a3 = m.appendMessage(assistant("three!"));
	return { m, u1, a1, u2, a2, u3, a3 };
}

const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

function shape(nodes: SessionTreeNode[]): unknown[] {
	return nodes.map((n) => (n.children.length ? { [n.entry.id]: shape(n.children) } : n.entry.id));
}

describe("tree operations", () => {
	test("branch moves the leaf; appends become children of it", () => {
		const { m, u1, a1, u2, a2, u3, a3 } = branched();
		expect(m.getLeafId()).toBe(a3);
		expect(m.getEntry(u3)?.parentId).toBe(a1);
		expect(ids(m.getBranch())).toEqual([u1, a1, u3, a3]);
		expect(ids(m.getBranch(a2))).toEqual([u1, a1, u2, a2]);
		expect(ids(m.getChildren(a1))).toEqual([u2, u3]);
		expect(m.getChildren(a3)).toEqual([]);
		expect(m.getLeafEntry()?.id).toBe(a3);
		expect(ids(m.getEntries())).toEqual([u1, a1, u2, a2, u3, a3]);
	});

	test("getTree nests children in file order", () => {
		const { m, u1, a1, u2, a2, u3, a3 } = branched();
		expect(shape(m.getTree())).toEqual([{ [u1]: [{ [a1]: [{ [u2]: [a2] }, { [u3]: [a3] }] }] }]);
	});

	test("branch to an unknown entry throws and keeps the leaf", () => {
		const { m, a3 } = branched();
		expect(() => m.branch("nope1234")).toThrow(/not found/);
		expect(m.getLeafId()).toBe(a3);
	});

	test("resetLeaf makes the next entry a new root", () => {
		const { m, u1 } = branched();
		m.resetLeaf();
		expect(m.getLeafId()).toBeNull();
		expect(m.getLeafEntry()).toBeUndefined();
		const root2 = m.appendMessage(user("again"));
		expect(m.getEntry(root2)?.parentId).toBeNull();
		expect(m.getTree().map((n) => n.entry.id)).toEqual([u1, root2]);
		expect(m.buildSessionContext().messages).toHaveLength(1);
	});

	test("labels: set, replace, clear; shown in the tree; latest wins", () => {
		const { m, u1, a1 } = branched();
		m.appendLabelChange(u1, "start");
		m.appendLabelChange(a1, "first answer");
		m.appendLabelChange(a1, "renamed");
		expect(m.getLabel(u1)).toBe("start");
		expect(m.getLabel(a1)).toBe("renamed");
		const root = m.getTree()[0]!;
		expect(root.label).toBe("start");
		expect(root.labelTimestamp).toBeString();
		m.appendLabelChange(u1, undefined);
		expect(m.getLabel(u1)).toBeUndefined();
		expect(m.getTree()[0]!.label).toBeUndefined();
		expect(() => m.appendLabelChange("missing0", "x")).toThrow(/not found/);
	});

	test("session name: latest session_info wins, survives reopen", () => {
		const dir = tempDir();
		const m = SessionManager.create("/p", dir);
		expect(m.getSessionName()).toBeUndefined();
		m.appendSessionInfo("first");
		m.appendMessage(user("q"));
		m.appendMessage(assistant("a"));
		m.appendSessionInfo("  Refactor auth  ");
		expect(m.getSessionName()).toBe("Refactor auth");
		m.close();
		const again = SessionManager.open(m.getSessionFile()!);
		expect(again.getSessionName()).toBe("Refactor auth");
		again.close();
	});

	test("branchWithSummary moves the leaf and records the abandoned leaf as fromId", () => {
		const { m, a1, a2, a3 } = branched();
		m.branch(a2);
		const summaryId = m.branchWithSummary(a1, "tried approach A");
		const entry = m.getEntry(summaryId);
		expect(entry).toMatchObject({ type: "branch_summary", parentId: a1, fromId: a2, summary: "tried approach A" });
		expect(m.getLeafId()).toBe(summaryId);
		expect(ids(m.getChildren(a1))).toContain(summaryId);
		expect(m.getEntry(a3)).toBeDefined();
		const rootSummary = m.branchWithSummary(null, "from scratch");
		expect(m.getEntry(rootSummary)?.parentId).toBeNull();
	});

	test("createBranchedSession writes only the path, keeps labels, records parentSession", () => {
		const dir = tempDir();
		const m = SessionManager.create("/p", dir);
		const u1 = m.appendMessage(user("one"));
		const a1 = m.appendMessage(assistant("one!"));
		const u2 = m.appendMessage(user("two"));
		m.branch(a1);
		m.appendMessage(user("three"));
		m.appendLabelChange(u1, "keep me");
		m.appendLabelChange(u2, "other branch");
		const original = m.getSessionFile()!;
		const path = m.createBranchedSession(a1)!;
		expect(path).not.toBe(original);
		expect(m.getSessionFile()).toBe(path);
		const lines = readJsonl(path);
		expect(lines[0]!.parentSession).toBe(original);
		expect(lines[0]!.id).toBe(m.getSessionId());
		expect(lines.slice(1).map((l) => l.type)).toEqual(["message", "message", "label"]);
		expect(lines.slice(1, 3).map((l) => l.id)).toEqual([u1, a1]);
		expect(m.getLabel(u1)).toBe("keep me");
		expect(m.getEntry(u2)).toBeUndefined();
		m.close();
	});
});
