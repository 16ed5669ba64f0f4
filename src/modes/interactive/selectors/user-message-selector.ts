/**
 * `/fork`'s list of the current branch's user messages (pi 0.87.1's "Fork from Message"): oldest first, the newest
 * selected, two lines per message (the text on one line, `Message n of m` under it), Up/Down wrap around, Enter
 * picks, Escape cancels. The rules are in the theme's border colour.
 */
import { type Component, Container, getKeybindings, Spacer, Text, truncateToWidth } from "../../../tui/index.ts";
import { theme } from "../components/style.ts";
import { dialogBorder } from "../dialogs/common.ts";

export interface ForkCandidate {
	id: string;
	text: string;
}

export class MessageList implements Component {
	selected: number;
	readonly maxVisible = 10;

	constructor(
		private readonly messages: readonly ForkCandidate[],
		private readonly onSelect: (id: string) => void,
		private readonly onCancel: () => void,
		initialId?: string,
	) {
		const at = initialId ? messages.findIndex((m) => m.id === initialId) : -1;
		this.selected = at >= 0 ? at : Math.max(0, messages.length - 1);
	}

	invalidate(): void {
		// Nothing cached.
	}

	render(width: number): string[] {
		const t = theme();
		const n = this.messages.length;
		if (n === 0) return [t.fg("muted", "  No user messages found")];
		const start = Math.max(0, Math.min(this.selected - Math.floor(this.maxVisible / 2), n - this.maxVisible));
		const end = Math.min(start + this.maxVisible, n);
		const lines: string[] = [];
		for (let i = start; i < end; i++) {
			const text = (this.messages[i] as ForkCandidate).text.replace(/\n/g, " ").trim();
			const shown = truncateToWidth(text, width - 2);
			const selected = i === this.selected;
			lines.push((selected ? t.fg("accent", "› ") : "  ") + (selected ? t.bold(shown) : shown));
			lines.push(t.fg("muted", `  Message ${i + 1} of ${n}`));
			lines.push("");
		}
		if (start > 0 || end < n) lines.push(t.fg("muted", `  (${this.selected + 1}/${n})`));
		return lines;
	}

	handleInput(data: string): void {
		const kb = getKeybindings();
		const n = this.messages.length;
		if (kb.matches(data, "tui.select.up")) this.selected = this.selected === 0 ? n - 1 : this.selected - 1;
		else if (kb.matches(data, "tui.select.down")) this.selected = this.selected === n - 1 ? 0 : this.selected + 1;
		else if (kb.matches(data, "tui.select.confirm")) {
			const message = this.messages[this.selected];
			if (message) this.onSelect(message.id);
		} else if (kb.matches(data, "tui.select.cancel")) this.onCancel();
	}
}

export class UserMessageSelector extends Container {
	private readonly list: MessageList;

	constructor(
		messages: readonly ForkCandidate[],
		onSelect: (id: string) => void,
		onCancel: () => void,
		initialId?: string,
	) {
		super();
		const t = theme();
		this.addChild(new Spacer(1));
		this.addChild(new Text(t.bold("Fork from Message"), 1, 0));
		this.addChild(
			new Text(
				t.fg("muted", "Select a user message to copy the active path up to that point into a new session"),
				1,
				0,
			),
		);
		this.addChild(new Spacer(1));
		this.addChild(dialogBorder());
		this.addChild(new Spacer(1));
		this.list = new MessageList(messages, onSelect, onCancel, initialId);
		this.addChild(this.list);
		this.addChild(new Spacer(1));
		this.addChild(dialogBorder());
	}

	/** The list itself (what takes the keys; the app focuses it). */
	getMessageList(): MessageList {
		return this.list;
	}

	handleInput(data: string): void {
		this.list.handleInput(data);
	}
}
