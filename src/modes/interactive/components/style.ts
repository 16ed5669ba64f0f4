/**
 * What the transcript components draw with: the run's theme (`currentTheme()`, read at each draw so a theme chosen
 * later applies), the Markdown theme and code highlighting. The last two live in the SDK layer (which this layer
 * may not import); the SDK hands them over with `setTranscriptStyle` when it loads. Until then Markdown uses the
 * toolkit's default theme and code is shown in the code-block colour.
 */
import { currentTheme, type Theme } from "../../../resources/index.ts";
import { type MarkdownTheme, getMarkdownTheme as toolkitMarkdownTheme } from "../../../tui/index.ts";

export type TranscriptTheme = Theme;

export interface TranscriptStyle {
	markdownTheme(): MarkdownTheme;
	/** Code coloured by language, one string per line. */
	highlightCode(code: string, lang?: string): string[];
	/** The language of a file from its name, or undefined. */
	languageOf(path: string): string | undefined;
}

let style: TranscriptStyle = {
	markdownTheme: toolkitMarkdownTheme,
	highlightCode: (code) => code.split("\n").map((line) => currentTheme().fg("mdCodeBlock", line)),
	languageOf: () => undefined,
};

export function setTranscriptStyle(next: TranscriptStyle): void {
	style = next;
}

export const theme = (): TranscriptTheme => currentTheme();
export const defaultMarkdownTheme = (): MarkdownTheme => style.markdownTheme();
export const highlightCode = (code: string, lang?: string): string[] => style.highlightCode(code, lang);
export const languageOf = (path: string): string | undefined => style.languageOf(path);

/** Bold without resetting other attributes (pi's labels close bold with SGR 22 only). */
export const boldLabel = (text: string): string => `\x1b[1m${text}\x1b[22m`;

/** Runs a message's Markdown transformers in order; one that throws or returns a non-string is skipped. */
export type MarkdownTransformer = (
	markdown: string,
	context: { messageType: string; isStreaming: boolean; availableWidth: number },
) => string | undefined;

export function markdownTransform(
	messageType: string,
	isStreaming: boolean,
	transformers: readonly MarkdownTransformer[],
): (markdown: string, availableWidth: number) => string {
	return (markdown, availableWidth) => {
		let current = markdown;
		for (const transformer of transformers) {
			try {
				const next = transformer(current, { messageType, isStreaming, availableWidth });
				if (typeof next === "string") current = next;
			} catch {
				// a failing transformer leaves the text as it was
			}
		}
		return current;
	};
}
