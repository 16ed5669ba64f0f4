/**
 * The provider list of `/login` and `/logout`: a title, a search line, eight rows around the highlighted provider
 * (`→ ` and accent on it) with its credential status (`• unconfigured`, `✓ configured`, `✓ env: OPENAI_API_KEY`,
 * `✓ models_json_key` …) and a `(n/total)` line when they do not all fit. Up/Down move, Enter picks, Escape
 * cancels, other keys edit the search.
 */
import { Container, fuzzyFilter, Input, Spacer, TruncatedText } from "../../../tui/index.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { matches, theme, visibleWindow } from "./model-common.ts";

export interface ProviderEntry {
	id: string;
	name: string;
	/** Where its credentials come from now, or undefined when it has none. */
	status?: { source?: string };
}

export interface ProviderPickerOptions {
	mode: "login" | "logout";
	providers: readonly ProviderEntry[];
	initialSearch?: string;
	onSelect(provider: ProviderEntry): void;
	onCancel(): void;
}

const MAX_VISIBLE = 8;

/** The status after a provider's name. */
export function providerStatus(entry: ProviderEntry): string {
	const t = theme();
	if (!entry.status) return t.fg("muted", " • unconfigured");
	const source = entry.status.source;
	if (!source || source === "stored credential") return t.fg("success", " ✓ configured");
	const env = /^[A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*$/.test(source);
	return t.fg("success", ` ✓ ${env ? `env: ${source}` : source}`);
}

export class ProviderPicker extends Container {
	private readonly search = new Input();
	private readonly list = new Container();
	private filtered: ProviderEntry[];
	private selected = 0;
	private _focused = false;

	constructor(private readonly o: ProviderPickerOptions) {
		super();
		this.filtered = [...o.providers];
		const t = theme();
		this.addChild(dialogBorder());
		this.addChild(new Spacer(1));
		const title = o.mode === "login" ? "Select provider to configure:" : "Select provider to logout:";
		this.addChild(new TruncatedText(t.fg("accent", t.bold(title)), 1, 0));
		this.addChild(new Spacer(1));
		if (o.initialSearch) this.search.setValue(o.initialSearch);
		this.search.onSubmit = () => this.pick();
		this.addChild(this.search);
		this.addChild(new Spacer(1));
		this.addChild(this.list);
		this.addChild(new Spacer(1));
		this.addChild(dialogBorder());
		this.applyFilter(o.initialSearch ?? "");
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.search.focused = value;
	}

	private applyFilter(query: string): void {
		this.filtered = query
			? fuzzyFilter([...this.o.providers], query, (p) => `${p.name} ${p.id} api_key`)
			: [...this.o.providers];
		this.selected = Math.max(0, Math.min(this.selected, this.filtered.length - 1));
		this.renderList();
	}

	private renderList(): void {
		const t = theme();
		this.list.clear();
		const total = this.filtered.length;
		const { start, end } = visibleWindow(this.selected, total, MAX_VISIBLE);
		for (let i = start; i < end; i++) {
			const entry = this.filtered[i] as ProviderEntry;
			const line =
				i === this.selected ? t.fg("accent", "→ ") + t.fg("accent", entry.name) : `  ${t.fg("text", entry.name)}`;
			this.list.addChild(new TruncatedText(line + providerStatus(entry), 1, 0));
		}
		if (start > 0 || end < total) {
			this.list.addChild(new TruncatedText(t.fg("muted", `  (${this.selected + 1}/${total})`), 1, 0));
		}
		if (total === 0) {
			const empty =
				this.o.providers.length > 0
					? "No matching providers"
					: this.o.mode === "login"
						? "No providers available"
						: "No providers logged in. Use /login first.";
			this.list.addChild(new TruncatedText(t.fg("muted", `  ${empty}`), 1, 0));
		}
	}

	private pick(): void {
		const entry = this.filtered[this.selected];
		if (entry) this.o.onSelect(entry);
	}

	handleInput(data: string): void {
		if (matches(data, "tui.select.up")) {
			if (this.filtered.length === 0) return;
			this.selected = Math.max(0, this.selected - 1);
			this.renderList();
		} else if (matches(data, "tui.select.down")) {
			if (this.filtered.length === 0) return;
			this.selected = Math.min(this.filtered.length - 1, this.selected + 1);
			this.renderList();
		} else if (matches(data, "tui.select.confirm")) {
			this.pick();
		} else if (matches(data, "tui.select.cancel")) {
			this.o.onCancel();
		} else {
			this.search.handleInput(data);
			this.applyFilter(this.search.getValue());
		}
	}
}
