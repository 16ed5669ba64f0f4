/**
 * The `/tree` list model: layout order (active branch first), filters, search, folds, branch moves, shapes
 * (indent and connectors over what is visible), reading entries in slices, and the selector's frame.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { TreeModel, type TreeSource } from "../../src/modes/interactive/selectors/tree-model.ts";
import { TreeSelector } from "../../src/modes/interactive/selectors/tree-selector.ts";
import { loadChalk } from "../../src/resources/index.ts";
import { SessionManager } from "../../src/session/index.ts";
import { stripTerminalSequences } from "../../src/tui/index.ts";

const usage = {
	input: 1,
	output: 1,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 2,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const user = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });
const reply = (text: string, calls: { id: string; path: string }[] = []) => ({
	role: "assistant" as const,
	content: [
		...(text ? [{ type: "text" as const, text }] : []),
		...calls.map((c) => ({ type: "toolCall" as const, id: c.id, name: "read", arguments: { path: c.path } })),
	],
	api: "anthropic-messages",
	provider: "mock",
	model: "mock-1",
	usage,
	stopReason: (calls.length > 0 ? "toolUse" : "stop") as "toolUse" | "stop",
	timestamp: 1,
});
const result = (id: string) => ({
	role: "toolResult" as const,
	toolCallId: id,
	toolName: "read",
	content: [{ type: "text" as const, text: "file body" }],
	isError: false,
	timestamp: 1,
});

/** root: u1 → a1(tool) → r1 → a2 → { u2 → a3 (old branch), u3 → a4 (active) } */
function session(): { manager: SessionManager; ids: Record<string, string> } {
	const manager = SessionManager.inMemory("/tmp");
	const ids: Record<string, string> = {};
	ids.u1 = manager.appendMessage(user("first question"));
	ids.a1 = manager.appendMessage(reply("", [{ id: "c1", path: "src/a.ts" }]));
	ids.r1 = manager.appendMessage(result("c1"));
	ids.a2 = manager.appendMessage(reply("read it"));
	ids.model = manager.appendModelChange("mock", "mock-2");
	ids.u2 = manager.appendMessage(user("old branch"));
	ids.a3 = manager.appendMessage(reply("old answer"));
	manager.branch(ids.model);
	ids.u3 = manager.appendMessage(user("new branch"));
	ids.a4 = manager.appendMessage(reply("new answer"));
	return { manager, ids };
}

function source(manager: SessionManager): TreeSource {
	return {
		nodes: manager.getTreeNodes(),
		leafId: manager.getLeafId(),
		entry: (id) => manager.getEntry(id),
		entriesBetween: (s, e) => manager.getEntriesBetween(s, e),
		labels: manager.getLabels(),
		indexOf: (id) => manager.getTreeNodeIndex(id),
	};
}

const rowIds = (model: TreeModel) =>
	Array.from(model.rows.subarray(0, model.rowCount), (v): string | undefined => model.index.id(v));

