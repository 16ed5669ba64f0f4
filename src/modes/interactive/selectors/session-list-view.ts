/**
 * Drawing the `/resume` picker: the header (title, scope, name filter, sort, key hints or a status line) and the
 * rows (tree prefix, name or first message, path/cwd, message count and age), as pi 0.87.1 lays them out. Damaged
 * files show `[damaged]` and the reason in the error colour.
 */
import { truncateToWidth, visibleWidth } from "../../../tui/index.ts";
import { homeDir } from "../../../util/index.ts";
import { appKeyText, keyHint } from "../chrome/keys.ts";
import { theme } from "../components/style.ts";
import type { ListedSession, NameFilter, SortMode } from "./session-list-model.ts";

export type Scope = "current" | "all";

export interface HeaderState {
	scope: Scope;
	sort: SortMode;
	names: NameFilter;
	/** Reading the folder: files read so far of all (total -1: not listed yet). */
	loading?: { loaded: number; total: number };
	showPath: boolean;
	confirmingDelete: boolean;
	status?: { type: "info" | "error"; message: string };
	showRenameHint: boolean;
}

function shortenPath(path: string): string {
	const home = homeDir();
	return home && path.startsWith(home) ? `~${path.slice(home.length)}` : path;
}

export function formatAge(modified: number, now = Date.now()): string {
	const mins = Math.floor((now - modified) / 60000);
	const hours = Math.floor(mins / 60);
	const days = Math.floor(hours / 24);
	if (mins < 1) return "now";
	if (mins < 60) return `${mins}m`;
	if (hours < 24) return `${hours}h`;
	if (days < 7) return `${days}d`;
	if (days < 30) return `${Math.floor(days / 7)}w`;
	if (days < 365) return `${Math.floor(days / 30)}mo`;
	return `${Math.floor(days / 365)}y`;
}

export function renderHeader(s: HeaderState, width: number): string[] {
	const t = theme();
	const title = t.bold(s.scope === "current" ? "Resume Session (Current Folder)" : "Resume Session (All)");
	const sortLabel = s.sort === "threaded" ? "Threaded" : s.sort === "recent" ? "Recent" : "Fuzzy";
	let scopeText: string;
	if (s.loading) {
		const progress = s.loading.total < 0 ? "..." : `${s.loading.loaded}/${s.loading.total}`;
		scopeText = `${t.fg("muted", "○ Current Folder | ")}${t.fg("accent", `Loading ${progress}`)}`;
	} else if (s.scope === "current") scopeText = `${t.fg("accent", "◉ Current Folder")}${t.fg("muted", " | ○ All")}`;
	else scopeText = `${t.fg("muted", "○ Current Folder | ")}${t.fg("accent", "◉ All")}`;
	const right = truncateToWidth(
		`${scopeText}  ${t.fg("muted", "Name: ")}${t.fg("accent", s.names === "all" ? "All" : "Named")}  ${t.fg("muted", "Sort: ")}${t.fg("accent", sortLabel)}`,
		width,
		"",
	);
	const left = truncateToWidth(title, Math.max(0, width - visibleWidth(right) - 1), "");
	const first = left + " ".repeat(Math.max(0, width - visibleWidth(left) - visibleWidth(right))) + right;
	if (s.confirmingDelete) {
		const hint = `Delete session? ${keyHint("tui.select.confirm", "confirm")} · ${keyHint("tui.select.cancel", "cancel")}`;
		return [first, t.fg("error", truncateToWidth(hint, width, "…")), ""];
	}
	if (s.status) {
		const color = s.status.type === "error" ? "error" : "accent";
		return [first, t.fg(color, truncateToWidth(s.status.message, width, "…")), ""];
	}
	const sep = t.fg("muted", " · ");
	const hint1 = keyHint("tui.input.tab", "scope") + sep + t.fg("muted", 're:<pattern> regex · "phrase" exact');
	const parts = [
		keyHint("app.session.toggleSort", "sort"),
		keyHint("app.session.toggleNamedFilter", "named"),
		keyHint("app.session.delete", "delete"),
		keyHint("app.session.togglePath", `path ${s.showPath ? "(on)" : "(off)"}`),
	];
	if (s.showRenameHint) parts.push(keyHint("app.session.rename", "rename"));
	return [first, truncateToWidth(hint1, width, "…"), truncateToWidth(parts.join(sep), width, "…")];
}

export interface RowsState {
	items: readonly ListedSession[];
	selected: number;
	maxVisible: number;
	showCwd: boolean;
	showPath: boolean;
	names: NameFilter;
	confirmingPath?: string;
	currentPath?: string;
}

function treePrefix(item: ListedSession): string {
	if (item.depth === 0) return "";
	return item.ancestorContinues.map((c) => (c ? "│  " : "   ")).join("") + (item.isLast ? "└─ " : "├─ ");
}

export function renderRows(s: RowsState, width: number): string[] {
	const t = theme();
	if (s.items.length === 0) {
		const key = appKeyText("app.session.toggleNamedFilter");
		let empty: string;
		if (s.names === "named")
			empty = s.showCwd
				? `  No named sessions found. Press ${key} to show all.`
				: `  No named sessions in current folder. Press ${key} to show all, or Tab to view all.`;
		else empty = s.showCwd ? "  No sessions found" : "  No sessions in current folder. Press Tab to view all.";
		return [t.fg("muted", truncateToWidth(empty, width, "…"))];
	}
	const lines: string[] = [];
	const start = Math.max(0, Math.min(s.selected - Math.floor(s.maxVisible / 2), s.items.length - s.maxVisible));
	const end = Math.min(start + s.maxVisible, s.items.length);
	const now = Date.now();
	for (let i = start; i < end; i++) {
		const item = s.items[i] as ListedSession;
		const row = item.row;
		const selected = i === s.selected;
		const confirming = row.path === s.confirmingPath;
		const prefix = treePrefix(item);
		const label = row.damaged
			? `[damaged] ${row.path.slice(row.path.lastIndexOf("/") + 1)}: ${row.damaged}`
			: (row.name ?? row.firstMessage);
		// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters in a title would break the row
		const text = label.replace(/[\x00-\x1f\x7f]/g, " ").trim();
		let right = `${row.messageCount} ${formatAge(row.modified, now)}`;
		if (s.showCwd && row.cwd) right = `${shortenPath(row.cwd)} ${right}`;
		if (s.showPath) right = `${shortenPath(row.path)} ${right}`;
		const cursor = selected ? t.fg("accent", "› ") : "  ";
		const room = width - 2 - visibleWidth(prefix) - (visibleWidth(right) + 2);
		const shown = truncateToWidth(text, Math.max(10, room), "…");
		const color =
			confirming || row.damaged ? "error" : row.path === s.currentPath ? "accent" : row.name ? "warning" : null;
		let styled = color ? t.fg(color, shown) : shown;
		if (selected) styled = t.bold(styled);
		const leftPart = cursor + t.fg("dim", prefix) + styled;
		const gap = Math.max(1, width - visibleWidth(leftPart) - visibleWidth(right));
		let line = leftPart + " ".repeat(gap) + t.fg(confirming ? "error" : "dim", right);
		if (selected) line = t.bg("selectedBg", line);
		lines.push(truncateToWidth(line, width));
	}
	if (start > 0 || end < s.items.length)
		lines.push(t.fg("muted", truncateToWidth(`  (${s.selected + 1}/${s.items.length})`, width, "")));
	return lines;
}
