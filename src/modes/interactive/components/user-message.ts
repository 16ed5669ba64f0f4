/** A user's prompt in the transcript: Markdown on the user-message background, marked as a shell-prompt zone. */
import { Box, Markdown, type MarkdownTheme } from "../../../tui/index.ts";
import { StableContainer } from "./stable-lines.ts";
import { defaultMarkdownTheme, type MarkdownTransformer, markdownTransform, theme } from "./style.ts";

/** OSC 133 prompt marks (start of zone, end of prompt, start of output) so terminals can jump between turns. */
export const ZONE_START = "\x1b]133;A\x07";
export const ZONE_END = "\x1b]133;B\x07\x1b]133;C\x07";

export class UserMessageComponent extends StableContainer {
	private readonly text: string;
	private readonly markdownTheme: MarkdownTheme;
	private outputPad: number;
	private readonly markdownTransformers: MarkdownTransformer[];

	constructor(
		text: string,
		markdownTheme: MarkdownTheme = defaultMarkdownTheme(),
		outputPad = 1,
		markdownTransformers: MarkdownTransformer[] = [],
	) {
		super();
		this.text = text;
		this.markdownTheme = markdownTheme;
		this.outputPad = outputPad;
		this.markdownTransformers = markdownTransformers;
		this.rebuild();
	}

	/** A prompt never changes on its own (the transcript may freeze its lines). */
	isSettled(): boolean {
		return true;
	}

	/** Set by the transcript while it keeps this prompt's lines frozen: told when a call here changes them. */
	onSettledChange: (() => void) | undefined;

	setOutputPad(padding: number): void {
		this.outputPad = padding;
		this.rebuild();
		this.onSettledChange?.();
	}

	private rebuild(): void {
		this.clear();
		const box = new Box(this.outputPad, 1, (text) => theme().bg("userMessageBg", text));
		box.addChild(
			new Markdown(
				this.text,
				0,
				0,
				this.markdownTheme,
				{ color: (text) => theme().fg("userMessageText", text) },
				{
					preserveOrderedListMarkers: true,
					preserveBackslashEscapes: true,
					transform: markdownTransform("user", false, this.markdownTransformers),
				},
			),
		);
		this.addChild(box);
	}

	protected override finish(lines: string[]): string[] {
		return markZone(lines);
	}
}

export function markZone(lines: string[]): string[] {
	if (lines.length === 0) return lines;
	lines[0] = ZONE_START + lines[0];
	lines[lines.length - 1] = ZONE_END + lines[lines.length - 1];
	return lines;
}
