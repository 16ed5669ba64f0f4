/**
 * `pi config`'s screen, laid out as pi 0.87.1's: a rule, the title ("Global Resources" / "Project Local
 * Resources") with key hints, the settings file it writes, then each package of that scope (`source (scope)`) with
 * its resources under "Extensions", "Skills", "Prompts", "Themes", one `[x]`/`[ ]` row each (the cursor `> ` only on
 * rows), a rule. Up/Down move, Space or Enter turns the row on or off (the caller writes it and hands back the
 * packages as they now read), Tab switches scope (when the project is trusted), Escape closes.
 */

import type { SettingsPackageScope } from "../../../packages/index.ts";
import { getKeybindings, matchesKey, truncateToWidth, visibleWidth } from "../../../tui/index.ts";
import type { ConfigPackage, ConfigResource } from "../../package-config/model.ts";
import { keyHint, rawKeyHint } from "../chrome/keys.ts";
import { theme } from "../components/style.ts";

const LABELS = { extensions: "Extensions", skills: "Skills", prompts: "Prompts", themes: "Themes" } as const;

type Row =
	| { type: "group"; text: string; dim: boolean }
	| { type: "subgroup"; text: string }
	| { type: "note"; text: string }
	| { type: "item"; pkg: ConfigPackage; resource: ConfigResource };

export interface PackageConfigViewOptions {
	scope: SettingsPackageScope;
	projectAvailable: boolean;
	packages(scope: SettingsPackageScope): ConfigPackage[];
	/** Writes what Space does to a row; resolves to the scope's packages as they now read. */
	toggle(pkg: ConfigPackage, resource: ConfigResource): Promise<ConfigPackage[]>;
	onClose(): void;
	requestRender(): void;
	/** Rows of the terminal (for the visible window). */
	rows?: number;
}

export class PackageConfigView {
	private scope: SettingsPackageScope;
	private list: ConfigPackage[];
	private rows: Row[] = [];
	private selected = 0;
	private error: string | undefined;
	private busy = false;

	constructor(private readonly options: PackageConfigViewOptions) {
		this.scope = options.scope;
		this.list = options.packages(this.scope);
		this.rebuild();
	}

	private rebuild(keep?: ConfigResource): void {
		this.rows = [];
		for (const pkg of this.list) {
			const label = `${pkg.source} (${pkg.scope})${pkg.inherited ? " · inherited global" : ""}`;
			this.rows.push({ type: "group", text: label, dim: pkg.inherited === true });
			if (pkg.note) this.rows.push({ type: "note", text: pkg.note });
			for (const type of ["extensions", "skills", "prompts", "themes"] as const) {
				const items = pkg.resources.filter((r) => r.type === type);
				if (items.length === 0) continue;
				this.rows.push({ type: "subgroup", text: LABELS[type] });
				for (const resource of items) this.rows.push({ type: "item", pkg, resource });
			}
		}
		const same = keep
			? this.rows.findIndex((r) => r.type === "item" && r.resource.path === keep.path && r.resource.type === keep.type)
			: -1;
		this.selected =
			same >= 0
				? same
				: Math.max(
						0,
						this.rows.findIndex((r) => r.type === "item"),
					);
	}

	invalidate(): void {}

	private header(width: number): string[] {
		const t = theme();
		const title = t.bold(this.scope === "project" ? "Project Local Resources" : "Global Resources");
		const sep = t.fg("muted", " · ");
		const action = this.scope === "project" ? "cycle inherit/+/-" : "toggle";
		const hint =
			(this.options.projectAvailable ? keyHint("tui.input.tab", "switch mode") + sep : "") +
			rawKeyHint("space", action) +
			sep +
			rawKeyHint("esc", "close");
		const gap = Math.max(1, width - visibleWidth(title) - visibleWidth(hint));
		const file =
			this.scope === "project"
				? ".pi/settings.json · inherited global resources are dimmed"
				: "~/.pi/agent/settings.json";
		return [
			truncateToWidth(`${title}${" ".repeat(gap)}${hint}`, width, ""),
			truncateToWidth(t.fg("muted", file), width, ""),
		];
	}

