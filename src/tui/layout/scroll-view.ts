/**
 * ScrollView: a vertical viewport over one child. The fullscreen layout frame gives it a height, tells it the
 * content height each frame (updateLayout) and paints the visible slice plus an optional scrollbar. Outside a
 * layout frame it renders its child in full.
 */
import { Container } from "../basic.ts";
import type { Component } from "../types.ts";
import { LAYOUT_NODE, type ScrollLayoutNode } from "./layout-node.ts";

export type ScrollViewScrollbar = "hidden" | "auto" | "always";

export interface ScrollViewOptions {
	axis?: "vertical";
	/** "end": stick to the bottom while the view is at its end (a transcript); "none": keep the offset. */
	follow?: "none" | "end";
	/** The view the renderer's Page Up/Down, Home/End and unhandled wheel scroll. */
	primary?: boolean;
	/** "chain": wheel scrolling left over at an edge moves the enclosing view; "contain": it stops here. */
	overscroll?: "chain" | "contain";
	/** "auto" shows the bar briefly after scrolling (and while hovered); "always" reserves the last column. */
	scrollbar?: ScrollViewScrollbar;
	scrollbarTrackStyle?: (text: string) => string;
	scrollbarThumbStyle?: (text: string) => string;
	scrollbarHideDelayMs?: number;
}

export interface ScrollViewScrollToOptions {
	/** Stay detached from the end even when the target is the end. */
	disableFollow?: boolean;
}

export class ScrollView extends Container {
	private readonly child: Component;
	readonly followEnd: boolean;
	readonly primary: boolean;
	readonly overscroll: "chain" | "contain";
	readonly scrollbarTrackStyle: (text: string) => string;
	readonly scrollbarThumbStyle: (text: string) => string;
	private bar: ScrollViewScrollbar;
	private readonly hideDelayMs: number;
	private top = 0;
	private contentHeight = 0;
	private viewport = 0;
	private following: boolean;
	/** Set by scrollTo(end, {disableFollow}) until the view leaves the end. */
	private followSuppressed = false;
	private requestRenderCallback: (() => void) | undefined;
	private barShown = false;
	private barActive = false;
	private hideTimer: ReturnType<typeof setTimeout> | undefined;

	constructor(component: Component, options: ScrollViewOptions = {}) {
		super();
		if (options.axis !== undefined && options.axis !== "vertical") {
			throw new Error(`Unsupported ScrollView axis: ${String(options.axis)}`);
		}
		this.child = component;
		this.children.push(component);
		this.followEnd = options.follow === "end";
		this.following = this.followEnd;
		this.primary = options.primary ?? false;
		this.overscroll = options.overscroll ?? "chain";
		this.bar = options.scrollbar ?? "hidden";
		this.scrollbarTrackStyle = options.scrollbarTrackStyle ?? ((text) => `\x1b[90m${text}\x1b[39m`);
		this.scrollbarThumbStyle = options.scrollbarThumbStyle ?? ((text) => `\x1b[37m${text}\x1b[39m`);
		this.hideDelayMs = Math.max(0, Math.floor(options.scrollbarHideDelayMs ?? 1000));
	}

	get scrollTop(): number {
		return this.top;
	}
	get isFollowingEnd(): boolean {
		return this.following;
	}
	get viewportHeight(): number {
		return this.viewport;
	}
	get scrollbar(): ScrollViewScrollbar {
		return this.bar;
	}
	get isScrollbarVisible(): boolean {
		if (this.bar === "always") return this.viewport > 0;
		return this.bar === "auto" && this.contentHeight > this.viewport && this.barShown;
	}
	get isScrollbarActive(): boolean {
		return this.barActive;
	}

	private get maxScrollTop(): number {
		return Math.max(0, this.contentHeight - this.viewport);
	}

	setScrollbar(scrollbar: ScrollViewScrollbar): void {
		if (scrollbar === this.bar) return;
		this.bar = scrollbar;
		if (scrollbar !== "auto") this.hideBar();
		else if (this.barActive) this.revealBar();
		this.requestRenderCallback?.();
	}

	getContentWidth(width: number): number {
		return this.bar === "always" && width > 1 ? width - 1 : width;
	}

