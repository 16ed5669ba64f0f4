/**
 * Drawing the session tree: the rows in the window around the selection (prefix of gutters and connectors, fold
 * marker, active-path marker, label, label time, entry text; the selected row on the selection background and in
 * bold), shifted left when the selected row's text would start too far right, and the key help wrapped at `·`.
 */
import {
	formatKeyText,
	getKeybindings,
	sliceByColumn,
	truncateToWidth,
	visibleWidth,
	wrapTextWithAnsi,
} from "../../../tui/index.ts";
import { theme } from "../components/style.ts";
import type { TreeModel } from "./tree-model.ts";
import { labelTime, rowText, type ToolCallInfo } from "./tree-text.ts";

const GUTTER = 2;

interface Row {
	gutter: string;
	body: string;
	anchor: number;
	width: number;
	selected: boolean;
}

/** The call a tool result answers, from the assistant message above it. */
function toolCallFor(model: TreeModel, v: number): (id: string) => ToolCallInfo | undefined {
	return (callId) => {
		const idx = model.index;
		for (let p = idx.parent[v] as number, steps = 0; p >= 0 && steps < 64; p = idx.parent[p] as number, steps++) {
			if (idx.role(p) !== "assistant") continue;
			const entry = model.entryOf(p);
			const content = entry?.type === "message" ? (entry.message as { content?: unknown }).content : undefined;
			if (!Array.isArray(content)) continue;
			for (const block of content as { type?: string; id?: string; name?: string; arguments?: unknown }[]) {
				if (block?.type === "toolCall" && block.id === callId)
					return { name: String(block.name), arguments: (block.arguments ?? {}) as Record<string, unknown> };
			}
		}
		return undefined;
	};
}

export function renderTreeRows(model: TreeModel, width: number, showLabelTimes: boolean): string[] {
	const t = theme();
	const size = model.windowSize;
	const start = Math.max(0, Math.min(model.selected - Math.floor(size / 2), model.rowCount - size));
	const end = Math.min(start + size, model.rowCount);
	const rows: Row[] = [];
	for (let r = start; r < end; r++) {
		const v = model.rows[r] as number;
		const entry = model.entryAt(r);
		const selected = r === model.selected;
		const shape = model.shape(r);
		const display = model.multipleRoots ? Math.max(0, shape.indent - 1) : shape.indent;
		const connector = shape.showConnector && !shape.isVirtualRootChild;
		const connectorAt = connector ? display - 1 : -1;
		const folded = model.folded.has(v);
		let prefix = "";
		for (let i = 0; i < display * 3; i++) {
			const level = Math.floor(i / 3);
			const col = i % 3;
			const gutter = shape.gutters.find((g) => g.position === level);
			if (gutter) prefix += col === 0 && gutter.show ? "│" : " ";
			else if (connector && level === connectorAt) {
				if (col === 0) prefix += shape.isLast ? "└" : "├";
				else if (col === 1) prefix += folded ? "⊞" : model.isFoldable(r) ? "⊟" : "─";
				else prefix += " ";
			} else prefix += " ";
		}
		const foldMarker = folded && !connector ? t.fg("accent", "⊞ ") : "";
		const pathMarker = model.index.active[v] ? t.fg("accent", "• ") : "";
		const info = model.label(v);
		const label = info ? t.fg("warning", `[${info.label}] `) : "";
		const time = showLabelTimes && info ? t.fg("muted", `${labelTime(info.timestamp)} `) : "";
		let content = entry ? rowText(entry, toolCallFor(model, v)) : "";
		if (selected) content = t.bold(content);
		const head = t.fg("dim", prefix) + foldMarker + pathMarker;
		let gutter = selected ? t.fg("accent", "› ") : "  ";
		let body = head + label + time + content;
		if (selected) {
			gutter = t.bg("selectedBg", gutter);
			body = t.bg("selectedBg", body);
		}
		rows.push({ gutter, body, anchor: visibleWidth(head), width: visibleWidth(body), selected });
	}
	return viewport(rows, width);
}

