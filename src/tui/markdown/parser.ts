/**
 * Markdown lexing for the Markdown component: one shared `Marked` instance with pi's dialect (strict `~~` strikethrough,
 * single `~` stays literal; inline `$…$`, `\(…\)`, `$$…$$` and block `$$…$$` / `\[…\]` math), plus incremental
 * lexing for streamed text: when new text extends the old, only the last block onwards is lexed again.
 */
import { Marked, type Token, Tokenizer, type TokenizerAndRendererExtension, type Tokens } from "marked";
import { fastLex } from "./fast-lex.ts";

/** `~~text~~` only: the opening is not followed by whitespace or `~`, the closing not preceded by whitespace. */
const STRIKE = /^~~(?=[^\s~])((?:\\.|[^\\])*?(?:\\.|[^\s~\\]))~~(?=[^~]|$)/;

class DialectTokenizer extends Tokenizer {
	override del(src: string): Tokens.Del | undefined {
		const match = STRIKE.exec(src);
		if (!match) return undefined;
		const text = match[1] as string;
		return { type: "del", raw: match[0], text, tokens: this.lexer.inlineTokens(text) };
	}
}

/** A math token: `pending` while its closing delimiter has not arrived yet (streaming). */
export interface LatexToken {
	type: "latex" | "latexBlock";
	raw: string;
	text: string;
	pending?: boolean;
}

/** Whether unterminated `$` text already looks like a formula (so it is held back rather than shown as dollars). */
function looksLikeMath(text: string): boolean {
	return /\\[A-Za-z]+|[-_^=+*/<>()[\]|±≤≥≠≈∈→⇒∞∫∑√]/.test(text);
}

/** Index of `closing` at or after `from` that is not escaped by an odd run of backslashes, or -1. */
function unescapedIndexOf(source: string, closing: string, from: number): number {
	for (let at = source.indexOf(closing, from); at >= 0; at = source.indexOf(closing, at + closing.length)) {
		let slashes = 0;
		while (source[at - 1 - slashes] === "\\") slashes++;
		if (slashes % 2 === 0) return at;
	}
	return -1;
}

const INLINE_DELIMITERS: [string, string][] = [
	["$$", "$$"],
	["\\(", "\\)"],
	["\\[", "\\]"],
];

function inlineMath(source: string): LatexToken | undefined {
	const first = source.charCodeAt(0);
	if (first !== 0x24 && first !== 0x5c) return undefined; // neither "$" nor "\\"
	let pair = INLINE_DELIMITERS.find(([open]) => source.startsWith(open));
	if (!pair && source.startsWith("$") && !/^\$\s/.test(source)) pair = ["$", "$"];
	if (!pair) return undefined;
	const [open, close] = pair;
	const end = unescapedIndexOf(source, close, open.length);
	if (end < 0) {
		const rest = source.slice(open.length);
		return open.startsWith("\\") || looksLikeMath(rest)
			? { type: "latex", raw: source, text: rest, pending: true }
			: undefined;
	}
	const body = source.slice(open.length, end);
	if (open === "$") {
		const after = source.slice(end + 1);
		// Prices ("$5 and $6"), shell variables ("$HOME/$USER") and code-ish text are not math.
		if (/\s$/.test(body) || /^\d/.test(after) || body.includes("`")) return undefined;
		if (/^[A-Z_][A-Z0-9_]*(?:[^A-Za-z0-9_\s])?$/.test(body) && /^[A-Za-z_]\w*/.test(after)) return undefined;
	}
	if (body === "" || body.includes("\n")) return undefined;
	return { type: "latex", raw: source.slice(0, end + close.length), text: body };
}

