/**
 * A custom session entry (`pi.appendEntry`) drawn by its extension's entry renderer, after a blank line. A renderer
 * that returns nothing shows nothing; one that throws shows "[type] renderer failed: <reason>" in a box on the
 * custom-message background.
 */
import { Box, type Component, Container, Spacer, Text } from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import { theme } from "../components/style.ts";
import type { CustomEntryLike, EntryRenderer } from "./types.ts";

export class CustomEntryComponent extends Container {
	private readonly entry: CustomEntryLike;
	private readonly renderer: EntryRenderer;
	private customComponent: Component | undefined;
	private expanded = false;

	constructor(entry: CustomEntryLike, renderer: EntryRenderer) {
		super();
		this.entry = entry;
		this.renderer = renderer;
		this.rebuild();
	}

	/** Whether the renderer drew anything (an entry without content is left out of the chat). */
	hasContent(): boolean {
		return this.customComponent !== undefined;
	}

	setExpanded(expanded: boolean): void {
		if (this.expanded === expanded) return;
		this.expanded = expanded;
		this.rebuild();
	}

	override invalidate(): void {
		super.invalidate();
		this.rebuild();
	}

	private rebuild(): void {
		this.clear();
		this.customComponent = undefined;
		let component: Component | undefined;
		try {
			component = this.renderer(this.entry, { expanded: this.expanded }, theme());
		} catch (error) {
			const box = new Box(1, 1, (text) => theme().bg("customMessageBg", text));
			const text = `[${this.entry.customType}] renderer failed: ${errorMessage(error)}`;
			box.addChild(new Text(theme().fg("error", text), 0, 0));
			component = box;
		}
		if (!component) return;
		this.customComponent = component;
		this.addChild(new Spacer(1));
		this.addChild(component);
	}
}