/** Rows clipped to `width`; the bodies shift left when the selected row's text starts too far right. */
function viewport(rows: Row[], width: number): string[] {
	const view = Math.max(0, width - GUTTER);
	const widest = rows.reduce((max, row) => Math.max(max, row.width), 0);
	const maxScroll = Math.max(0, widest - view);
	const selected = rows.find((row) => row.selected);
	let scroll = 0;
	if (selected && maxScroll > 0) {
		const keep = Math.min(20, Math.max(4, Math.floor(view / 3)));
		if (selected.anchor > view - keep) {
			const context = Math.min(12, Math.max(2, Math.floor(view / 4)));
			scroll = Math.min(maxScroll, selected.anchor - context);
		}
	}
	return rows.map((row) => {
		const line =
			scroll > 0 ? `${row.gutter}${sliceByColumn(row.body, scroll, view, true)}\x1b[0m` : row.gutter + row.body;
		return truncateToWidth(line, width, "");
	});
}

const HELP: { keys: string[]; label: string; labelFirst?: boolean }[] = [
	{ keys: ["tui.select.up", "tui.select.down"], label: "move" },
	{ keys: ["tui.editor.cursorLeft", "tui.editor.cursorRight"], label: "page" },
	{ keys: ["app.tree.foldOrUp", "app.tree.unfoldOrDown"], label: "branch" },
	{ keys: ["app.message.copy"], label: "copy" },
	{ keys: ["app.tree.editLabel"], label: "label" },
	{ keys: ["app.tree.toggleLabelTimestamp"], label: "label time" },
	{
		keys: [
			"app.tree.filter.default",
			"app.tree.filter.noTools",
			"app.tree.filter.userOnly",
			"app.tree.filter.labeledOnly",
			"app.tree.filter.all",
		],
		label: "filters",
		labelFirst: true,
	},
	{ keys: ["app.tree.filter.cycleForward", "app.tree.filter.cycleBackward"], label: "cycle", labelFirst: true },
];

/** `ctrl+d/t/u`: keys sharing a modifier prefix written once. */
function compact(keys: string[]): string {
	if (keys.length === 1) return keys[0] as string;
	const parts = keys.map((key) => {
		const at = key.lastIndexOf("+");
		return at === -1 ? { prefix: "", suffix: key } : { prefix: key.slice(0, at + 1), suffix: key.slice(at + 1) };
	});
	const prefix = parts[0]?.prefix ?? "";
	return prefix && parts.every((part) => part.prefix === prefix)
		? `${prefix}${parts.map((part) => part.suffix).join("/")}`
		: keys.join("/");
}

function helpKeys(actions: string[]): string {
	const keys: string[] = [];
	for (const action of actions) {
		const key = getKeybindings().getKeys(action as never)[0];
		if (key !== undefined) keys.push(key);
	}
	if (keys.length === 0) return "";
	return formatKeyText(compact(keys))
		.replace(/\bpageUp\b/g, "pgup")
		.replace(/\bpageDown\b/g, "pgdn")
		.replace(/\bup\b/g, "↑")
		.replace(/\bdown\b/g, "↓")
		.replace(/\bleft\b/g, "←")
		.replace(/\bright\b/g, "→");
}

/** The key help, items joined by ` · ` and wrapped to `width`, in the muted colour. */
export function treeHelpLines(width: number): string[] {
	const items = HELP.map(({ keys, label, labelFirst }) => {
		const text = helpKeys(keys);
		if (!text) return label;
		return labelFirst ? `${label} ${text}` : `${text} ${label}`;
	});
	const available = Math.max(1, width);
	const indent = "  ";
	const lines: string[] = [];
	let line = "";
	for (const item of items) {
		const fresh = visibleWidth(`${indent}${item}`) <= available ? `${indent}${item}` : item;
		const candidate = line ? `${line} · ${item}` : fresh;
		if (!line || visibleWidth(candidate) <= available) {
			line = candidate;
			continue;
		}
		lines.push(...wrapTextWithAnsi(line.trimEnd(), available));
		line = fresh;
	}
	if (line) lines.push(...wrapTextWithAnsi(line.trimEnd(), available));
	return lines.map((l) => theme().fg("muted", l));
}
