/**
 * The transcript search panel: a boxed one-line input with the match position ("3/12", "No matches") and
 * previous/next buttons in its bottom border, named after their key bindings.
 */
import { Input } from "../input.ts";
import { getKeybindings } from "../keybindings.ts";
import type { Component, Focusable } from "../types.ts";
import { truncateToWidth, visibleWidth } from "../width.ts";

function keyLabel(key: string | undefined): string {
	if (!key) return "Unbound";
	return key
		.split("+")
		.map((part) =>
			process.platform === "darwin" && part.toLowerCase() === "alt"
				? "Option"
				: part.charAt(0).toUpperCase() + part.slice(1),
		)
		.join("+");
}

export class AltScreenSearchComponent implements Component, Focusable {
	private readonly input = new Input({
		prompt: " ",
		placeholder: "Find in transcript",
		placeholderStyle: (text) => `\x1b[2m${text}\x1b[22m`,
	});
	private count = 0;
	private index = -1;
	/** Columns of the two buttons on the bottom row (-1 when not shown). */
	private buttons = { prevStart: -1, prevEnd: -1, nextStart: -1, nextEnd: -1 };
	private hovered: -1 | 1 | undefined;
	private isFocused = false;

	constructor(
		private readonly onQueryChange: (query: string) => void,
		private readonly buttonStyle: (text: string, hovered: boolean) => string = (text) => text,
	) {}

	get focused(): boolean {
		return this.isFocused;
	}
	set focused(value: boolean) {
		this.isFocused = value;
		this.input.focused = value;
	}

	setResult(index: number, count: number): void {
		this.index = index;
		this.count = count;
	}

	/** -1 (previous) or 1 (next) when (row, column) is on a button. */
	getNavigationDirectionAt(row: number, column: number): -1 | 1 | undefined {
		if (row !== 2) return undefined;
		if (column >= this.buttons.prevStart && column < this.buttons.prevEnd) return -1;
		if (column >= this.buttons.nextStart && column < this.buttons.nextEnd) return 1;
		return undefined;
	}

	/** Returns true when the hovered button changed. */
	setHoveredNavigationDirection(direction: -1 | 1 | undefined): boolean {
		if (direction === this.hovered) return false;
		this.hovered = direction;
		return true;
	}

	handleInput(data: string): void {
		const before = this.input.getValue();
		this.input.handleInput(data);
		const after = this.input.getValue();
		if (after !== before) this.onQueryChange(after);
	}

	invalidate(): void {
		this.input.invalidate();
	}

	render(width: number): string[] {
		const total = Math.max(1, width);
		if (total === 1) return ["┌", "│", "└"];
		const inner = Math.max(0, total - 2);
		const bindings = getKeybindings();
		const query = this.input.getValue();
		const status = !query ? "" : this.count === 0 ? "No matches" : `${this.index + 1}/${this.count}`;
		const shownStatus = truncateToWidth(status, Math.max(0, inner - 3), "");
		const statusText = shownStatus ? `\x1b[2m ${shownStatus} \x1b[22m` : "";
		const inputWidth = Math.max(0, inner - visibleWidth(statusText));
		const inputLine = truncateToWidth(this.input.render(Math.max(1, inputWidth))[0] ?? "", inputWidth, "");
		const content = `${inputLine}${" ".repeat(Math.max(0, inputWidth - visibleWidth(inputLine)))}${statusText}`;

		let prev = `↑ ${keyLabel(bindings.getKeys("tui.altScreen.searchPrevious")[0])}`;
		let next = `↓ ${keyLabel(bindings.getKeys("tui.altScreen.searchNext")[0])}`;
		let sep = " · ";
		const room = Math.max(0, inner - 3);
		if (visibleWidth(prev) + visibleWidth(sep) + visibleWidth(next) > room) {
			prev = "↑";
			next = "↓";
			sep = " ";
		}
		const controls = visibleWidth(prev) + visibleWidth(sep) + visibleWidth(next);
		const show = controls <= room;
		const drawn = show
			? this.buttonStyle(prev, this.hovered === -1) + sep + this.buttonStyle(next, this.hovered === 1)
			: "";
		const gaps = show ? 2 : 0;
		const rightRule = show && inner > controls + gaps ? 1 : 0;
		const leftRule = Math.max(0, inner - (show ? controls : 0) - gaps - rightRule);
		const prevStart = 1 + leftRule + 1;
		this.buttons = show
			? {
					prevStart,
					prevEnd: prevStart + visibleWidth(prev),
					nextStart: prevStart + visibleWidth(prev) + visibleWidth(sep),
					nextEnd: prevStart + visibleWidth(prev) + visibleWidth(sep) + visibleWidth(next),
				}
			: { prevStart: -1, prevEnd: -1, nextStart: -1, nextEnd: -1 };
		const bottom = show ? `${"─".repeat(leftRule)} ${drawn} ${"─".repeat(rightRule)}` : "─".repeat(leftRule);
		return [`┌${"─".repeat(inner)}┐`, `│${content}│`, `└${bottom}┘`];
	}
}