describe("tree model", () => {
	test("default filter: active branch first, tool-only assistant and settings hidden, leaf selected", () => {
		const { manager, ids } = session();
		const model = new TreeModel(source(manager), 10);
		while (!model.complete) model.resolveSome(50);
		expect(rowIds(model)).toEqual([ids.u1, ids.r1, ids.a2, ids.u3, ids.a4, ids.u2, ids.a3]);
		expect(model.selectedEntryId()).toBe(ids.a4);
		// The branch point a2 has two visible children: both branches indent one level with connectors.
		const u3 = model.shape(3);
		const u2 = model.shape(5);
		expect([u3.indent, u3.showConnector, u3.isLast]).toEqual([1, true, false]);
		expect([u2.indent, u2.showConnector, u2.isLast]).toEqual([1, true, true]);
		expect(model.shape(0).indent).toBe(0);
	});

	test("filters: no-tools, user-only, labeled-only, all", () => {
		const { manager, ids } = session();
		const model = new TreeModel(source(manager), 10);
		model.setFilter("no-tools");
		expect(rowIds(model)).not.toContain(ids.r1);
		model.setFilter("user-only");
		expect(rowIds(model)).toEqual([ids.u1, ids.u3, ids.u2]);
		// The selection falls back to the nearest shown ancestor of the leaf.
		expect(model.selectedEntryId()).toBe(ids.u3);
		manager.appendLabelChange(ids.a2 as string, "checkpoint");
		model.setFilter("labeled-only");
		expect(rowIds(model)).toEqual([ids.a2]);
		model.setFilter("all");
		expect(rowIds(model)).toContain(ids.model);
		expect(rowIds(model)).not.toContain(ids.a1);
	});

	test("search matches label, role and text tokens", () => {
		const { manager, ids } = session();
		const model = new TreeModel(source(manager), 10);
		model.setSearch("old");
		while (!model.complete) model.resolveSome(50);
		expect(rowIds(model)).toEqual([ids.u2, ids.a3]);
		model.setSearch("user branch");
		expect(rowIds(model)).toEqual([ids.u3, ids.u2]);
		model.setSearch("");
		expect(model.rowCount).toBe(7);
	});

	test("fold the branch start, unfold, branch moves", () => {
		const { manager, ids } = session();
		const model = new TreeModel(source(manager), 10);
		model.select(3); // u3: first entry of a branch
		expect(model.isFoldable(3)).toBe(true);
		model.foldOrUp();
		expect(rowIds(model)).toEqual([ids.u1, ids.r1, ids.a2, ids.u3, ids.u2, ids.a3]);
		expect(model.isFolded(3)).toBe(true);
		model.unfoldOrDown();
		expect(model.rowCount).toBe(7);
		// Not foldable (a4 has no children): foldOrUp goes to the branch start.
		model.select(4);
		model.foldOrUp();
		expect(model.selectedEntryId()).toBe(ids.u3);
		// From the root, unfoldOrDown goes to the first child of the next branch point.
		model.select(0);
		model.unfoldOrDown();
		expect(model.selectedEntryId()).toBe(ids.u3);
	});

	test("a long session opens without reading its entries, then fills in", () => {
		const manager = SessionManager.inMemory("/tmp");
		for (let i = 0; i < 2000; i++) {
			manager.appendMessage(user(`q${i}`));
			manager.appendMessage(reply("", [{ id: `c${i}`, path: "x" }]));
			manager.appendMessage(result(`c${i}`));
			manager.appendMessage(reply(`a${i}`));
		}
		const model = new TreeModel(source(manager), 10);
		expect(model.complete).toBe(false);
		expect(model.selected).toBe(model.rowCount - 1);
		while (!model.complete) model.resolveSome(50);
		expect(model.complete).toBe(true);
		expect(model.rowCount).toBe(6000);
		// Opening again with nothing appended and the same leaf reuses the layout and what was read.
		const again = new TreeModel(source(manager), 10);
		expect(again.index).toBe(model.index);
		expect(again.complete).toBe(true);
		expect(again.rowCount).toBe(6000);
		// An append (or another leaf) lays out afresh, and the new entry is listed.
		manager.appendMessage(user("one more"));
		const grown = new TreeModel(source(manager), 10);
		expect(grown.index).not.toBe(model.index);
		while (!grown.complete) grown.resolveSome(50);
		expect(grown.rowCount).toBe(6001);
		expect(grown.selectedEntryId()).toBe(manager.getLeafId() ?? "");
		manager.branch(rowIds(grown)[0] as string);
		expect(new TreeModel(source(manager), 10).index).not.toBe(grown.index);
	});
});

describe("tree selector", () => {
	beforeAll(() => loadChalk());
	test("frame: title, search line, rows with markers and the count", () => {
		const { manager, ids } = session();
		manager.appendLabelChange(ids.u1 as string, "start");
		const selector = new TreeSelector({
			source: source(manager),
			terminalRows: 30,
			onSelect() {},
			onCancel() {},
			onLabel() {},
			onCopy() {},
			requestRender() {},
		});
		while (!selector.model.complete) selector.model.resolveSome(50);
		const plain = selector.render(80).map((line) => stripTerminalSequences(line));
		selector.dispose();
		expect(plain.some((l) => l.includes("Session Tree"))).toBe(true);
		expect(plain.some((l) => l.includes("Type to search:"))).toBe(true);
		expect(plain.some((l) => l.includes("• [start] user: first question"))).toBe(true);
		expect(plain.some((l) => l.includes("[read: src/a.ts]"))).toBe(true);
		expect(plain.some((l) => l.startsWith("› ") && l.includes("assistant: new answer"))).toBe(true);
		expect(plain.some((l) => l.includes("├⊟ • user: new branch"))).toBe(true);
		expect(plain.some((l) => l.includes("└⊟ user: old branch"))).toBe(true);
		expect(plain.some((l) => l.includes("(5/7)"))).toBe(true);
	});
});
