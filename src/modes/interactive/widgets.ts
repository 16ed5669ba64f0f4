/**
 * Extension widgets (`ctx.ui.setWidget`): two areas the app mounts, one right above the editor and one right below.
 * Widgets show in the order their keys were first set (setting a key again moves it to the end); string lines
 * become one wrapped Text each (1 column of padding), at most 10 then a muted `... (widget truncated)`; a factory
 * `(tui, theme) → component` is called once and its component disposed when replaced or removed. The area above
 * always starts with a blank line, even empty, as pi's does. A factory that throws, or a widget that throws while
 * drawing, is reported in one line through `onError` and leaves the rest on screen.
 */
import type { Theme } from "../../resources/index.ts";
import { type Component, Container, Text, type TUI } from "../../tui/index.ts";
import { theme as runTheme } from "./components/style.ts";
import type { ExtensionComponent, WidgetFactory, WidgetPlacement } from "./surface.ts";

export const MAX_WIDGET_LINES = 10;

/** One placement's widgets, keyed, in order. */
export class WidgetArea implements Component {
	private readonly widgets = new Map<string, ExtensionComponent>();

	/** `leadingBlank`: start with a blank line whether or not there are widgets (the area above the editor). */
	constructor(private readonly leadingBlank = false) {}

	keys(): string[] {
		return [...this.widgets.keys()];
	}

	has(key: string): boolean {
		return this.widgets.has(key);
	}

	/** Adds `component` at the end (removing and disposing a widget of the same key first). */
	set(key: string, component: ExtensionComponent): void {
		this.remove(key);
		this.widgets.set(key, component);
	}

	/** Removes and disposes the widget of `key`, if any; true when there was one. */
	remove(key: string): boolean {
		const existing = this.widgets.get(key);
		if (!existing) return false;
		this.widgets.delete(key);
		disposeQuietly(existing);
		return true;
	}

	/** Removes and disposes every widget. */
	clear(): void {
		for (const key of [...this.widgets.keys()]) this.remove(key);
	}

	render(width: number): string[] {
		const lines: string[] = this.leadingBlank ? [""] : [];
		for (const widget of this.widgets.values()) lines.push(...widget.render(width));
		return lines;
	}

	invalidate(): void {
		for (const widget of this.widgets.values()) widget.invalidate?.();
	}
}

/** Both areas, with `setWidget`'s semantics: a key lives in one placement at a time. */
export class ExtensionWidgets {
	readonly above = new WidgetArea(true);
	readonly below = new WidgetArea(false);

	constructor(
		private readonly tui: TUI,
		private readonly onError: (message: string) => void,
		private readonly theme: () => Theme = runTheme,
	) {}

	/** Lines or a factory; undefined removes. Redraws. */
	set(key: string, content: string[] | WidgetFactory | undefined, placement: WidgetPlacement = "aboveEditor"): void {
		this.above.remove(key);
		this.below.remove(key);
		if (content !== undefined) {
			const component = this.build(key, content);
			if (component) (placement === "belowEditor" ? this.below : this.above).set(key, component);
		}
		this.tui.requestRender();
	}

	/** Removes and disposes every widget (reload, session switch). */
	clear(): void {
		this.above.clear();
		this.below.clear();
		this.tui.requestRender();
	}

	private build(key: string, content: string[] | WidgetFactory): ExtensionComponent | undefined {
		if (Array.isArray(content)) return linesWidget(content, this.theme());
		try {
			const component = content(this.tui as never, this.theme());
			if (!component || typeof component.render !== "function")
				throw new Error("the factory did not return a component");
			return new GuardedWidget(component, (error) =>
				this.onError(`Widget "${key}" failed to render: ${oneLine(error)}`),
			);
		} catch (error) {
			this.onError(`Widget "${key}" failed: ${oneLine(error)}`);
			return undefined;
		}
	}
}

function linesWidget(lines: string[], theme: Theme): ExtensionComponent {
	const container = new Container();
	for (const line of lines.slice(0, MAX_WIDGET_LINES)) container.addChild(new Text(String(line), 1, 0));
	if (lines.length > MAX_WIDGET_LINES) container.addChild(new Text(theme.fg("muted", "... (widget truncated)"), 1, 0));
	return container;
}

/** An extension's component that, once it throws while drawing, is reported once and draws nothing more. */
class GuardedWidget implements Component {
	private failed = false;

	constructor(
		private readonly inner: ExtensionComponent,
		private readonly report: (error: unknown) => void,
	) {}

	render(width: number): string[] {
		if (this.failed) return [];
		try {
			return this.inner.render(width);
		} catch (error) {
			this.failed = true;
			// told after the frame: the notice changes the screen being drawn
			queueMicrotask(() => this.report(error));
			return [];
		}
	}

	invalidate(): void {
		try {
			this.inner.invalidate?.();
		} catch {
			// drawing will tell
		}
	}

	dispose(): void {
		disposeQuietly(this.inner);
	}
}

function disposeQuietly(component: ExtensionComponent): void {
	try {
		component.dispose?.();
	} catch {
		// a widget failing to clean up does not keep it on screen
	}
}

/** An error as one line: its message (first line), else its text. */
export function oneLine(error: unknown): string {
	const text = error instanceof Error ? error.message : String(error);
	return text.split("\n")[0]?.trim() || "unknown error";
}
