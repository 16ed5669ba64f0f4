/**
 * A message whose content is read from disk on use (a large entry of a resumed session) can say how large that
 * content is without reading it: the characters of its text and the number of its images, which is all a token
 * estimate needs. The measure hangs off the message under a symbol (never serialised, never copied by a spread)
 * and may be unknown (undefined) when the content cannot be measured cheaply.
 */

export interface ContentMeasure {
	/** UTF-16 code units of text (what `string.length` gives). */
	chars: number;
	images: number;
}

export const CONTENT_MEASURE: unique symbol = Symbol.for("pi.contentMeasure");

/** The message's content measure, when it carries one and it is known. */
export function measuredContent(message: object): ContentMeasure | undefined {
	const measure = (message as { [CONTENT_MEASURE]?: unknown })[CONTENT_MEASURE];
	return typeof measure === "function" ? (measure as () => ContentMeasure | undefined)() : undefined;
}