/** Every block math form opens with `$$` or `\[` after at most three spaces. */
const BLOCK_MATH_OPENING = /^ {0,3}(?:\$\$|\\\[)/;
const CLOSED_BLOCK_MATH = [
	/^ {0,3}\$\$[ \t]*(?:\n)?([\s\S]*?)\$\$[ \t]*(?:\n|$)/,
	/^ {0,3}\\\[[ \t]*(?:\n)?([\s\S]*?)\\\][ \t]*(?:\n|$)/,
];

function blockMath(source: string): LatexToken | undefined {
	// Asked at every block position: most blocks are rejected on their first characters.
	if (!BLOCK_MATH_OPENING.test(source)) return undefined;
	for (const pattern of CLOSED_BLOCK_MATH) {
		const closed = pattern.exec(source);
		if (closed?.[1]) return { type: "latexBlock", raw: closed[0], text: closed[1].trim() };
	}
	const openBracket = /^ {0,3}\\\[[ \t]*(?:\n)?([\s\S]*)$/.exec(source);
	if (openBracket) return { type: "latexBlock", raw: openBracket[0], text: openBracket[1] ?? "", pending: true };
	const openDollars = /^ {0,3}\$\$[ \t]*(?:\n)?([\s\S]*)$/.exec(source);
	if (openDollars?.[1] && looksLikeMath(openDollars[1]))
		return { type: "latexBlock", raw: openDollars[0], text: openDollars[1], pending: true };
	return undefined;
}

/** Where inline math may begin: `$`, `\(` or `\[`. */
const INLINE_MATH_START = /\$|\\[([]/;

const MATH_EXTENSIONS: TokenizerAndRendererExtension[] = [
	{
		name: "latexBlock",
		level: "block",
		start(source: string) {
			const match = /(?:^|\n) {0,3}(?:\$\$|\\\[)/.exec(source);
			return match ? match.index + (match[0].startsWith("\n") ? 1 : 0) : undefined;
		},
		tokenizer: (source: string) => blockMath(source) as Tokens.Generic | undefined,
	},
	{
		name: "latex",
		level: "inline",
		start(source: string) {
			const at = source.search(INLINE_MATH_START);
			return at >= 0 ? at : undefined;
		},
		tokenizer: (source: string) => inlineMath(source) as Tokens.Generic | undefined,
	},
];

const parser = new Marked();
parser.setOptions({ tokenizer: new DialectTokenizer() });
parser.use({ extensions: MATH_EXTENSIONS });

/** Counts of lexer runs and the characters they read (tests check that streaming re-lexes only the tail). */
export const lexStats = { runs: 0, characters: 0 };

function lex(source: string): { tokens: Token[]; hasLinkDefinitions: boolean } {
	lexStats.runs++;
	lexStats.characters += source.length;
	const fast = fastLex(source, parser.defaults);
	if (fast) return { tokens: fast, hasLinkDefinitions: false };
	const tokens = parser.lexer(source);
	return { tokens: [...tokens], hasLinkDefinitions: Object.keys(tokens.links).length > 0 };
}

/**
 * While a code block is streamed, a closing fence that has only partly arrived ("`" or "``") is dropped from its
 * text so the block does not grow a stray line and then shrink again.
 */
function withoutPartialClosingFence(tokens: Token[]): Token[] {
	const last = tokens.at(-1);
	if (!last) return tokens;
	const replaceLast = (token: Token) => [...tokens.slice(0, -1), token];
	if (last.type === "list") {
		const list = last as Tokens.List;
		const item = list.items.at(-1);
		if (!item) return tokens;
		const inner = withoutPartialClosingFence(item.tokens);
		if (inner === item.tokens) return tokens;
		return replaceLast({ ...list, items: [...list.items.slice(0, -1), { ...item, tokens: inner }] });
	}
	if (last.type === "blockquote") {
		const quote = last as Tokens.Blockquote;
		const inner = withoutPartialClosingFence(quote.tokens);
		return inner === quote.tokens ? tokens : replaceLast({ ...quote, tokens: inner });
	}
	if (last.type !== "code") return tokens;
	const code = last as Tokens.Code;
	const fence = /^(`{3,}|~{3,})/.exec(code.raw)?.[1];
	const tail = code.raw.split("\n").pop() ?? "";
	if (!fence || !tail || tail.length >= fence.length || tail !== (fence[0] as string).repeat(tail.length))
		return tokens;
	return replaceLast({ ...code, text: code.text.slice(0, -tail.length).replace(/\n$/, "") });
}

/** A definition of a reference link (`[label]: url`) changes how earlier text reads, so it forces a full lex. */
const LINK_DEFINITION = /(?:^|\n) {0,3}\[[^\]\n]+\]:/;

/**
 * Lexes Markdown, reusing the blocks of the previous call when `source` extends its text: every top-level block
 * before the last non-blank one is kept (same token objects, so their rendering can be cached), and lexing restarts
 * at that block. Anything else (edits, reference links) lexes the whole text.
 */
export class IncrementalLexer {
	private source = "";
	private stable: Token[] = [];
	private stableLength = 0;
	private tail: Token[] = [];
	private hasLinkDefinitions = false;

	lex(source: string): Token[] {
		const extends_ =
			this.stable.length > 0 &&
			!this.hasLinkDefinitions &&
			source.startsWith(this.source.slice(0, this.stableLength)) &&
			!LINK_DEFINITION.test(source.slice(this.stableLength));
		if (source !== this.source) {
			if (extends_) {
				const rest = lex(source.slice(this.stableLength));
				this.remember(source, this.stable, this.stableLength, rest.tokens, rest.hasLinkDefinitions);
			} else {
				const all = lex(source);
				this.remember(source, [], 0, all.tokens, all.hasLinkDefinitions);
			}
		}
		return withoutPartialClosingFence([...this.stable, ...this.tail]);
	}

	/** Splits the fresh tokens so everything before the last non-blank block becomes stable. */
	private remember(source: string, stable: Token[], stableLength: number, fresh: Token[], links: boolean): void {
		let keep = fresh.length - 1;
		while (keep > 0 && fresh[keep]?.type === "space") keep--;
		const newlyStable = fresh.slice(0, Math.max(0, keep));
		const consumed = newlyStable.reduce((sum, token) => sum + token.raw.length, 0);
		// Token raws must add up to the text they came from; otherwise do not trust the split.
		const offset = stableLength + consumed;
		const trusted = source.slice(stableLength, offset) === newlyStable.map((token) => token.raw).join("");
		this.source = source;
		this.hasLinkDefinitions = links;
		if (trusted) {
			this.stable = [...stable, ...newlyStable];
			this.stableLength = offset;
			this.tail = fresh.slice(newlyStable.length);
		} else {
			this.stable = [];
			this.stableLength = 0;
			this.tail = [...stable, ...fresh];
		}
	}
}

export { parser as markdownParser };
