/**
 * A small but real `InteractiveSurface` for tests of `ctx.ui`: a TuiMainScreen on a VirtualTerminal with pi's
 * layout in miniature — chat (notices land there), widgets above, the editor slot, widgets below, a footer line of
 * statuses — and a real Editor. What the app would do elsewhere (themes, working indicator, autocomplete) is
 * recorded in fields the tests read.
 */

import { defaultEditorTheme } from "../../src/modes/interactive/dialogs/index.ts";
import type {
	AutocompleteWrapper,
	EditorFactory,
	FooterFactory,
	HeaderFactory,
	InteractiveSurface,
	NotifyType,
	WidgetFactory,
	WidgetPlacement,
	WorkingIndicatorOptions,
} from "../../src/modes/interactive/surface.ts";
import { ExtensionWidgets } from "../../src/modes/interactive/widgets.ts";
import { currentTheme, type Theme } from "../../src/resources/index.ts";
import {
	type Component,
	Container,
	Editor,
	type EditorTheme,
	KeybindingsManager,
	type OverlayHandle,
	type OverlayOptions,
	Spacer,
	Text,
	TUI_KEYBINDINGS,
	type TuiInputListener,
	TuiMainScreen,
} from "../../src/tui/index.ts";
import { VirtualTerminal } from "./screen.ts";

export class TestSurface implements InteractiveSurface {
	readonly term: VirtualTerminal;
	readonly tui: TuiMainScreen;
	readonly keybindings = new KeybindingsManager(TUI_KEYBINDINGS);
	readonly chat = new Container();
	readonly editorSlot = new Container();
	readonly footer = new Text("", 0, 0);
	readonly editor: Editor;
	readonly widgets: ExtensionWidgets;
	/** Everything notify() was told, as shown. */
	readonly notices: string[] = [];
	readonly statuses = new Map<string, string>();
	readonly recorded: Record<string, unknown> = {};
	private occupant: object | undefined;
	private toolsExpanded = false;

	constructor(columns = 60, rows = 30) {
		this.term = new VirtualTerminal(columns, rows);
		this.tui = new TuiMainScreen(this.term);
		this.editor = new Editor(this.tui, this.editorTheme());
		this.widgets = new ExtensionWidgets(this.tui, (message) => this.notify(message, "error"));
		this.editorSlot.addChild(this.editor);
		for (const child of [this.chat, this.widgets.above, this.editorSlot, this.widgets.below, this.footer])
			this.tui.addChild(child);
		this.tui.setFocus(this.editor);
		this.tui.start();
	}

	/** The visible rows, right-trimmed, after drawing what is pending. */
	async screen(): Promise<string[]> {
		this.tui.renderNow();
		return (await this.term.screen()).lines.map((line) => line.trimEnd());
	}

	/** Keys as typed. */
	send(...keys: string[]): void {
		for (const key of keys) this.term.send(key);
	}

	dispose(): void {
		this.tui.stop();
		this.term.dispose();
	}

	theme(): Theme {
		return currentTheme();
	}
	editorTheme(): EditorTheme {
		return defaultEditorTheme();
	}
	requestRender(): void {
		this.tui.requestRender();
	}

	replaceEditor(component: Component): () => void {
		const token = {};
		const text = this.editor.getText();
		this.occupant = token;
		this.editorSlot.clear();
		this.editorSlot.addChild(component);
		this.tui.setFocus(component);
		this.tui.requestRender();
		return () => {
			if (this.occupant !== token) return;
			this.occupant = undefined;
			this.editorSlot.clear();
			this.editorSlot.addChild(this.editor);
			this.editor.setText(text);
			this.tui.setFocus(this.editor);
			this.tui.requestRender();
		};
	}
	showOverlay(component: Component, options?: OverlayOptions): OverlayHandle {
		return this.tui.showOverlay(component, options);
	}
	hideOverlay(): void {
		this.tui.hideOverlay();
	}

