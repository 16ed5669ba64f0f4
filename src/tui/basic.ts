/** Layout primitives, rendering as pi-tui 0.87.1's: Container, Box, Text, TruncatedText, Spacer. */
import { dispatchToChildren, type TuiMouseDispatchResult } from "./mouse/dispatch.ts";
import type { Component, TuiMouseEvent } from "./types.ts";
import { padToWidth, spaces, truncateToWidth, visibleWidth } from "./width.ts";
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
		// Components written for older versions may lack invalidate().
		for (const child of this.children) child.invalidate?.();
	}

	render(width: number): string[] {
		const lines: string[] = [];
		for (const child of this.children) for (const line of child.render(width)) lines.push(line);
		return lines;
	}

	/** A mouse event goes to the child under the pointer (fullscreen mode). */
	handleMouse(event: TuiMouseEvent): TuiMouseDispatchResult | undefined {
		return dispatchToChildren(this.children, event, this);
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

	/** The same array while the count stays (the renderer skips lines it has seen). */
	private blank: string[] = [];

	render(_width: number): string[] {
		if (this.blank.length !== this.lines) this.blank = Array.from({ length: this.lines }, () => "");
		return this.blank;
	}
}

/**
 * `line` padded with spaces to `width` columns. A line wider than that (pi-tui lets one through at tiny widths, and
 * its renderer then stops with an error) is cut to the width instead.
 */
function fill(line: string, width: number): string {
	const w = visibleWidth(line);
	return w > width ? truncateToWidth(line, width, "", true) : line + spaces(width - w);
}

/**
 * Word-wrapped text with side margins (`paddingX`, narrowed when the width is too small) and `paddingY` blank lines
 * above and below; every line is padded to the full width and painted with the background function if there is
 * one. Blank text renders no lines. The result is cached until the text or the width changes.
 */
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
		const cache = this.cache;
		if (cache && cache.text === this.text && cache.width === width) return cache.lines;
		const lines = !this.text || this.text.trim() === "" ? [] : this.layout(width);
		this.cache = { text: this.text, width, lines };
		return lines;
	}

	private layout(width: number): string[] {
		const paddingX = Math.min(this.paddingX, Math.max(0, Math.floor((width - 1) / 2)));
		const contentWidth = Math.max(1, width - paddingX * 2);
		const margin = spaces(paddingX);
		const bg = this.customBgFn;
		const body: string[] = [];
		for (const line of wrapTextWithAnsi(this.text.replace(/\t/g, "   "), contentWidth)) {
			const framed = margin + line + margin;
			body.push(bg ? bg(fill(framed, width)) : fill(framed, width));
		}
		const empty = spaces(width);
		const blank: string[] = [];
		for (let i = 0; i < this.paddingY; i++) blank.push(bg ? bg(empty) : empty);
		return [...blank, ...body, ...blank];
	}
}

/** The first line of a text, cut to the width with "...", between margins and blank lines; padded to the width. */
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
		const empty = " ".repeat(Math.max(0, width));
		const newline = this.text.indexOf("\n");
		const first = newline === -1 ? this.text : this.text.slice(0, newline);
		const margin = " ".repeat(Math.max(0, this.paddingX));
		const framed = margin + truncateToWidth(first, Math.max(1, width - this.paddingX * 2)) + margin;
		const lines: string[] = [];
		for (let i = 0; i < this.paddingY; i++) lines.push(empty);
		lines.push(fill(framed, width));
		for (let i = 0; i < this.paddingY; i++) lines.push(empty);
		return lines;
	}
}

/**
 * A container that indents its children by `paddingX`, adds `paddingY` blank lines above and below, pads every line
 * to the width and paints it with the background function. No children (or no child lines) renders nothing. The
 * result is reused while the children's lines, the width and the background (sampled) stay the same.
 */
export class Box implements Component {
	children: Component[] = [];
	private cache: { width: number; childLines: string[]; bgSample: string | undefined; lines: string[] } | undefined;

	constructor(
		private paddingX = 1,
		private paddingY = 1,
		private bgFn?: (text: string) => string,
	) {}

	addChild(component: Component): void {
		this.children.push(component);
		this.cache = undefined;
	}

	removeChild(component: Component): void {
		const index = this.children.indexOf(component);
		if (index === -1) return;
		this.children.splice(index, 1);
		this.cache = undefined;
	}

	clear(): void {
		this.children = [];
		this.cache = undefined;
	}

	/** A new background shows on the next render (the cache notices a different sample). */
	setBgFn(bgFn?: (text: string) => string): void {
		this.bgFn = bgFn;
	}

	invalidate(): void {
		this.cache = undefined;
		this.fast = undefined;
		for (const child of this.children) child.invalidate?.();
	}

	render(width: number): string[] {
		if (this.children.length === 0) return [];
		const contentWidth = Math.max(1, width - this.paddingX * 2);
		// Every child handed back the very arrays of the last frame: nothing to re-pad or compare.
		const arrays = this.children.map((child) => child.render(contentWidth));
		const fast = this.fast;
		const bgNow = this.bgFn ? this.bgFn("test") : undefined;
		if (
			fast &&
			fast.width === width &&
			fast.bgSample === bgNow &&
			fast.arrays.length === arrays.length &&
			fast.arrays.every((array, i) => array === arrays[i])
		) {
			return fast.lines;
		}
		const lines = this.renderFrom(arrays, width, bgNow);
		this.fast = { width, bgSample: bgNow, arrays, lines };
		return lines;
	}

	private fast: { width: number; bgSample: string | undefined; arrays: string[][]; lines: string[] } | undefined;

	private renderFrom(arrays: string[][], width: number, bgSample: string | undefined): string[] {
		const indent = " ".repeat(Math.max(0, this.paddingX));
		const childLines: string[] = [];
		for (const array of arrays) for (const line of array) childLines.push(indent + line);
		if (childLines.length === 0) return [];
		const cache = this.cache;
		if (
			cache &&
			cache.width === width &&
			cache.bgSample === bgSample &&
			cache.childLines.length === childLines.length &&
			cache.childLines.every((line, i) => line === childLines[i])
		) {
			return cache.lines;
		}
		const lines: string[] = [];
		for (let i = 0; i < this.paddingY; i++) lines.push(this.finish("", width));
		for (const line of childLines) lines.push(this.finish(line, width));
		for (let i = 0; i < this.paddingY; i++) lines.push(this.finish("", width));
		this.cache = { width, childLines, bgSample, lines };
		return lines;
	}

	/** A mouse event inside the padding goes nowhere; inside the content, to the child under the pointer. */
	handleMouse(event: TuiMouseEvent): TuiMouseDispatchResult | undefined {
		const contentWidth = Math.max(1, event.width - this.paddingX * 2);
		const x = event.x - this.paddingX;
		const y = event.y - this.paddingY;
		if (x < 0 || x >= contentWidth || y < 0) return undefined;
		return dispatchToChildren(this.children, { ...event, x, y, width: contentWidth, height: Number.MAX_SAFE_INTEGER });
	}

	private finish(line: string, width: number): string {
		const padded = fill(line, width);
		return this.bgFn ? this.bgFn(padded) : padded;
	}
}
