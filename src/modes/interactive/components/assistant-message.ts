/**
 * An assistant message in the transcript: text as Markdown, thinking runs in the thinking colour (or one italic
 * label while thinking is hidden), and a closing line for a truncated, aborted or failed reply. `updateContent` is
 * called again with each streamed revision of the message.
 */
import { Markdown, type MarkdownTheme, Spacer, Text } from "../../../tui/index.ts";
import { StableContainer } from "./stable-lines.ts";
import { defaultMarkdownTheme, type MarkdownTransformer, markdownTransform, theme } from "./style.ts";
import { markZone } from "./user-message.ts";

/** The parts of an assistant message the transcript draws. */
export interface AssistantMessageLike {
	content: ReadonlyArray<{ type: string; text?: string; thinking?: string }>;
	stopReason?: string;
	errorMessage?: string;
}

/** Some character that `trim()` keeps (found without copying a long streamed text). */
const NOT_BLANK = /\S/;
const visible = (block: { type: string; text?: string; thinking?: string }): boolean =>
	(block.type === "text" && NOT_BLANK.test(block.text ?? "")) ||
	(block.type === "thinking" && NOT_BLANK.test(block.thinking ?? ""));

function hasVisibleAfter(blocks: AssistantMessageLike["content"], index: number): boolean {
	for (let i = index + 1; i < blocks.length; i++) if (visible(blocks[i] as (typeof blocks)[number])) return true;
	return false;
}

export class AssistantMessageComponent extends StableContainer {
	private readonly contentContainer = new StableContainer();
	private hideThinkingBlock: boolean;
	private readonly markdownTheme: MarkdownTheme;
	private hiddenThinkingLabel: string;
	private outputPad: number;
	private readonly markdownTransformers: MarkdownTransformer[];
	private lastMessage: AssistantMessageLike | undefined;
	private hasToolCalls = false;
	private isStreaming = false;
	/** Thinking runs the user toggled, by their index in the message. */
	private readonly thinkingOverrides = new Map<number, boolean>();
	/**
	 * The Markdown of each text block and each shown thinking run, by order, while a reply streams: a revision that
	 * only extends a block gives its text to the same component, whose lexer then reads again only from the block's
	 * last paragraph on (finished paragraphs keep their wrapped lines). Dropped when anything but the text changes.
	 */
	private reused: { texts: Markdown[]; thinking: Markdown[] } = { texts: [], thinking: [] };
	private reuseFor: boolean | undefined;
	/** Set by the transcript while it keeps this message's lines frozen: told when a call here changes them. */
	onSettledChange: (() => void) | undefined;

	constructor(
		message?: AssistantMessageLike,
		hideThinkingBlock = false,
		markdownTheme: MarkdownTheme = defaultMarkdownTheme(),
		hiddenThinkingLabel = "Thinking...",
		outputPad = 1,
		markdownTransformers: MarkdownTransformer[] = [],
	) {
		super();
		this.hideThinkingBlock = hideThinkingBlock;
		this.markdownTheme = markdownTheme;
		this.hiddenThinkingLabel = hiddenThinkingLabel;
		this.outputPad = outputPad;
		this.markdownTransformers = markdownTransformers;
		this.addChild(this.contentContainer);
		if (message) this.updateContent(message);
	}

	override invalidate(): void {
		super.invalidate();
		this.reused = { texts: [], thinking: [] };
		this.redraw();
	}

	/** Settled once it no longer streams (the transcript may freeze its lines). */
	isSettled(): boolean {
		return !this.isStreaming;
	}

	setHideThinkingBlock(hide: boolean): void {
		this.hideThinkingBlock = hide;
		this.thinkingOverrides.clear();
		this.redraw();
	}

	setHiddenThinkingLabel(label: string): void {
		this.hiddenThinkingLabel = label;
		this.redraw();
	}

	setOutputPad(padding: number): void {
		this.outputPad = padding;
		this.redraw();
		this.onSettledChange?.();
	}

