/**
 * Flex-like stacks: children laid out along one axis, each with an optional basis, grow/shrink weights, size limits
 * and a visibility predicate. Sizes are whole cells; free space and overflow are shared out in rounds so that
 * limits reached by one entry pass the rest to the others.
 */
import { Container } from "../basic.ts";
import type { Component } from "../types.ts";
import {
	LAYOUT_NODE,
	type LayoutViewport,
	type StackAlign,
	type StackLayoutEntry,
	type StackLayoutNode,
} from "./layout-node.ts";

export interface StackEntryOptions {
	basis?: number | "auto";
	grow?: number;
	shrink?: number;
	minSize?: number;
	maxSize?: number;
	visible?: (viewport: LayoutViewport) => boolean;
}

export interface StackEntry extends StackEntryOptions {
	component: Component;
}

export type StackChild = Component | StackEntry;

export interface StackOptions {
	gap?: number;
	align?: StackAlign;
}

const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** A non-negative whole number, or `fallback` for a missing or non-finite value. */
function cells(value: number | undefined, fallback: number): number {
	return value === undefined || !Number.isFinite(value) ? fallback : Math.max(0, Math.floor(value));
}

function isEntry(child: StackChild): child is StackEntry {
	return typeof (child as Partial<Component>).render !== "function";
}

export abstract class Stack extends Container {
	protected readonly entries: StackLayoutEntry[] = [];
	protected readonly gap: number;
	protected readonly align: StackAlign;
	protected abstract readonly layoutType: "vstack" | "hstack";

	constructor(children: StackChild[] = [], options: StackOptions = {}) {
		super();
		this.gap = cells(options.gap, 0);
		this.align = options.align ?? "stretch";
		for (const child of children) {
			if (isEntry(child)) this.addChild(child.component, child);
			else this.addChild(child);
		}
	}

	override addChild(component: Component, options: StackEntryOptions = {}): void {
		super.addChild(component);
		const entry: StackLayoutEntry = { component };
		if (options.basis !== undefined) entry.basis = options.basis;
		if (options.grow !== undefined) entry.grow = cells(options.grow, 0);
		if (options.shrink !== undefined) entry.shrink = cells(options.shrink, 1);
		if (options.minSize !== undefined) entry.minSize = cells(options.minSize, 0);
		if (options.maxSize !== undefined) entry.maxSize = cells(options.maxSize, UNLIMITED);
		if (options.visible !== undefined) entry.visible = options.visible;
		this.entries.push(entry);
	}

	override removeChild(component: Component): void {
		super.removeChild(component);
		const index = this.entries.findIndex((entry) => entry.component === component);
		if (index !== -1) this.entries.splice(index, 1);
	}

	override clear(): void {
		super.clear();
		this.entries.length = 0;
	}

	[LAYOUT_NODE](): StackLayoutNode {
		return { type: this.layoutType, entries: this.entries, gap: this.gap, align: this.align };
	}
}

export function visibleStackEntries(
	entries: readonly StackLayoutEntry[],
	viewport: LayoutViewport,
): StackLayoutEntry[] {
	return entries.filter((entry) => entry.visible?.(viewport) ?? true);
}

function clampToLimits(size: number, entry: StackLayoutEntry): number {
	const min = Math.max(0, Math.floor(entry.minSize ?? 0));
	const max = Math.max(min, Math.floor(entry.maxSize ?? UNLIMITED));
	return Math.min(max, Math.max(min, Math.max(0, Math.floor(size))));
}

/**
 * Hand out `amount` cells (grow) or take them back (shrink). Each round splits what is left by weight (grow weight,
 * or shrink weight × current size), at least one cell per candidate, bounded by its limits; rounds repeat until the
 * amount is used up or nobody can move.
 */
function share(sizes: number[], entries: readonly StackLayoutEntry[], amount: number, growing: boolean): void {
	const weightOf = (entry: StackLayoutEntry, size: number): number =>
		growing ? (entry.grow ?? 0) : (entry.shrink ?? 1) * Math.max(1, size);
	const roomOf = (entry: StackLayoutEntry, size: number): number =>
		growing ? (entry.maxSize ?? UNLIMITED) - size : size - (entry.minSize ?? 0);
	let left = amount;
	while (left > 0) {
		const movable: number[] = [];
		for (let i = 0; i < entries.length; i++) {
			const entry = entries[i] as StackLayoutEntry;
			const size = sizes[i] as number;
			const eligible = growing ? (entry.grow ?? 0) > 0 : (entry.shrink ?? 1) > 0;
			if (eligible && roomOf(entry, size) > 0) movable.push(i);
		}
		if (movable.length === 0) return;
		let totalWeight = 0;
		for (const i of movable) totalWeight += weightOf(entries[i] as StackLayoutEntry, sizes[i] as number);
		let moved = 0;
		for (const i of movable) {
			if (left <= 0) break;
			const entry = entries[i] as StackLayoutEntry;
			const size = sizes[i] as number;
			const wanted = Math.max(1, Math.floor((left * weightOf(entry, size)) / totalWeight));
			const step = Math.min(left, wanted, roomOf(entry, size));
			if (step <= 0) continue;
			sizes[i] = growing ? size + step : size - step;
			left -= step;
			moved += step;
		}
		if (moved === 0) return;
	}
}

/** Sizes along the stack's axis for `entries` whose natural sizes are `intrinsicSizes`, fitted to `availableSize`. */
export function allocateStackSizes(
	entries: readonly StackLayoutEntry[],
	intrinsicSizes: readonly number[],
	availableSize: number | undefined,
	gap: number,
): number[] {
	const sizes = entries.map((entry, i) =>
		clampToLimits(typeof entry.basis === "number" ? entry.basis : (intrinsicSizes[i] ?? 0), entry),
	);
	if (availableSize === undefined) return sizes;
	const room = Math.max(0, Math.floor(availableSize) - Math.max(0, entries.length - 1) * gap);
	const used = sizes.reduce((sum, size) => sum + size, 0);
	if (used < room) share(sizes, entries, room - used, true);
	else if (used > room) share(sizes, entries, used - room, false);
	return sizes;
}