	render(width: number): string[] {
		const t = theme();
		const rule = t.fg("border", "─".repeat(Math.max(1, width)));
		const lines = ["", rule, "", ...this.header(width), ""];
		if (this.rows.length === 0) {
			lines.push(t.fg("muted", `  No packages in ${this.scope === "project" ? "project" : "user"} settings`));
		}
		const max = Math.max(5, (this.options.rows ?? 24) - 8);
		const start = Math.max(0, Math.min(this.selected - Math.floor(max / 2), this.rows.length - max));
		const end = Math.min(start + max, this.rows.length);
		for (let i = start; i < end; i++) lines.push(this.renderRow(this.rows[i] as Row, i === this.selected, width));
		const items = this.rows.filter((r) => r.type === "item").length;
		if (start > 0 || end < this.rows.length) {
			const at = this.rows.slice(0, this.selected + 1).filter((r) => r.type === "item").length;
			lines.push(t.fg("dim", `  (${at}/${items})`));
		}
		if (this.error) lines.push(truncateToWidth(t.fg("error", `  ${this.error}`), width, "..."));
		lines.push("", rule);
		return lines;
	}

	private renderRow(row: Row, selected: boolean, width: number): string {
		const t = theme();
		if (row.type === "group")
			return truncateToWidth(`  ${t.fg(row.dim ? "dim" : "accent", t.bold(row.text))}`, width, "");
		if (row.type === "subgroup") return truncateToWidth(`    ${t.fg("muted", row.text)}`, width, "");
		if (row.type === "note") return truncateToWidth(`    ${t.fg("dim", row.text)}`, width, "...");
		const { resource } = row;
		const override = row.pkg.inherited ? (resource.override ?? "inherit") : undefined;
		const box =
			override === "load"
				? t.fg("success", "[+]")
				: override === "unload"
					? t.fg("warning", "[-]")
					: override === "inherit"
						? t.fg("dim", resource.enabled ? "[x]" : "[ ]")
						: resource.enabled
							? t.fg("success", "[x]")
							: t.fg("dim", "[ ]");
		const dimmed = override === "inherit";
		const text = selected && !dimmed ? t.bold(resource.name) : resource.name;
		const suffix =
			override === "load"
				? t.fg("muted", "  project load")
				: override === "unload"
					? t.fg("muted", "  project unload")
					: override === "inherit"
						? t.fg("dim", "  inherited global")
						: "";
		const name = dimmed ? t.fg("dim", text) : text;
		return truncateToWidth(`${selected ? "> " : "  "}    ${box} ${name}${suffix}`, width, "...");
	}

	private move(direction: 1 | -1): void {
		for (let i = this.selected + direction; i >= 0 && i < this.rows.length; i += direction) {
			if (this.rows[i]?.type === "item") {
				this.selected = i;
				return;
			}
		}
	}

	handleInput(data: string): void {
		const kb = getKeybindings();
		if (kb.matches(data, "tui.select.up")) this.move(-1);
		else if (kb.matches(data, "tui.select.down")) this.move(1);
		else if (kb.matches(data, "tui.select.cancel") || matchesKey(data, "ctrl+c")) this.options.onClose();
		else if (kb.matches(data, "tui.input.tab") && this.options.projectAvailable) {
			this.scope = this.scope === "user" ? "project" : "user";
			this.list = this.options.packages(this.scope);
			this.error = undefined;
			this.rebuild();
		} else if (data === " " || kb.matches(data, "tui.select.confirm")) this.toggleSelected();
		else return;
		this.options.requestRender();
	}

	private toggleSelected(): void {
		const row = this.rows[this.selected];
		if (row?.type !== "item" || this.busy) return;
		this.busy = true;
		const scope = this.scope;
		this.options
			.toggle(row.pkg, row.resource)
			.then(
				(list) => {
					if (this.scope !== scope) return;
					this.list = list;
					this.error = undefined;
					this.rebuild(row.resource);
				},
				(error: unknown) => {
					this.error = error instanceof Error ? error.message : String(error);
				},
			)
			.finally(() => {
				this.busy = false;
				this.options.requestRender();
			});
	}
}
