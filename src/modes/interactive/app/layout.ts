/**
 * The screen, top to bottom (pi's regular layout): header, loaded resources, chat, pending messages, the status
 * row (only when the editor does not draw the working indicator itself), widgets above the editor, the editor slot
 * (the editor, or a dialog / selector / custom component in its place), widgets below, footer.
 */
import { type Component, Container, type EditorComponent, type TuiBase } from "../../../tui/index.ts";
import type { ChatTranscript } from "../transcript/index.ts";

export class AppLayout {
	readonly header = new Container();
	readonly resources = new Container();
	readonly pending = new Container();
	readonly statusRow = new Container();
	readonly widgetsAbove = new Container();
	readonly editorSlot = new Container();
	readonly widgetsBelow = new Container();
	readonly footer = new Container();
	/** What currently occupies the editor slot. */
	private slotComponent: Component;
	/** The editor the slot returns to. */
	private editorComponent: EditorComponent & Component;
	private replacement = 0;

	constructor(
		private readonly tui: TuiBase,
		readonly chat: ChatTranscript,
		editor: EditorComponent & Component,
	) {
		this.editorComponent = editor;
		this.slotComponent = editor;
		this.editorSlot.addChild(editor);
	}

	mount(): void {
		for (const part of [
			this.header,
			this.resources,
			this.chat,
			this.pending,
			this.statusRow,
			this.widgetsAbove,
			this.editorSlot,
			this.widgetsBelow,
			this.footer,
		]) {
			this.tui.addChild(part);
		}
	}

	get editor(): EditorComponent & Component {
		return this.editorComponent;
	}

	/** Swaps in another editor (setEditorComponent); keeps the slot if a dialog is up. */
	setEditor(editor: EditorComponent & Component): void {
		const showing = this.slotComponent === this.editorComponent;
		this.editorComponent = editor;
		if (showing) this.show(editor);
	}

	isEditorShown(): boolean {
		return this.slotComponent === this.editorComponent;
	}

	/**
	 * Puts `component` in the editor's place and focuses it; the returned function restores the editor with the
	 * text it had. Only the latest replacement's restore does anything.
	 */
	replaceEditor(component: Component): () => void {
		const text = this.editorComponent.getText();
		const ticket = ++this.replacement;
		this.show(component);
		return () => {
			if (ticket !== this.replacement) return;
			this.replacement++;
			this.editorComponent.setText(text);
			this.show(this.editorComponent);
		};
	}

	/** Puts the editor back now, whatever replaced it (earlier restore functions then do nothing). */
	showEditor(): void {
		this.replacement++;
		this.show(this.editorComponent);
	}

	private show(component: Component): void {
		this.editorSlot.clear();
		this.editorSlot.addChild(component);
		this.slotComponent = component;
		this.tui.setFocus(component);
		this.tui.requestRender();
	}

	setFooter(component: Component): void {
		this.footer.clear();
		this.footer.addChild(component);
		this.tui.requestRender();
	}
}
