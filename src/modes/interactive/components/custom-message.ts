/**
 * A message an extension added (`pi.sendMessage`). The extension's message renderer for its `customType` draws it
 * when there is one and it returns a component; otherwise a box on the custom-message background shows
 * "[customType]" and the text as Markdown.
 */
import { Box, type Component, Container, Markdown, type MarkdownTheme, Spacer, Text } from "../../../tui/index.ts";
import { boldLabel, defaultMarkdownTheme, type TranscriptTheme, theme } from "./style.ts";

export interface CustomMessageLike {
	customType: string;
	content: string | ReadonlyArray<{ type: string; text?: string }>;
	display?: boolean;
	details?: unknown;
}

/** An extension's `registerMessageRenderer` function. */
export type MessageRenderer<M extends CustomMessageLike = CustomMessageLike> = (
	message: M,
	options: { expanded: boolean; outputPad?: number },
	theme: TranscriptTheme,
) => Component | undefined;

export class CustomMessageComponent extends Container {
	private readonly message: CustomMessageLike;
	private readonly customRenderer: MessageRenderer | undefined;
	private readonly box: Box;
	private customComponent: Component | undefined;
	private readonly markdownTheme: MarkdownTheme;
	private expanded = false;
	private outputPad: number;

	constructor(
		message: CustomMessageLike,
		customRenderer?: MessageRenderer,
		markdownTheme: MarkdownTheme = defaultMarkdownTheme(),
		outputPad = 1,
	) {
		super();
		this.message = message;
		this.customRenderer = customRenderer;
		this.markdownTheme = markdownTheme;
		this.outputPad = outputPad;
		this.addChild(new Spacer(1));
		this.box = new Box(1, 1, (text) => theme().bg("customMessageBg", text));
		this.rebuild();
	}

	setExpanded(expanded: boolean): void {
		if (this.expanded === expanded) return;
		this.expanded = expanded;
		this.rebuild();
	}

	setOutputPad(outputPad: number): void {
		if (this.outputPad === outputPad) return;
		this.outputPad = outputPad;
		this.rebuild();
	}

	override invalidate(): void {
		super.invalidate();
		this.rebuild();
	}

	private rebuild(): void {
		if (this.customComponent) this.removeChild(this.customComponent);
		this.customComponent = undefined;
		this.removeChild(this.box);
		if (this.customRenderer) {
			try {
				const options = { expanded: this.expanded, outputPad: this.outputPad };
				const component = this.customRenderer(this.message, options, theme());
				if (component) {
					this.customComponent = component;
					this.addChild(component);
					return;
				}
			} catch {
				// a failing renderer gets the default box
			}
		}
		const t = theme();
		this.addChild(this.box);
		this.box.clear();
		this.box.addChild(new Text(t.fg("customMessageLabel", boldLabel(`[${this.message.customType}]`)), 0, 0));
		this.box.addChild(new Spacer(1));
		const content = this.message.content;
		const text =
			typeof content === "string"
				? content
				: content
						.filter((block) => block.type === "text")
						.map((block) => block.text)
						.join("\n");
		const color = (value: string) => theme().fg("customMessageText", value);
		this.box.addChild(new Markdown(text, 0, 0, this.markdownTheme, { color }));
	}
}
