/** Autocomplete contracts and the Editor's suggestion popup. */
import { matchesKey } from "./keys.ts";
import { SelectList, type SelectListTheme } from "./select-list.ts";

export interface AutocompleteItem {
	value: string;
	label: string;
	description?: string;
}

type Awaitable<T> = T | Promise<T>;

export interface SlashCommand {
	name: string;
	description?: string;
	argumentHint?: string;
	getArgumentCompletions?(argumentPrefix: string): Awaitable<AutocompleteItem[] | null>;
}

export interface AutocompleteSuggestions {
	items: AutocompleteItem[];
	/** The text before the cursor that the items would replace. */
	prefix: string;
}

export interface AutocompleteProvider {
	/** Characters that open suggestions when typed at a token boundary. */
	triggerCharacters?: string[];
	getSuggestions(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		options: { signal: AbortSignal; force?: boolean },
	): Promise<AutocompleteSuggestions | null>;
	applyCompletion(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		item: AutocompleteItem,
		prefix: string,
	): { lines: string[]; cursorLine: number; cursorCol: number };
	shouldTriggerFileCompletion?(lines: string[], cursorLine: number, cursorCol: number): boolean;
}

export interface EditorBuffer {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

/** Host callbacks the popup needs from the editor. */
export interface AutocompleteHost {
	getBuffer(): EditorBuffer;
	setBuffer(buffer: EditorBuffer): void;
	requestRender(): void;
	selectListTheme(): SelectListTheme;
	maxVisible(): number;
}

/** Requests suggestions from a provider and shows them in a SelectList until one is applied or dismissed. */
export class AutocompletePopup {
	private list: SelectList | undefined;
	private suggestions: AutocompleteSuggestions | undefined;
	private abort: AbortController | undefined;
	private requestId = 0;

	constructor(
		private readonly host: AutocompleteHost,
		private provider: AutocompleteProvider | undefined = undefined,
	) {}

	setProvider(provider: AutocompleteProvider): void {
		this.cancel();
		this.provider = provider;
	}

	hasProvider(): boolean {
		return this.provider !== undefined;
	}

	isShowing(): boolean {
		return this.list !== undefined;
	}

	/** Whether `ch`, just typed, should open suggestions. */
	isTrigger(ch: string): boolean {
		return this.provider?.triggerCharacters?.includes(ch) ?? false;
	}

	/** Ask for suggestions at the cursor. With `force` (Tab), a single suggestion is applied at once. */
	request(force: boolean): void {
		const provider = this.provider;
		if (!provider) return;
		this.abort?.abort();
		const abort = new AbortController();
		this.abort = abort;
		const id = ++this.requestId;
		const { lines, cursorLine, cursorCol } = this.host.getBuffer();
		provider
			.getSuggestions([...lines], cursorLine, cursorCol, { signal: abort.signal, force })
			.then((result) => {
				if (id !== this.requestId || abort.signal.aborted) return;
				if (!result || result.items.length === 0) return this.close();
				if (force && result.items.length === 1 && result.items[0]) return this.apply(result.items[0], result.prefix);
				this.suggestions = result;
				this.list = new SelectList(result.items, this.host.maxVisible(), this.host.selectListTheme());
				this.host.requestRender();
			})
			.catch(() => {
				// A failing provider just means no suggestions; the editor keeps working.
				if (id === this.requestId) this.close();
			});
	}

	/** Handle a key while the popup is showing; returns false when the key should go to the editor instead. */
	handleInput(data: string): boolean {
		const list = this.list;
		if (!list) return false;
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.cancel();
			return true;
		}
		if (
			matchesKey(data, "up") ||
			matchesKey(data, "down") ||
			matchesKey(data, "pageUp") ||
			matchesKey(data, "pageDown")
		) {
			list.handleInput(data);
			return true;
		}
		if (matchesKey(data, "tab") || matchesKey(data, "enter")) {
			const item = list.getSelectedItem();
			if (item && this.suggestions) this.apply(item, this.suggestions.prefix);
			else this.close();
			return true;
		}
		return false;
	}

	render(width: number): string[] {
		return this.list ? this.list.render(width) : [];
	}

	cancel(): void {
		this.abort?.abort();
		this.requestId++;
		this.close();
	}

	private apply(item: AutocompleteItem, prefix: string): void {
		const provider = this.provider;
		this.close();
		if (!provider) return;
		const { lines, cursorLine, cursorCol } = this.host.getBuffer();
		this.host.setBuffer(provider.applyCompletion([...lines], cursorLine, cursorCol, item, prefix));
		this.host.requestRender();
	}

	private close(): void {
		const wasShowing = this.list !== undefined;
		this.list = undefined;
		this.suggestions = undefined;
		if (wasShowing) this.host.requestRender();
	}
}
