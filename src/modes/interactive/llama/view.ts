/**
 * The `/llama` screen, in the editor's place: one component whose content is swapped for each step — the router's
 * models (loaded first, then by name; "Download model…" last), a choice, a yes/no question, the hub search, a
 * status line, or a progress bar. Each step is a promise the flow awaits; Escape during progress resolves
 * `progress()` so the flow can ask whether to stop.
 */

import type { HubModel, RouterModel, RouterProgress } from "../../../ai/index.ts";
import type { Theme } from "../../../resources/index.ts";
import {
	type Component,
	getKeybindings,
	SelectList,
	Spacer,
	Text,
	truncateToWidth,
	visibleWidth,
} from "../../../tui/index.ts";
import { keyHint } from "../components/index.ts";
import { listTheme, llamaFrame } from "./frame.ts";
import { HubSearch, type HubSearchFn } from "./hub-search.ts";

const DOWNLOAD = "\u0000download";

export type ModelsAction = { type: "model"; model: RouterModel } | { type: "download" } | { type: "close" };

export interface ProgressState extends RouterProgress {
	title: string;
	model: string;
}

/** What the flow asks of the screen (a seam: tests drive the flow with a scripted one). */
export interface LlamaScreen {
	showModels(serverUrl: string, models: RouterModel[]): Promise<ModelsAction>;
	select(title: string, options: string[]): Promise<string | undefined>;
	confirm(title: string, message: string): Promise<boolean>;
	connectionError(serverUrl: string, message: string): Promise<"retry" | "close">;
	searchModels(search: HubSearchFn): Promise<string | undefined>;
	showStatus(title: string, message: string): void;
	/** Shows progress; resolves when the user presses Escape. */
	progress(state: ProgressState): Promise<void>;
	updateProgress(state: ProgressState): void;
}

function shortContext(value: number): string {
	return value >= 1000 ? `${Math.round(value / 1000)}k` : String(value);
}

/** The context a model runs with: the router's n_ctx, else a `-c`/`--ctx-size`/`-ctx` argument. */
function contextLabel(model: RouterModel): string | undefined {
	const reported = model.meta?.n_ctx ?? model.meta?.n_ctx_train;
	if (reported) return shortContext(reported);
	const args = model.status.args ?? [];
	for (let i = 0; i < args.length - 1; i++) {
		if (args[i] !== "--ctx-size" && args[i] !== "-c" && args[i] !== "-ctx") continue;
		const value = Number(args[i + 1]);
		if (Number.isFinite(value) && value > 0) return shortContext(value);
	}
	return undefined;
}

function describe(model: RouterModel): string {
	const loaded = model.status.value === "loaded" || model.status.value === "sleeping";
	const parts: string[] = [];
	if (loaded) parts.push("loaded");
	else if (model.status.value !== "unloaded") parts.push(model.status.value);
	const context = loaded ? contextLabel(model) : undefined;
	if (context) parts.push(`${context} context`);
	return parts.join(" · ");
}

export class LlamaView implements Component, LlamaScreen {
	private content: Component;
	private input: Component | undefined;
	private focusTarget: { focused: boolean } | undefined;
	private stopWaiter: (() => void) | undefined;
	private stopPromise: Promise<void> | undefined;
	private inProgress = false;
	private _focused = false;
	private readonly searchCache = new Map<string, HubModel[]>();

	constructor(
		private readonly theme: Theme,
		private readonly redraw: () => void,
	) {
		this.content = llamaFrame(theme, "llama.cpp models", [new Text(theme.fg("muted", "Loading…"), 1, 1)]);
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		if (this.focusTarget) this.focusTarget.focused = value;
	}

	private show(content: Component, input?: Component, focusTarget?: { focused: boolean }): void {
		if (this.focusTarget) this.focusTarget.focused = false;
		this.stopWaiter = undefined;
		this.stopPromise = undefined;
		this.inProgress = false;
		this.content = content;
		this.input = input;
		this.focusTarget = focusTarget;
		if (focusTarget) focusTarget.focused = this._focused;
		this.redraw();
	}

	private hint(action: string, text: string): string {
		return keyHint(action, text);
	}