	notify(message: string, type: NotifyType = "info"): void {
		const t = this.theme();
		const text =
			type === "error"
				? t.fg("error", `Error: ${message}`)
				: type === "warning"
					? t.fg("warning", `Warning: ${message}`)
					: t.fg("dim", message);
		this.notices.push(type === "info" ? message : `${type === "error" ? "Error" : "Warning"}: ${message}`);
		this.chat.addChild(new Spacer(1));
		this.chat.addChild(new Text(text, 1, 0));
		this.tui.requestRender();
	}
	setStatus(key: string, text: string | undefined): void {
		if (text === undefined) this.statuses.delete(key);
		else this.statuses.set(key, text);
		this.footer.setText([...this.statuses.values()].join(" "));
		this.tui.requestRender();
	}
	setWidget(key: string, content: string[] | WidgetFactory | undefined, placement: WidgetPlacement): void {
		this.widgets.set(key, content, placement);
	}
	setFooter(factory: FooterFactory | undefined): void {
		this.recorded.footer = factory?.(this.tui, this.theme(), {});
	}
	setHeader(factory: HeaderFactory | undefined): void {
		this.recorded.header = factory?.(this.tui, this.theme());
	}
	setTitle(title: string): void {
		this.term.setTitle(title);
	}

	getEditorText(): string {
		return this.editor.getExpandedText?.() ?? this.editor.getText();
	}
	setEditorText(text: string): void {
		this.editor.setText(text);
	}
	pasteToEditor(text: string): void {
		this.editor.handleInput(`\x1b[200~${text}\x1b[201~`);
	}
	setEditorComponent(factory: EditorFactory | undefined): void {
		this.recorded.editorFactory = factory;
	}
	getEditorComponent(): EditorFactory | undefined {
		return this.recorded.editorFactory as EditorFactory | undefined;
	}
	addAutocompleteProvider(wrapper: AutocompleteWrapper): void {
		this.recorded.autocomplete = wrapper;
	}

	setWorkingMessage(message?: string): void {
		this.recorded.workingMessage = message;
	}
	setWorkingVisible(visible: boolean): void {
		this.recorded.workingVisible = visible;
	}
	setWorkingIndicator(options?: WorkingIndicatorOptions): void {
		this.recorded.workingIndicator = options;
	}
	setHiddenThinkingLabel(label?: string): void {
		this.recorded.hiddenThinkingLabel = label;
	}

	addInputListener(listener: TuiInputListener): () => void {
		return this.tui.addInputListener(listener);
	}

	getAllThemes(): { name: string; path: string | undefined }[] {
		return [
			{ name: "dark", path: undefined },
			{ name: "light", path: undefined },
		];
	}
	getTheme(name: string): Theme | undefined {
		return name === "dark" ? currentTheme() : undefined;
	}
	setTheme(theme: string | Theme): { success: boolean; error?: string } {
		this.recorded.theme = theme;
		return typeof theme === "string" && theme !== "dark"
			? { success: false, error: `Theme not found: ${theme}` }
			: { success: true };
	}

	getToolsExpanded(): boolean {
		return this.toolsExpanded;
	}
	setToolsExpanded(expanded: boolean): void {
		this.toolsExpanded = expanded;
		this.notify(`Tool output: ${expanded ? "expanded" : "collapsed"}`);
	}
}

const open: TestSurface[] = [];

/** A surface disposed by the next `disposeSurfaces()` (call it in afterEach). */
export function openSurface(columns = 60, rows = 30): TestSurface {
	const surface = new TestSurface(columns, rows);
	open.push(surface);
	return surface;
}

export function disposeSurfaces(): void {
	for (const surface of open.splice(0)) surface.dispose();
}

export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The visible screen as one string. */
export const joined = async (surface: TestSurface) => (await surface.screen()).join("\n");

/** Plain lines as a component; records input and disposal. */
export class Panel implements Component {
	received: string[] = [];
	disposed = 0;
	constructor(
		public lines: string[],
		public width?: number,
	) {}
	render(width: number): string[] {
		return this.lines.map((line) => line.slice(0, width));
	}
	handleInput(data: string): void {
		this.received.push(data);
	}
	invalidate(): void {}
	dispose(): void {
		this.disposed++;
	}
}
