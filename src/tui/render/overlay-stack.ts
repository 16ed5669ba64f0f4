/**
 * The overlays shown over a TUI and who has keyboard focus. A focused overlay that loses focus to something else
 * (a component it opened, say) takes it back once that component lets go, unless it was hidden, unfocused or
 * removed in between.
 */
import { Container } from "../basic.ts";
import { dispatchMouseEvent, type TuiMouseDispatchResult } from "../mouse/dispatch.ts";
import type {
	Component,
	OverlayBounds,
	OverlayHandle,
	OverlayOptions,
	OverlayUnfocusOptions,
	TuiMouseEvent,
} from "../types.ts";
import { isFocusable } from "../types.ts";
import type { OverlayDraw } from "./frame.ts";

export interface OverlayEntry {
	component: Component;
	options: OverlayOptions | undefined;
	/** Who had focus when the overlay was shown (focus goes back there). */
	preFocus: Component | null;
	hidden: boolean;
	/** Later focus = drawn on top. */
	focusOrder: number;
	bounds: OverlayBounds | undefined;
}

/** An overlay that should get focus back; `blockedBy` holds focus meanwhile; `resume` says what happens next. */
type Restore =
	| { overlay: OverlayEntry; blockedBy?: undefined }
	| { overlay: OverlayEntry; blockedBy: Component | null; resume: { target: Component | null } | "overlay" };

/** What the stack needs from its TUI. */
export interface OverlayHost {
	size(): { columns: number; rows: number };
	roots(): readonly Component[];
	requestRender(): void;
	hideCursor(): void;
}

function contains(root: Component, target: Component): boolean {
	if (root === target) return true;
	return root instanceof Container && root.children.some((child) => contains(child, target));
}

export class OverlayStack {
	readonly entries: OverlayEntry[] = [];
	focused: Component | null = null;
	private order = 0;
	private restore: Restore | undefined;

	constructor(private readonly host: OverlayHost) {}

	isVisible(entry: OverlayEntry): boolean {
		if (entry.hidden) return false;
		const visible = entry.options?.visible;
		if (!visible) return true;
		const { columns, rows } = this.host.size();
		return visible(columns, rows);
	}

	/** The capturing visible overlay drawn on top, if any. */
	topmost(): OverlayEntry | undefined {
		let top: OverlayEntry | undefined;
		for (const entry of this.entries) {
			if (entry.options?.nonCapturing || !this.isVisible(entry)) continue;
			if (!top || entry.focusOrder > top.focusOrder) top = entry;
		}
		return top;
	}

	private visibleEntryOf(component: Component | null): OverlayEntry | undefined {
		return component ? this.entries.find((e) => e.component === component && this.isVisible(e)) : undefined;
	}

	private liveRestore(): Restore | undefined {
		const r = this.restore;
		return r && this.entries.includes(r.overlay) && this.isVisible(r.overlay) ? r : undefined;
	}

	private clearRestoreFor(entry: OverlayEntry): void {
		if (this.restore?.overlay === entry) this.restore = undefined;
	}

	private resume(r: Restore & { blockedBy: Component | null }): Component | null {
		if (r.resume === "overlay") return r.overlay.component;
		this.restore = undefined;
		return r.resume.target;
	}

	/** Is `component` in the chain of components focused before `entry` was shown? */
	private isPreFocusOf(entry: OverlayEntry, component: Component): boolean {
		const seen = new Set<Component>();
		let current = entry.preFocus;
		while (current && !seen.has(current)) {
			seen.add(current);
			if (current === component) return true;
			current = this.entries.find((e) => e.component === current)?.preFocus ?? null;
		}
		return false;
	}

	private isMounted(component: Component): boolean {
		return this.host.roots().some((root) => contains(root, component));
	}

	/** Move keyboard focus; `keepRestore` keeps a pending overlay restore when focus is cleared internally. */
	setFocus(component: Component | null, keepRestore = false): void {
		const previous = this.focused;
		let next = component;
		const previousOverlay = this.visibleEntryOf(previous);
		const restore = this.liveRestore();
		if (next && !this.entries.some((e) => e.component === next)) {
			if (restore?.blockedBy !== undefined && restore.blockedBy === previous) {
				if (restore.resume !== "overlay" || !this.isMounted(restore.blockedBy as Component)) {
					next = this.resume(restore);
				} else {
					this.restore = { overlay: restore.overlay, blockedBy: next, resume: restore.resume };
				}
			} else if (previousOverlay && restore?.overlay === previousOverlay && !this.isPreFocusOf(previousOverlay, next)) {
				this.restore = { overlay: previousOverlay, blockedBy: next, resume: "overlay" };
			}
		} else if (next === null) {
			if (restore?.blockedBy !== undefined && restore.blockedBy === previous) next = this.resume(restore);
			else if (!keepRestore) this.restore = undefined;
		}
		if (isFocusable(this.focused)) this.focused.focused = false;
		this.focused = next;
		if (isFocusable(next)) next.focused = true;
		const focusedOverlay = this.visibleEntryOf(next);
		if (focusedOverlay) this.restore = { overlay: focusedOverlay };
	}

