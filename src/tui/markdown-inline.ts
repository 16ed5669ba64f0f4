/** Inline Markdown (code spans, emphasis, strikethrough, links, escapes) rendered through theme functions. */

export interface InlineTheme {
	code: (text: string) => string;
	bold: (text: string) => string;
	italic: (text: string) => string;
	strikethrough: (text: string) => string;
	link: (text: string) => string;
	linkUrl: (text: string) => string;
}

const INLINE = new RegExp(
	[
		/(`+)([\s\S]+?)\1/u.source, // 1,2: code span
		/\*\*(?=\S)([\s\S]+?)(?<=\S)\*\*/u.source, // 3: bold
		/(?<![\p{L}\p{N}])__(?=\S)([\s\S]+?)(?<=\S)__(?![\p{L}\p{N}])/u.source, // 4: bold
		/~~(?=\S)([\s\S]+?)(?<=\S)~~/u.source, // 5: strikethrough
		/\*(?=[^\s*])([\s\S]*?[^\s*]|[^\s*])\*/u.source, // 6: italic
		/(?<![\p{L}\p{N}])_(?=[^\s_])([\s\S]*?[^\s_]|[^\s_])_(?![\p{L}\p{N}])/u.source, // 7: italic
		/!?\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/u.source, // 8,9: link / image
		/<((?:https?|mailto):[^>\s]+)>/u.source, // 10: autolink
		/\\([\\`*_{}[\]()#+\-.!~|<>])/u.source, // 11: escape
	].join("|"),
	"gu",
);

/**
 * Render the inline Markdown of `text`. `plain` styles the literal text between constructs (default style); nested
 * emphasis is rendered recursively.
 */
export function renderInline(text: string, theme: InlineTheme, plain: (text: string) => string = (t) => t): string {
	let out = "";
	let last = 0;
	for (const m of text.matchAll(INLINE)) {
		const index = m.index ?? 0;
		if (index > last) out += plain(text.slice(last, index));
		last = index + m[0].length;
		const nested = (inner: string) => renderInline(inner, theme, plain);
		if (m[2] !== undefined) out += theme.code(m[2].trim() === "" ? m[2] : m[2].replace(/^ (.*) $/s, "$1"));
		else if (m[3] !== undefined) out += theme.bold(nested(m[3]));
		else if (m[4] !== undefined) out += theme.bold(nested(m[4]));
		else if (m[5] !== undefined) out += theme.strikethrough(nested(m[5]));
		else if (m[6] !== undefined) out += theme.italic(nested(m[6]));
		else if (m[7] !== undefined) out += theme.italic(nested(m[7]));
		else if (m[8] !== undefined) {
			const label = m[8] || (m[9] ?? "");
			const url = m[9] ?? "";
			out += theme.link(nested(label));
			if (url && url !== label && !url.startsWith("#")) out += theme.linkUrl(` (${url})`);
		} else if (m[10] !== undefined) out += theme.link(m[10]);
		else if (m[11] !== undefined) out += plain(m[11]);
	}
	if (last < text.length) out += plain(text.slice(last));
	return out;
}
