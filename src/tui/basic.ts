/** Layout primitives: Container, Box, Text, TruncatedText, Spacer. */
import type { Component } from "./types.ts";
import { padToWidth, truncateToWidth, visibleWidth } from "./width.ts";
import { wrapTextWithAnsi } from "./wrap.ts";

/** Cut or pad `line` to exactly `width` columns. */
export function fitLine(line: string, width: number): string {
	const w = Math.max(0, width);
	return padToWidth(visibleWidth(line) > w ? truncateToWidth(line, w, "") : line, w);
}

/** Tabs become spaces before measuring, so wrapping and terminal tab stops cannot disagree. */
export function expandTabs(text: string): string {
	return text.includes("\t") ? text.replace(/\t/g, "   ") : text;
}

/** Children stacked vertically, each rendered at the full width. */
export class Container implements Component {
	children: Component[] = [];

	addChild(component: Component): void {
		this.children.push(component);
	}

	removeChild(component: Component): void {
		const index = this.children.indexOf(component);
		if (index !== -1) this.children.splice(index, 1);
	}

	clear(): void {
		this.children = [];
	}

	invalidate(): void {
		for (const child of this.children) child.invalidate();
	}

	render(width: number): string[] {
		const lines: string[] = [];
		for (const child of this.children) lines.push(...child.render(width));
		return lines;
	}
}

/** Empty lines. */
export class Spacer implements Component {
	constructor(private lines = 1) {}

	setLines(lines: number): void {
		this.lines = lines;
	}

	invalidate(): void {
		// Nothing cached.
	}

	render(_width: number): string[] {
		return Array.from({ length: Math.max(0, this.lines) }, () => "");
	}
}

/** Word-wrapped text with horizontal/vertical padding and an optional background applied to whole lines. */
export class Text implements Component {
	private cache: { text: string; width: number; lines: string[] } | undefined;

	constructor(
		private text = "",
		private paddingX = 1,
		private paddingY = 1,
		private customBgFn?: (text: string) => string,
	) {}

	setText(text: string): void {
		this.text = text;
		this.cache = undefined;
	}

	setCustomBgFn(customBgFn?: (text: string) => string): void {
		this.customBgFn = customBgFn;
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): string[] {
		if (this.cache && this.cache.text === this.text && this.cache.width === width) return this.cache.lines;
		const lines = this.text.trim() === "" ? [] : this.layout(width);
		this.cache = { text: this.text, width, lines };
		return lines;
	}

	private layout(width: number): string[] {
		const contentWidth = Math.max(1, width - this.paddingX * 2);
		const margin = " ".repeat(this.paddingX);
		const bg = this.customBgFn;
		const finish = (line: string) => {
			const fitted = fitLine(line, width);
			return bg ? bg(fitted) : fitted;
		};
		const blank = Array.from({ length: this.paddingY }, () => finish(""));
		const body = wrapTextWithAnsi(expandTabs(this.text), contentWidth).map((line) => finish(margin + line));
		return [...blank, ...body, ...blank];
	}
}

/** The first line of a text, cut to the width with an ellipsis. */
export class TruncatedText implements Component {
	constructor(
		private text: string,
		private paddingX = 0,
		private paddingY = 0,
	) {}

	invalidate(): void {
		// Nothing cached.
	}

	render(width: number): string[] {
		const contentWidth = Math.max(0, width - this.paddingX * 2);
		const first = expandTabs(this.text.split("\n")[0] ?? "");
		const line = fitLine(" ".repeat(this.paddingX) + truncateToWidth(first, contentWidth), width);
		const blank = Array.from({ length: this.paddingY }, () => " ".repeat(Math.max(0, width)));
		return [...blank, line, ...blank];
	}
}

/** A container that pads its children and paints an optional background over every line. */
export class Box implements Component {
	children: Component[] = [];

	constructor(
		private paddingX = 1,
		private paddingY = 1,
		private bgFn?: (text: string) => string,
	) {}

	addChild(component: Component): void {
		this.children.push(component);
	}

	removeChild(component: Component): void {
		const index = this.children.indexOf(component);
		if (index !== -1) this.children.splice(index, 1);
	}

	clear(): void {
		this.children = [];
	}

	setBgFn(bgFn?: (text: string) => string): void {
		this.bgFn = bgFn;
	}

	invalidate(): void {
		for (const child of this.children) child.invalidate();
	}

	render(width: number): string[] {
		const contentWidth = Math.max(1, width - this.paddingX * 2);
		const inner: string[] = [];
		for (const child of this.children) inner.push(...child.render(contentWidth));
		if (inner.length === 0) return [];
		const margin = " ".repeat(this.paddingX);
		const finish = (line: string) => {
			const fitted = fitLine(line, width);
			return this.bgFn ? this.bgFn(fitted) : fitted;
		};
		const blank = Array.from({ length: this.paddingY }, () => finish(""));
		return [...blank, ...inner.map((line) => finish(margin + line)), ...blank];
	}
}