	/** Before keyboard input is delivered: fix focus on an overlay that became invisible, or give it back. */
	settleFocusForInput(): void {
		const focusedEntry = this.entries.find((e) => e.component === this.focused);
		if (focusedEntry && !this.isVisible(focusedEntry)) {
			const top = this.topmost();
			if (top) this.setFocus(top.component);
			else this.setFocus(focusedEntry.preFocus, true);
		}
		if (this.entries.some((e) => e.component === this.focused)) return;
		const restore = this.liveRestore();
		if (!restore) return;
		if (restore.blockedBy === undefined) this.setFocus(restore.overlay.component);
		else if (restore.blockedBy !== this.focused) {
			if (restore.resume === "overlay") this.setFocus(restore.overlay.component);
			else {
				this.restore = undefined;
				this.setFocus(restore.resume.target);
			}
		}
	}

	private remove(entry: OverlayEntry): void {
		this.clearRestoreFor(entry);
		for (const other of this.entries)
			if (other !== entry && other.preFocus === entry.component) other.preFocus = entry.preFocus;
		this.entries.splice(this.entries.indexOf(entry), 1);
		if (this.focused === entry.component) this.setFocus(this.topmost()?.component ?? entry.preFocus);
		if (this.entries.length === 0) this.host.hideCursor();
		this.host.requestRender();
	}

	show(component: Component, options?: OverlayOptions): OverlayHandle {
		const entry: OverlayEntry = {
			component,
			options,
			preFocus: this.focused,
			hidden: false,
			focusOrder: ++this.order,
			bounds: undefined,
		};
		this.entries.push(entry);
		if (!options?.nonCapturing && this.isVisible(entry)) this.setFocus(component);
		this.host.hideCursor();
		this.host.requestRender();
		const present = (): boolean => this.entries.includes(entry);
		return {
			hide: () => {
				if (present()) this.remove(entry);
			},
			setHidden: (hidden: boolean) => {
				if (entry.hidden === hidden) return;
				entry.hidden = hidden;
				if (hidden) {
					this.clearRestoreFor(entry);
					if (this.focused === component) this.setFocus(this.topmost()?.component ?? entry.preFocus);
				} else if (!options?.nonCapturing && this.isVisible(entry)) {
					entry.focusOrder = ++this.order;
					this.setFocus(component);
				}
				this.host.requestRender();
			},
			isHidden: () => entry.hidden,
			focus: () => {
				if (!present() || !this.isVisible(entry)) return;
				entry.focusOrder = ++this.order;
				this.setFocus(component);
				this.host.requestRender();
			},
			unfocus: (unfocusOptions?: OverlayUnfocusOptions) => this.unfocus(entry, unfocusOptions),
			isFocused: () => this.focused === component,
			getBounds: () => (present() && this.isVisible(entry) && entry.bounds ? { ...entry.bounds } : undefined),
		};
	}

	private unfocus(entry: OverlayEntry, options: OverlayUnfocusOptions | undefined): void {
		const isFocused = this.focused === entry.component;
		const restore = this.restore;
		if (!isFocused && restore?.overlay !== entry) return;
		if (restore?.overlay === entry && restore.blockedBy !== undefined && this.focused === restore.blockedBy) {
			// Focus is held by someone else: change what happens when they let go.
			this.restore = options
				? { overlay: entry, blockedBy: restore.blockedBy, resume: { target: options.target } }
				: undefined;
			this.host.requestRender();
			return;
		}
		this.clearRestoreFor(entry);
		if (isFocused || options) {
			const top = this.topmost();
			this.setFocus(options ? options.target : top && top !== entry ? top.component : entry.preFocus);
		}
		this.host.requestRender();
	}

	/** Remove the overlay shown last. */
	hideTop(): void {
		const last = this.entries[this.entries.length - 1];
		if (last) this.remove(last);
	}

	hasVisible(): boolean {
		return this.entries.some((e) => this.isVisible(e));
	}

	isOverlayFocused(): boolean {
		return this.visibleEntryOf(this.focused) !== undefined;
	}

	/** Visible overlays bottom-most first, ready for the frame builder (bounds of the others are cleared). */
	draws(): OverlayDraw[] {
		for (const entry of this.entries) entry.bounds = undefined;
		return this.entries
			.filter((e) => this.isVisible(e))
			.sort((a, b) => a.focusOrder - b.focusOrder)
			.map((entry) => ({
				component: entry.component,
				options: entry.options,
				setBounds: (bounds: OverlayBounds) => {
					entry.bounds = bounds;
				},
			}));
	}

	/**
	 * Offer a mouse event to the top-most visible overlay under the pointer, in its local coordinates. `hit` says an
	 * overlay covers the cell (so what lies below must not get the event); `result` is what its handler answered.
	 */
	dispatchMouse(event: TuiMouseEvent): { hit: boolean; result?: TuiMouseDispatchResult } {
		const hits = this.entries
			.filter((e) => e.bounds !== undefined && this.isVisible(e))
			.sort((a, b) => b.focusOrder - a.focusOrder);
		for (const entry of hits) {
			const b = entry.bounds as OverlayBounds;
			const inside =
				event.screenX >= b.col &&
				event.screenX < b.col + b.width &&
				event.screenY >= b.row &&
				event.screenY < b.row + b.height;
			if (!inside) continue;
			const local = { ...event, x: event.screenX - b.col, y: event.screenY - b.row, width: b.width, height: b.height };
			const result = dispatchMouseEvent(entry.component, local);
			return result ? { hit: true, result } : { hit: true };
		}
		return { hit: false };
	}

	/** The overlay (drawn on top) containing `component`, or `component` itself. */
	focusOwnerOf(component: Component): Component {
		for (let i = this.entries.length - 1; i >= 0; i--) {
			const entry = this.entries[i] as OverlayEntry;
			if (this.isVisible(entry) && contains(entry.component, component)) return entry.component;
		}
		return component;
	}
}