	showModels(serverUrl: string, models: RouterModel[]): Promise<ModelsAction> {
		const sorted = [...models].sort(
			(a, b) => Number(b.status.value === "loaded") - Number(a.status.value === "loaded") || a.id.localeCompare(b.id),
		);
		const items = [
			...sorted.map((m) => ({ value: m.id, label: m.id, description: describe(m) })),
			{ value: DOWNLOAD, label: "Download model…", description: "Hugging Face owner/repository[:quant]" },
		];
		return new Promise((resolve) => {
			const list = new SelectList(items, Math.min(items.length, 12), listTheme(this.theme), {
				minPrimaryColumnWidth: 36,
				maxPrimaryColumnWidth: 56,
			});
			list.onSelect = (item) => {
				if (item.value === DOWNLOAD) resolve({ type: "download" });
				else {
					const model = sorted.find((m) => m.id === item.value);
					if (model) resolve({ type: "model", model });
				}
			};
			list.onCancel = () => resolve({ type: "close" });
			const footer = `${this.hint("tui.select.confirm", "load/unload/download")} • ${this.hint("tui.select.cancel", "close")}`;
			const body = [new Text(this.theme.fg("dim", serverUrl), 1, 0), new Spacer(1), list];
			this.show(llamaFrame(this.theme, "llama.cpp models", body, footer), list);
		});
	}

	select(title: string, options: string[]): Promise<string | undefined> {
		return new Promise((resolve) => {
			const items = options.map((option) => ({ value: option, label: option }));
			const list = new SelectList(items, Math.min(options.length, 12), listTheme(this.theme));
			list.onSelect = (item) => resolve(item.value);
			list.onCancel = () => resolve(undefined);
			const footer = `${this.hint("tui.select.confirm", "select")} • ${this.hint("tui.select.cancel", "cancel")}`;
			this.show(llamaFrame(this.theme, title, [new Spacer(1), list], footer), list);
		});
	}

	async confirm(title: string, message: string): Promise<boolean> {
		return (await this.select(`${title}\n${message}`, ["Yes", "No"])) === "Yes";
	}

	async connectionError(serverUrl: string, message: string): Promise<"retry" | "close"> {
		const choice = await this.select(`llama.cpp unavailable\n${serverUrl}\n\n${message}`, ["Retry", "Close"]);
		return choice === "Retry" ? "retry" : "close";
	}

	searchModels(search: HubSearchFn): Promise<string | undefined> {
		return new Promise((resolve) => {
			const box = new HubSearch(this.theme, this.redraw, search, this.searchCache, resolve);
			const footer = `${this.hint("tui.select.confirm", "select")} • ${this.hint("tui.select.cancel", "back")}`;
			this.show(llamaFrame(this.theme, "Download model", [new Spacer(1), box], footer), box, box);
		});
	}

	showStatus(title: string, message: string): void {
		this.show(llamaFrame(this.theme, title, [new Spacer(1), new Text(this.theme.fg("muted", message), 1, 0)]));
	}

	progress(state: ProgressState): Promise<void> {
		this.stopPromise ??= new Promise((resolve) => {
			this.stopWaiter = resolve;
		});
		this.inProgress = true;
		this.updateProgress(state);
		return this.stopPromise;
	}

	updateProgress(state: ProgressState): void {
		if (!this.inProgress) return;
		const t = this.theme;
		const body: Component[] = [
			new Text(t.fg("text", state.model), 1, 0),
			new Spacer(1),
			new Text(t.fg("muted", state.message), 1, 0),
		];
		if (state.ratio !== undefined) {
			const width = 40;
			const ratio = Math.max(0, Math.min(1, state.ratio));
			const filled = Math.round(ratio * width);
			const bar = `${"█".repeat(filled)}${"─".repeat(width - filled)} ${Math.round(state.ratio * 100)}%`;
			body.push(new Text(t.fg("accent", bar), 1, 0));
		}
		if (state.detail) body.push(new Text(t.fg("dim", state.detail), 1, 0));
		this.content = llamaFrame(t, state.title, body, this.hint("tui.select.cancel", "stop"));
		this.input = undefined;
		this.redraw();
	}

	handleInput(data: string): void {
		if (this.stopWaiter && getKeybindings().matches(data, "tui.select.cancel")) {
			const stop = this.stopWaiter;
			this.stopWaiter = undefined;
			this.stopPromise = undefined;
			stop();
			return;
		}
		this.input?.handleInput?.(data);
		this.redraw();
	}

	render(width: number): string[] {
		return this.content
			.render(width)
			.map((line) => (visibleWidth(line) > width ? truncateToWidth(line, width, "") : line));
	}

	invalidate(): void {
		this.content.invalidate?.();
	}
}