	/** Show an "auto" bar; it hides after the delay unless the pointer is on it. */
	private revealBar(): void {
		if (this.bar !== "auto" || this.contentHeight <= this.viewport) return;
		this.barShown = true;
		if (this.hideTimer) clearTimeout(this.hideTimer);
		this.hideTimer = undefined;
		if (this.barActive) return;
		const timer = setTimeout(() => {
			this.hideTimer = undefined;
			this.barShown = false;
			this.requestRenderCallback?.();
		}, this.hideDelayMs);
		(timer as { unref?: () => void }).unref?.();
		this.hideTimer = timer;
	}

	private hideBar(): void {
		this.barShown = false;
		if (this.hideTimer) clearTimeout(this.hideTimer);
		this.hideTimer = undefined;
	}

	/** Hovered or dragged by the pointer: an "auto" bar stays visible and the thumb is drawn solid. */
	setScrollbarActive(active: boolean): void {
		if (active === this.barActive) return;
		this.barActive = active;
		this.revealBar();
		this.requestRenderCallback?.();
	}

	scrollTo(scrollTop: number, options: ScrollViewScrollToOptions = {}): void {
		const wanted = Number.isFinite(scrollTop) ? Math.trunc(scrollTop) : this.top;
		const max = this.maxScrollTop;
		const next = Math.max(0, Math.min(max, wanted));
		const suppressed = options.disableFollow === true && next === max;
		const following = !suppressed && this.followEnd && next === max;
		if (next === this.top && following === this.following && suppressed === this.followSuppressed) return;
		const moved = next !== this.top;
		this.top = next;
		this.following = following;
		this.followSuppressed = suppressed;
		if (moved) this.revealBar();
		this.requestRenderCallback?.();
	}

	/** Scroll by `lines` (negative = up); returns the part that could not be scrolled (for chaining). */
	scrollBy(lines: number): number {
		const wanted = Number.isFinite(lines) ? Math.trunc(lines) : 0;
		if (wanted === 0) return 0;
		const max = this.maxScrollTop;
		const from = this.following ? max : this.top;
		const next = Math.max(0, Math.min(max, from + wanted));
		const moved = next - from;
		const wasFollowing = this.following;
		this.top = next;
		this.following = this.followEnd && next === max;
		this.followSuppressed = false;
		if (moved !== 0) this.revealBar();
		if (moved !== 0 || this.following !== wasFollowing) this.requestRenderCallback?.();
		return wanted - moved;
	}

	scrollToStart(): void {
		const following = this.followEnd && this.contentHeight <= this.viewport;
		const changed = this.top !== 0 || this.following !== following;
		this.top = 0;
		this.following = following;
		this.followSuppressed = false;
		if (!changed) return;
		this.revealBar();
		this.requestRenderCallback?.();
	}

	scrollToEnd(): void {
		const next = this.maxScrollTop;
		const changed = this.top !== next || this.following !== this.followEnd;
		this.top = next;
		this.following = this.followEnd;
		this.followSuppressed = false;
		if (!changed) return;
		this.revealBar();
		this.requestRenderCallback?.();
	}

	/** Called by the layout frame with this frame's sizes; clamps the offset and keeps following the end. */
	updateLayout(contentHeight: number, viewportHeight: number, requestRender: () => void): void {
		this.contentHeight = Math.max(0, Math.floor(contentHeight));
		this.viewport = Math.max(0, Math.floor(viewportHeight));
		this.requestRenderCallback = requestRender;
		const max = this.maxScrollTop;
		this.top = this.following ? max : Math.max(0, Math.min(this.top, max));
		if (this.top < max) this.followSuppressed = false;
		if (this.followEnd && this.top === max && !this.followSuppressed) this.following = true;
		if (this.contentHeight <= this.viewport) this.hideBar();
	}

	override addChild(_component: Component): void {
		throw new Error("ScrollView has exactly one child");
	}
	override removeChild(_component: Component): void {
		throw new Error("ScrollView child cannot be removed");
	}
	override clear(): void {
		throw new Error("ScrollView child cannot be cleared");
	}

	override render(width: number): string[] {
		const contentWidth = this.getContentWidth(width);
		const lines = this.child.render(contentWidth);
		return contentWidth === width ? lines : lines.map((line) => `${line} `);
	}

	[LAYOUT_NODE](): ScrollLayoutNode {
		return { type: "scroll", component: this.child, state: this };
	}
}