	/** Shows or hides one thinking run (by its order in the message), as a click on it does in pi. */
	toggleThinkingRun(runIndex: number): void {
		const hidden = this.thinkingOverrides.get(runIndex) ?? this.hideThinkingBlock;
		this.thinkingOverrides.set(runIndex, !hidden);
		this.redraw();
		this.onSettledChange?.();
	}

	protected override finish(lines: string[]): string[] {
		return this.hasToolCalls ? lines : markZone(lines);
	}

	private redraw(): void {
		this.reused = { texts: [], thinking: [] };
		if (this.lastMessage) this.updateContent(this.lastMessage);
	}

	updateContent(message: AssistantMessageLike, isStreaming = this.isStreaming): void {
		this.lastMessage = message;
		this.isStreaming = isStreaming;
		// Components are reused only while the reply streams (a finished reply is drawn afresh once).
		const previous = this.reuseFor === isStreaming && isStreaming ? this.reused : { texts: [], thinking: [] };
		this.reused = { texts: [], thinking: [] };
		this.reuseFor = isStreaming;
		const box = this.contentContainer;
		box.clear();
		const blocks = message.content;
		if (blocks.some(visible)) box.addChild(new Spacer(1));
		let runIndex = 0;
		for (let i = 0; i < blocks.length; i++) {
			const block = blocks[i] as AssistantMessageLike["content"][number];
			if (block.type === "text" && NOT_BLANK.test(block.text ?? "")) {
				const text = (block.text ?? "").trim();
				const old = previous.texts[this.reused.texts.length];
				let markdown: Markdown;
				if (old) {
					old.setText(text);
					markdown = old;
				} else {
					const transform = markdownTransform("assistant", this.isStreaming, this.markdownTransformers);
					markdown = new Markdown(text, this.outputPad, 0, this.markdownTheme, undefined, { transform });
				}
				this.reused.texts.push(markdown);
				box.addChild(markdown);
			} else if (block.type === "thinking") {
				const parts: string[] = [];
				for (; i < blocks.length && blocks[i]?.type === "thinking"; i++) {
					const part = blocks[i]?.thinking?.trim();
					if (part) parts.push(part);
				}
				i--;
				if (parts.length === 0) continue;
				const run = runIndex++;
				const hidden = this.thinkingOverrides.get(run) ?? this.hideThinkingBlock;
				const old = hidden ? undefined : previous.thinking[this.reused.thinking.length];
				if (old) old.setText(parts.join("\n\n"));
				const component = old ?? this.thinkingComponent(parts, hidden);
				if (!hidden) this.reused.thinking.push(component as Markdown);
				box.addChild(component);
				if (hasVisibleAfter(blocks, i)) box.addChild(new Spacer(1));
			}
		}
		this.hasToolCalls = blocks.some((block) => block.type === "toolCall");
		const closing = this.closingLine(message);
		if (closing) {
			box.addChild(new Spacer(1));
			box.addChild(new Text(theme().fg("error", closing), this.outputPad, 0));
		}
	}

	private thinkingComponent(parts: string[], hidden: boolean): Text | Markdown {
		if (hidden)
			return new Text(theme().italic(theme().fg("thinkingText", this.hiddenThinkingLabel)), this.outputPad, 0);
		return new Markdown(
			parts.join("\n\n"),
			this.outputPad,
			0,
			this.markdownTheme,
			{ color: (text) => theme().fg("thinkingText", text), italic: true },
			{ transform: markdownTransform("assistant-thinking", this.isStreaming, this.markdownTransformers) },
		);
	}

	/** A truncated reply always says so; aborts and errors only when no tool call will show them. */
	private closingLine(message: AssistantMessageLike): string | undefined {
		if (message.stopReason === "length") return "Response was truncated before completion.";
		if (this.hasToolCalls) return undefined;
		if (message.stopReason === "aborted") {
			const text = message.errorMessage;
			return text && text !== "Request was aborted" ? text : "Operation aborted";
		}
		if (message.stopReason === "error") return `Error: ${message.errorMessage || "Unknown error"}`;
		return undefined;
	}
}
