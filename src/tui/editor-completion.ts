/**
 * Editor autocomplete: when to ask the provider (slash commands on the first line, trigger characters such as `@`
 * at a token boundary, Tab), debouncing of `@` requests, dropping stale answers, and the SelectList shown under
 * the editor.
 */
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions } from "./autocomplete.ts";
import { EditorMotion } from "./editor-motion.ts";
import { SelectList, type SelectListTheme } from "./select-list.ts";
import { autocompleteBoundaryRegex, autocompleteSeparatorRegex, cjkBreakRegex, isWhitespaceChar } from "./text-edit.ts";
import type { TUI } from "./types.ts";

export interface EditorTheme {
	borderColor: (str: string) => string;
	selectList: SelectListTheme;
}

export interface EditorOptions {
	paddingX?: number;
	autocompleteMaxVisible?: number;
}

const SLASH_LIST_LAYOUT = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 32 };
const AT_DEBOUNCE_MS = 20;
const DEFAULT_TRIGGERS = ["@", "#"];
const unquotedSuffix = `(?:(?!${autocompleteSeparatorRegex.source}).)*`;

function escapeClass(value: string): string {
	return value.replace(/[\\^$.*+?()[\]{}|-]/g, "\\$&");
}

/** Text before the cursor ends in a trigger token (`@"quoted`, or a trigger character and an unquoted word). */
function triggerPattern(chars: string[]): RegExp {
	return new RegExp(
		`${autocompleteBoundaryRegex.source}(?:@"[^"]*|[${chars.map(escapeClass).join("")}]${unquotedSuffix})$`,
		"u",
	);
}

/** The subset of trigger tokens whose requests wait a moment (file search behind `@`). */
function debouncePattern(chars: string[]): RegExp {
	const others = chars.filter((c) => c !== "@").map(escapeClass);
	return new RegExp(
		`${autocompleteBoundaryRegex.source}(?:@(?:"[^"]*|${unquotedSuffix})|[${others.join("")}]${unquotedSuffix})$`,
		"u",
	);
}

export function clampMaxVisible(value: number): number {
	return Number.isFinite(value) ? Math.max(3, Math.min(20, Math.floor(value))) : 5;
}

interface RequestOptions {
	force: boolean;
	explicitTab: boolean;
}

export abstract class EditorCompletion extends EditorMotion {
	protected theme: EditorTheme;
	protected autocompleteProvider?: AutocompleteProvider;
	private triggerChars = [...DEFAULT_TRIGGERS];
	private triggerRegex = triggerPattern(this.triggerChars);
	private debounceRegex = debouncePattern(this.triggerChars);
	protected autocompleteList?: SelectList;
	protected autocompleteState: "regular" | "force" | null = null;
	protected autocompletePrefix = "";
	protected autocompleteMaxVisible = 5;
	private autocompleteAbort?: AbortController;
	private debounceTimer?: ReturnType<typeof setTimeout>;
	private requestTask: Promise<void> = Promise.resolve();
	private startToken = 0;
	private requestId = 0;

	constructor(tui: TUI, theme: EditorTheme, options: EditorOptions) {
		super(tui);
		this.theme = theme;
		this.autocompleteMaxVisible = clampMaxVisible(options.autocompleteMaxVisible ?? 5);
	}

	getAutocompleteMaxVisible(): number {
		return this.autocompleteMaxVisible;
	}

	setAutocompleteMaxVisible(maxVisible: number): void {
		const next = clampMaxVisible(maxVisible);
		if (next === this.autocompleteMaxVisible) return;
		this.autocompleteMaxVisible = next;
		this.tui.requestRender();
	}

	setAutocompleteProvider(provider: AutocompleteProvider): void {
		this.cancelAutocomplete();
		this.autocompleteProvider = provider;
		const chars = [...DEFAULT_TRIGGERS];
		for (const c of provider.triggerCharacters ?? []) {
			if (c.length === 1 && c !== "/" && !isWhitespaceChar(c) && !chars.includes(c)) chars.push(c);
		}
		this.triggerChars = chars;
		this.triggerRegex = triggerPattern(chars);
		this.debounceRegex = debouncePattern(chars);
	}

	isShowingAutocomplete(): boolean {
		return this.autocompleteState !== null;
	}

	private textBeforeCursor(): string {
		return this.currentLine.slice(0, this.state.cursorCol);
	}

	/** Slash commands complete only on the first line. */
	private inSlashContext(before: string): boolean {
		return this.state.cursorLine === 0 && before.trimStart().startsWith("/");
	}

	private atStartOfMessage(): boolean {
		if (this.state.cursorLine !== 0) return false;
		const before = this.textBeforeCursor().trim();
		return before === "" || before === "/";
	}

	protected afterCharacterTyped(char: string): void {
		if (this.autocompleteState) {
			this.updateAutocomplete();
			return;
		}
		const before = this.textBeforeCursor();
		if (char === "/" && this.atStartOfMessage()) this.requestAutocomplete({ force: false, explicitTab: false });
		else if (this.triggerChars.includes(char)) {
			if (this.triggerRegex.test(before)) this.requestAutocomplete({ force: false, explicitTab: false });
		} else if (/[a-zA-Z0-9.\-_]/.test(char) || cjkBreakRegex.test(char)) {
			if (this.inSlashContext(before) || this.triggerRegex.test(before)) {
				this.requestAutocomplete({ force: false, explicitTab: false });
			}
		}
	}

	protected afterDeletion(): void {
		if (this.autocompleteState) {
			this.updateAutocomplete();
			return;
		}
		const before = this.textBeforeCursor();
		if (this.inSlashContext(before) || this.triggerRegex.test(before)) {
			this.requestAutocomplete({ force: false, explicitTab: false });
		}
	}

