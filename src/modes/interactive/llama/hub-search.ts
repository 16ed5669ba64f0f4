/**
 * "Download model…": a search field over Hugging Face's GGUF repositories. Typing searches after a 500 ms pause
 * (2 characters at least; answers are cached per query for the dialog's life), the hits are listed with their
 * downloads (10 at a time, the selected one kept in view) and narrowed by fuzzy match while a new search runs.
 * Enter takes the highlighted hit, or the typed text itself when it is an exact `owner/repository[:quant]`;
 * Escape goes back.
 */

import type { HubModel } from "../../../ai/index.ts";
import type { Theme } from "../../../resources/index.ts";
import { Container, fuzzyFilter, getKeybindings, Input, Spacer, Text } from "../../../tui/index.ts";
import { compactCount } from "./frame.ts";

export type HubSearchFn = (query: string, signal: AbortSignal) => Promise<HubModel[]>;

const MAX_VISIBLE = 10;
const DEBOUNCE_MS = 500;
const EXACT = /^[^/\s]+\/[^:\s]+(?::[^\s:]+)?$/;
const SEARCHING = "Searching Hugging Face…";

export class HubSearch extends Container {
	private readonly input = new Input();
	private readonly results = new Container();
	private hits: HubModel[] = [];
	private shown: HubModel[] = [];
	private selected = 0;
	private query = "";
	private status = "Type at least 2 characters";
	private timer: ReturnType<typeof setTimeout> | undefined;
	private request: AbortController | undefined;
	private closed = false;
	private _focused = false;

	constructor(
		private readonly theme: Theme,
		private readonly redraw: () => void,
		private readonly search: HubSearchFn,
		private readonly cache: Map<string, HubModel[]>,
		private readonly onDone: (reference: string | undefined) => void,
	) {
		super();
		this.addChild(new Text(theme.fg("dim", "Model name or owner/repository[:quant]"), 1, 0));
		this.addChild(this.input);
		this.addChild(new Spacer(1));
		this.addChild(this.results);
		this.draw();
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
	}

	private draw(): void {
		const t = this.theme;
		this.results.clear();
		const start = Math.max(0, Math.min(this.selected - Math.floor(MAX_VISIBLE / 2), this.shown.length - MAX_VISIBLE));
		const end = Math.min(start + MAX_VISIBLE, this.shown.length);
		for (let index = start; index < end; index++) {
			const hit = this.shown[index] as HubModel;
			const downloads = `${compactCount(hit.downloads)} downloads`;
			const row =
				index === this.selected
					? t.fg("accent", `→ ${hit.id}  ${downloads}`)
					: `  ${hit.id}${t.fg("muted", `  ${downloads}`)}`;
			this.results.addChild(new Text(row, 0, 0));
		}
		if (start > 0 || end < this.shown.length) {
			this.results.addChild(new Text(t.fg("dim", `  (${this.selected + 1}/${this.shown.length})`), 0, 0));
		}
		if (this.shown.length === 0 || this.status === SEARCHING) {
			this.results.addChild(new Text(t.fg("dim", `  ${this.status}`), 0, 0));
		}
		this.redraw();
	}

	private narrow(): void {
		if (this.query) {
			const ids = new Set(fuzzyFilter(this.hits, this.query, (hit) => hit.id).map((hit) => hit.id));
			this.shown = this.hits.filter((hit) => ids.has(hit.id));
		} else this.shown = this.hits;
		this.selected = Math.min(this.selected, Math.max(0, this.shown.length - 1));
		this.draw();
	}

	private schedule(): void {
		if (this.timer) clearTimeout(this.timer);
		this.request?.abort();
		this.request = undefined;
		if (this.query.length < 2) {
			this.status = "Type at least 2 characters";
			this.narrow();
			return;
		}
		const cached = this.cache.get(this.query.toLowerCase());
		if (cached) {
			this.hits = cached;
			this.status = cached.length === 0 ? "No GGUF models found" : "";
			this.narrow();
			return;
		}
		this.status = SEARCHING;
		this.narrow();
		const query = this.query;
		this.timer = setTimeout(() => void this.run(query), DEBOUNCE_MS);
	}

	private async run(query: string): Promise<void> {
		const request = new AbortController();
		this.request = request;
		const current = () => !this.closed && !request.signal.aborted && this.query === query;
		try {
			const hits = await this.search(query, request.signal);
			this.cache.set(query.toLowerCase(), hits);
			if (!current()) return;
			this.hits = hits;
			this.selected = 0;
			this.status = hits.length === 0 ? "No GGUF models found" : "";
		} catch (error) {
			if (!current()) return;
			this.hits = [];
			this.status = error instanceof Error ? error.message : String(error);
		} finally {
			if (this.request === request) this.request = undefined;
		}
		this.narrow();
	}

	private finish(reference: string | undefined): void {
		if (this.closed) return;
		this.closed = true;
		if (this.timer) clearTimeout(this.timer);
		this.request?.abort();
		this.onDone(reference);
	}

	handleInput(data: string): void {
		const keys = getKeybindings();
		const count = this.shown.length;
		if (keys.matches(data, "tui.select.up") || keys.matches(data, "tui.select.down")) {
			if (count === 0) return;
			const delta = keys.matches(data, "tui.select.up") ? -1 : 1;
			this.selected = (this.selected + delta + count) % count;
			this.draw();
			return;
		}
		if (keys.matches(data, "tui.select.confirm")) {
			const reference = EXACT.test(this.query) ? this.query : this.shown[this.selected]?.id;
			if (reference) this.finish(reference);
			return;
		}
		if (keys.matches(data, "tui.select.cancel")) {
			this.finish(undefined);
			return;
		}
		this.input.handleInput(data);
		const query = this.input.getValue().trim();
		if (query === this.query) return;
		this.query = query;
		this.schedule();
	}
}
