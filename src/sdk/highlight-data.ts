/**
 * Colouring for data and text formats (JSON, YAML, diff, Markdown), which pi colours only once its interactive
 * mode has loaded every highlighting language (`loadAllHighlightLanguages`); until then they are plain code.
 * Line-oriented: each line is split into coloured pieces on its own.
 */
import type { Token } from "./highlight.ts";

type LineTokenizer = (line: string) => Token[];

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Strings (keys of objects as attributes), numbers and true/false/null. */
function jsonLine(line: string): Token[] {
	const out: Token[] = [];
	const pattern = /"(?:[^"\\]|\\.)*"?|-?\d[\d.eE+-]*|\b(?:true|false|null)\b/g;
	let last = 0;
	for (const match of line.matchAll(pattern)) {
		const at = match.index ?? 0;
		if (at > last) out.push({ kind: undefined, text: line.slice(last, at) });
		const text = match[0];
		const isKey = text.startsWith('"') && /^\s*:/.test(line.slice(at + text.length));
		out.push({
			kind: text.startsWith('"') ? (isKey ? "attr" : "string") : /^[tfn]/.test(text) ? "literal" : "number",
			text,
		});
		last = at + text.length;
	}
	if (last < line.length) out.push({ kind: undefined, text: line.slice(last) });
	return out;
}

/** `key:` as attribute, scalars after it by kind, `#` comments, `---` document markers. */
function yamlLine(line: string): Token[] {
	if (/^\s*#/.test(line)) return [{ kind: "comment", text: line }];
	if (/^(?:---|\.\.\.)\s*$/.test(line)) return [{ kind: "meta", text: line }];
	const out: Token[] = [];
	const key = /^(\s*(?:-\s+)?)([^\s#:"'][^:#]*?|"[^"]*"|'[^']*')(\s*:)(?=\s|$)/.exec(line);
	let rest = line;
	if (key) {
		out.push({ kind: undefined, text: key[1] as string }, { kind: "attr", text: key[2] as string });
		out.push({ kind: undefined, text: key[3] as string });
		rest = line.slice(key[0].length);
	}
	const comment = /(^|\s)#.*$/.exec(rest);
	const value = comment ? rest.slice(0, comment.index + (comment[1] as string).length) : rest;
	const scalar = value.trim();
	const lead = value.slice(0, value.length - value.trimStart().length);
	const trail = value.slice(lead.length + scalar.length);
	if (scalar) {
		const plain = scalar.replace(/^-\s+/, "");
		const dash = scalar.slice(0, scalar.length - plain.length);
		const kind = /^["']/.test(plain)
			? "string"
			: NUMBER.test(plain)
				? "number"
				: /^(?:true|false|null|yes|no|on|off|~)$/i.test(plain)
					? "literal"
					: undefined;
		out.push({ kind: undefined, text: lead + dash }, { kind, text: plain }, { kind: undefined, text: trail });
	} else out.push({ kind: undefined, text: value });
	if (comment) out.push({ kind: "comment", text: rest.slice(value.length) });
	return out.filter((token) => token.text !== "");
}

/** Added and removed lines, hunk headers and file headers. */
function diffLine(line: string): Token[] {
	if (/^(?:\+\+\+|---|diff |index |@@)/.test(line)) return [{ kind: "meta", text: line }];
	if (line.startsWith("+") || line.startsWith(">")) return [{ kind: "addition", text: line }];
	if (line.startsWith("-") || line.startsWith("<")) return [{ kind: "deletion", text: line }];
	return [{ kind: undefined, text: line }];
}

/** Headings, list bullets, quotes and code spans. */
function markdownLine(line: string): Token[] {
	if (/^#{1,6}\s/.test(line)) return [{ kind: "keyword", text: line }];
	if (/^\s*(?:```|~~~)/.test(line)) return [{ kind: "string", text: line }];
	if (/^\s*>/.test(line)) return [{ kind: "comment", text: line }];
	const out: Token[] = [];
	const bullet = /^(\s*)([-*+]|\d+[.)])(\s+)/.exec(line);
	let rest = line;
	if (bullet) {
		out.push({ kind: undefined, text: bullet[1] as string }, { kind: "keyword", text: bullet[2] as string });
		out.push({ kind: undefined, text: bullet[3] as string });
		rest = line.slice(bullet[0].length);
	}
	let last = 0;
	for (const match of rest.matchAll(/`[^`]+`/g)) {
		const at = match.index ?? 0;
		if (at > last) out.push({ kind: undefined, text: rest.slice(last, at) });
		out.push({ kind: "string", text: match[0] });
		last = at + match[0].length;
	}
	if (last < rest.length) out.push({ kind: undefined, text: rest.slice(last) });
	return out.filter((token) => token.text !== "");
}

const DATA_LANGUAGES: Record<string, LineTokenizer> = {};
for (const [tokenizer, names] of [
	[jsonLine, "json jsonc json5"],
	[yamlLine, "yaml yml"],
	[diffLine, "diff patch"],
	[markdownLine, "markdown md mkdown mkd"],
] as const) {
	for (const name of names.split(" ")) DATA_LANGUAGES[name] = tokenizer;
}

/** The line tokenizer for a data/text language, if it is one. */
export function dataLanguage(name: string): LineTokenizer | undefined {
	const key = name.toLowerCase();
	return Object.hasOwn(DATA_LANGUAGES, key) ? DATA_LANGUAGES[key] : undefined;
}