	protected afterCursorMoved(): void {
		if (this.autocompleteState) this.updateAutocomplete();
	}

	/** Tab: complete a slash command name, else force file completion. */
	protected handleTabCompletion(): void {
		if (!this.autocompleteProvider) return;
		const before = this.textBeforeCursor();
		if (this.inSlashContext(before) && !before.trimStart().includes(" ")) {
			this.requestAutocomplete({ force: false, explicitTab: true });
		} else {
			this.requestAutocomplete({ force: true, explicitTab: true });
		}
	}

	/** Replace the completed prefix with `item` through the provider (one undo step). */
	protected applyCompletionItem(item: AutocompleteItem, prefix: string): void {
		if (!this.autocompleteProvider) return;
		this.pushUndoSnapshot();
		this.lastAction = null;
		const { lines, cursorLine, cursorCol } = this.state;
		const result = this.autocompleteProvider.applyCompletion(lines, cursorLine, cursorCol, item, prefix);
		this.state.lines = result.lines;
		this.state.cursorLine = result.cursorLine;
		this.setCursorCol(result.cursorCol);
	}

	private requestAutocomplete(options: RequestOptions): void {
		const provider = this.autocompleteProvider;
		if (!provider) return;
		if (options.force && provider.shouldTriggerFileCompletion) {
			if (!provider.shouldTriggerFileCompletion(this.state.lines, this.state.cursorLine, this.state.cursorCol)) return;
		}
		this.cancelAutocompleteRequest();
		const token = ++this.startToken;
		const debounce = !options.explicitTab && !options.force && this.debounceRegex.test(this.textBeforeCursor());
		if (debounce) {
			this.debounceTimer = setTimeout(() => {
				this.debounceTimer = undefined;
				void this.startRequest(token, options);
			}, AT_DEBOUNCE_MS);
			return;
		}
		void this.startRequest(token, options);
	}

	/** Requests run one after another; a request started before a newer one is dropped. */
	private async startRequest(token: number, options: RequestOptions): Promise<void> {
		const previous = this.requestTask;
		this.requestTask = (async () => {
			await previous;
			if (token !== this.startToken || !this.autocompleteProvider) return;
			const controller = new AbortController();
			this.autocompleteAbort = controller;
			const id = ++this.requestId;
			const snapshot = { text: this.getText(), line: this.state.cursorLine, col: this.state.cursorCol };
			await this.runRequest(id, controller, snapshot, options);
		})();
		await this.requestTask;
	}

	private async runRequest(
		id: number,
		controller: AbortController,
		snapshot: { text: string; line: number; col: number },
		options: RequestOptions,
	): Promise<void> {
		const provider = this.autocompleteProvider;
		if (!provider) return;
		const suggestions = await provider.getSuggestions(this.state.lines, this.state.cursorLine, this.state.cursorCol, {
			signal: controller.signal,
			force: options.force,
		});
		const current =
			!controller.signal.aborted &&
			id === this.requestId &&
			this.getText() === snapshot.text &&
			this.state.cursorLine === snapshot.line &&
			this.state.cursorCol === snapshot.col;
		if (!current) return;
		this.autocompleteAbort = undefined;
		if (!suggestions || !Array.isArray(suggestions.items) || suggestions.items.length === 0) {
			this.cancelAutocomplete();
			this.tui.requestRender();
			return;
		}
		const only = suggestions.items[0];
		if (options.force && options.explicitTab && suggestions.items.length === 1 && only) {
			this.applyCompletionItem(only, suggestions.prefix);
			this.emitChange();
			this.tui.requestRender();
			return;
		}
		this.showSuggestions(suggestions, options.force ? "force" : "regular");
		this.tui.requestRender();
	}

	private showSuggestions(suggestions: AutocompleteSuggestions, state: "regular" | "force"): void {
		const prefix = suggestions.prefix;
		this.autocompletePrefix = prefix;
		const list = new SelectList(
			suggestions.items,
			this.autocompleteMaxVisible,
			this.theme.selectList,
			prefix.startsWith("/") ? SLASH_LIST_LAYOUT : undefined,
		);
		list.onSelect = (selected) => {
			if (!this.autocompleteProvider) return;
			this.applyCompletionItem(selected, this.autocompletePrefix);
			this.cancelAutocomplete();
			this.emitChange();
		};
		this.autocompleteList = list;
		const best = bestMatchIndex(suggestions.items, prefix);
		if (best >= 0) list.setSelectedIndex(best);
		this.autocompleteState = state;
	}

	private cancelAutocompleteRequest(): void {
		this.startToken++;
		if (this.debounceTimer) {
			clearTimeout(this.debounceTimer);
			this.debounceTimer = undefined;
		}
		this.autocompleteAbort?.abort();
		this.autocompleteAbort = undefined;
	}

	protected cancelAutocomplete(): void {
		this.cancelAutocompleteRequest();
		this.autocompleteState = null;
		this.autocompleteList = undefined;
		this.autocompletePrefix = "";
	}

	private updateAutocomplete(): void {
		if (!this.autocompleteState || !this.autocompleteProvider) return;
		this.requestAutocomplete({ force: this.autocompleteState === "force", explicitTab: false });
	}
}

/** The item to preselect: an exact value match, else the first value starting with the prefix (-1: none). */
function bestMatchIndex(items: AutocompleteItem[], prefix: string): number {
	if (!prefix) return -1;
	let first = -1;
	for (let i = 0; i < items.length; i++) {
		const value = (items[i] as AutocompleteItem).value;
		if (value === prefix) return i;
		if (first === -1 && value.startsWith(prefix)) first = i;
	}
	return first;
}
