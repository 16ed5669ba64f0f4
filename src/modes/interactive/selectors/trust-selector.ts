/**
 * `/trust`: the project's trust choices in the editor's place, as pi 0.87.1 lays them out — a rule, "Project
 * trust" and the folder, the saved decision (and where it came from) and this session's state, the choices (Trust,
 * Trust parent folder when there is one, Do not trust; `→ ` on the highlighted one, `✓ ` on the saved one), the key
 * hints, a rule. Up/Down or k/j move, Enter saves, Escape cancels.
 */
import { dirname } from "node:path";
import type { ProjectTrustStoreEntry, ProjectTrustUpdate } from "../../../resources/index.ts";
import { Container, getKeybindings, Spacer, Text } from "../../../tui/index.ts";
import { keyHint, rawKeyHint } from "../chrome/keys.ts";
import { dialogBorder, theme } from "../dialogs/common.ts";

export interface TrustChoice {
	label: string;
	trusted: boolean;
	/** What the choice writes to trust.json (null forgets a decision). */
	updates: ProjectTrustUpdate[];
	/** The folder whose saved decision this choice is. */
	savedPath: string;
}

/**
 * The choices for `dir` (a canonical path): trust it, trust its parent (dropping its own entry), distrust it; with
 * `sessionOnly` (the start-up question) also trusting or distrusting for this run only, which saves nothing.
 */
export function trustChoices(dir: string, options: { sessionOnly?: boolean } = {}): TrustChoice[] {
	const choices: TrustChoice[] = [
		{ label: "Trust", trusted: true, updates: [{ path: dir, decision: true }], savedPath: dir },
	];
	const parent = dirname(dir);
	if (parent !== dir) {
		choices.push({
			label: `Trust parent folder (${parent})`,
			trusted: true,
			updates: [
				{ path: parent, decision: true },
				{ path: dir, decision: null },
			],
			savedPath: parent,
		});
	}
	if (options.sessionOnly)
		choices.push({ label: "Trust (this session only)", trusted: true, updates: [], savedPath: dir });
	choices.push({ label: "Do not trust", trusted: false, updates: [{ path: dir, decision: false }], savedPath: dir });
	if (options.sessionOnly) {
		choices.push({ label: "Do not trust (this session only)", trusted: false, updates: [], savedPath: dir });
	}
	return choices;
}

function describeSaved(dir: string, saved: ProjectTrustStoreEntry | null): string {
	if (!saved) return "none";
	const label = saved.decision ? "trusted" : "untrusted";
	return saved.path === dir ? `${label} (${saved.path})` : `${label} (inherited from ${saved.path})`;
}

export interface TrustSelectorOptions {
	/** The project folder, canonical. */
	dir: string;
	saved: ProjectTrustStoreEntry | null;
	sessionTrusted: boolean;
	onSelect(choice: TrustChoice): void;
	onCancel(): void;
}

export class TrustSelector extends Container {
	private readonly choices: TrustChoice[];
	private selected: number;
	private readonly list = new Container();

	constructor(private readonly options: TrustSelectorOptions) {
		super();
		this.choices = trustChoices(options.dir);
		this.selected = Math.max(
			0,
			this.choices.findIndex((choice) => this.isSaved(choice)),
		);
		const t = theme();
		this.addChild(dialogBorder());
		this.addChild(new Spacer(1));
		this.addChild(new Text(t.fg("accent", t.bold("Project trust")), 1, 0));
		this.addChild(new Text(t.fg("muted", options.dir), 1, 0));
		this.addChild(new Spacer(1));
		this.addChild(new Text(t.fg("muted", `Saved decision: ${describeSaved(options.dir, options.saved)}`), 1, 0));
		const session = options.sessionTrusted ? "trusted" : "untrusted";
		this.addChild(new Text(t.fg("muted", `Current session: ${session}`), 1, 0));
		this.addChild(new Spacer(1));
		this.addChild(this.list);
		this.addChild(new Spacer(1));
		const hints = [
			rawKeyHint("↑↓", "navigate"),
			keyHint("tui.select.confirm", "save"),
			keyHint("tui.select.cancel", "cancel"),
		];
		this.addChild(new Text(hints.join("  "), 1, 0));
		this.addChild(new Spacer(1));
		this.addChild(dialogBorder());
		this.drawList();
	}

	private isSaved(choice: TrustChoice): boolean {
		const saved = this.options.saved;
		return saved !== null && saved.decision === choice.trusted && saved.path === choice.savedPath;
	}

	private drawList(): void {
		const t = theme();
		this.list.clear();
		this.choices.forEach((choice, index) => {
			const highlighted = index === this.selected;
			const pointer = highlighted ? t.fg("accent", "→ ") : "  ";
			const mark = this.isSaved(choice) ? t.fg("accent", "✓ ") : "  ";
			const label = highlighted ? t.fg("accent", choice.label) : t.fg("text", choice.label);
			this.list.addChild(new Text(`${pointer}${mark}${label}`, 1, 0));
		});
	}

	handleInput(data: string): void {
		const keys = getKeybindings();
		if (keys.matches(data, "tui.select.up") || data === "k") {
			this.selected = Math.max(0, this.selected - 1);
			this.drawList();
		} else if (keys.matches(data, "tui.select.down") || data === "j") {
			this.selected = Math.min(this.choices.length - 1, this.selected + 1);
			this.drawList();
		} else if (keys.matches(data, "tui.select.confirm") || data === "\n") {
			const choice = this.choices[this.selected];
			if (choice) this.options.onSelect(choice);
		} else if (keys.matches(data, "tui.select.cancel")) {
			this.options.onCancel();
		}
	}
}
