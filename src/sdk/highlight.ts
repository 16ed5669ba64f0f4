/**
 * Syntax colouring for code blocks (`highlightCode`, the Markdown theme): a small tokenizer of our own for the
 * languages pi colours without loading anything more (its eager set: Python, Java, Go, JavaScript, TypeScript, C,
 * C++, C#, PHP, Ruby, Nix, Bash, Rust, Scala, Kotlin, Swift, Dart, Groovy, Perl, Lua, and their usual aliases).
 * It recognises comments, strings, numbers, keywords, literals, type names and called functions; everything else
 * stays as it is. Each line is styled on its own, so a line can be printed alone. Data and text formats are in
 * highlight-data.ts.
 */
import { dataLanguage } from "./highlight-data.ts";

export type TokenKind =
	| "comment"
	| "string"
	| "number"
	| "keyword"
	| "literal"
	| "type"
	| "function"
	| "attr"
	| "meta"
	| "addition"
	| "deletion";

interface Grammar {
	lineComment: string[];
	block?: [string, string];
	keywords: ReadonlySet<string>;
	literals: ReadonlySet<string>;
	/** Backtick strings (JS/TS/Go raw strings, shell command substitution). */
	backtick?: boolean;
}

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter(Boolean));

const C_LIKE_KEYWORDS =
	"if else for while do switch case default break continue return goto try catch finally throw throws new delete class struct enum union interface extends implements import export package namespace using public private protected static final const var let void int long short char float double bool boolean byte unsigned signed sizeof typeof instanceof in of as is async await yield function func fn def where type typedef template typename virtual override abstract sealed readonly get set this self super with from go defer chan map select range struct impl trait mod pub use crate mut ref move match loop unsafe extern dyn val fun object companion when init deinit guard inout protocol extension operator internal open lateinit data suspend dynamic required late library part factory mixin";
const C_LIKE_LITERALS = "true false null nil undefined NaN Infinity None iota";

const GRAMMARS: Record<string, Grammar> = {
	cLike: {
		lineComment: ["//"],
		block: ["/*", "*/"],
		keywords: words(C_LIKE_KEYWORDS),
		literals: words(C_LIKE_LITERALS),
		backtick: true,
	},
	python: {
		lineComment: ["#"],
		keywords: words(
			"and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self print",
		),
		literals: words("True False None"),
	},
	ruby: {
		lineComment: ["#"],
		keywords: words(
			"alias and begin break case class def defined? do else elsif end ensure for if in module next not or redo rescue retry return self super then undef unless until when while yield require include attr_accessor puts",
		),
		literals: words("true false nil"),
	},
	shell: {
		lineComment: ["#"],
		keywords: words(
			"if then else elif fi case esac for while until do done in function return local export readonly declare set unset shift exit echo source alias cd test",
		),
		literals: words("true false"),
		backtick: true,
	},
	perl: {
		lineComment: ["#"],
		keywords: words(
			"my our local sub if elsif else unless while until for foreach return use package require last next",
		),
		literals: words("undef"),
	},
	nix: {
		lineComment: ["#"],
		block: ["/*", "*/"],
		keywords: words("let in with rec inherit if then else assert import"),
		literals: words("true false null"),
	},
	lua: {
		lineComment: ["--"],
		keywords: words("and break do else elseif end for function goto if in local not or repeat return then until while"),
		literals: words("true false nil"),
	},
};

const LANGUAGES: Record<string, keyof typeof GRAMMARS> = {};
for (const [grammar, names] of [
	[
		"cLike",
		"javascript js jsx mjs cjs typescript ts tsx mts cts java jsp go golang rust rs c h cpp cc c++ h++ hpp hh hxx cxx csharp cs c# php php3 php4 php5 php6 php7 php8 scala kotlin kt kts swift dart groovy",
	],
	["python", "python py gyp ipython"],
	["ruby", "ruby rb gemspec podspec thor irb"],
	["shell", "bash sh zsh"],
	["perl", "perl pl pm"],
	["nix", "nix nixos"],
	["lua", "lua"],
] as const) {
	for (const name of names.split(" ")) LANGUAGES[name] = grammar;
}

let allLanguages = false;

/**
 * Also colour data and text formats (JSON, YAML, diff, Markdown) from now on, as pi does once its interactive mode
 * has loaded every language. Resolves at once (nothing is loaded).
 */
export function loadAllHighlightLanguages(): Promise<void> {
	allLanguages = true;
	return Promise.resolve();
}

/** Whether `highlightCode` colours this language (name or alias, any case). */
export function supportsLanguage(name: string): boolean {
	return Object.hasOwn(LANGUAGES, name.toLowerCase()) || (allLanguages && dataLanguage(name) !== undefined);
}

export interface Token {
	kind: TokenKind | undefined;
	text: string;
}

const IDENT = /[A-Za-z_$][\w$]*/y;
const NUMBER =
	/(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[a-zA-Z]*/y;

function startsAt(code: string, at: number, marker: string): boolean {
	return code.startsWith(marker, at);
}

/** Splits `code` into tokens of `grammar` (unknown text has kind undefined). */
export function tokenize(code: string, language: string): Token[] {
	const grammar = GRAMMARS[LANGUAGES[language.toLowerCase()] ?? "cLike"] as Grammar;
	const tokens: Token[] = [];
	const push = (kind: TokenKind | undefined, text: string) => {
		const last = tokens.at(-1);
		if (kind === undefined && last && last.kind === undefined) last.text += text;
		else tokens.push({ kind, text });
	};
	let i = 0;
	while (i < code.length) {
		const c = code[i] as string;
		const line = grammar.lineComment.find((marker) => startsAt(code, i, marker));
		if (line) {
			const end = code.indexOf("\n", i);
			const stop = end === -1 ? code.length : end;
			push("comment", code.slice(i, stop));
			i = stop;
			continue;
		}
		if (grammar.block && startsAt(code, i, grammar.block[0])) {
			const end = code.indexOf(grammar.block[1], i + grammar.block[0].length);
			const stop = end === -1 ? code.length : end + grammar.block[1].length;
			push("comment", code.slice(i, stop));
			i = stop;
			continue;
		}
		if (c === '"' || c === "'" || (c === "`" && grammar.backtick)) {
			let j = i + 1;
			while (j < code.length && code[j] !== c) {
				if (code[j] === "\\") j++;
				else if (code[j] === "\n" && c !== "`" && grammar !== GRAMMARS.python) break;
				j++;
			}
			const stop = Math.min(code.length, j + 1);
			push("string", code.slice(i, stop));
			i = stop;
			continue;
		}
		NUMBER.lastIndex = i;
		const previous = i > 0 ? (code[i - 1] as string) : "";
		if (/[\d.]/.test(c) && !/[\w$]/.test(previous)) {
			const number = NUMBER.exec(code);
			if (number && /\d/.test(number[0])) {
				push("number", number[0]);
				i += number[0].length;
				continue;
			}
		}
		IDENT.lastIndex = i;
		const ident = IDENT.exec(code);
		if (ident) {
			const word = ident[0];
			const after = code.slice(i + word.length).match(/^\s*\(/) !== null;
			const kind: TokenKind | undefined = grammar.keywords.has(word)
				? "keyword"
				: grammar.literals.has(word)
					? "literal"
					: after
						? "function"
						: /^[A-Z][a-z]/.test(word)
							? "type"
							: undefined;
			push(kind, word);
			i += word.length;
			continue;
		}
		push(undefined, c);
		i++;
	}
	return tokens;
}

/** Colours `code` with `style` per token kind; returns one string per line, each styled on its own. */
export function highlightLines(
	code: string,
	language: string,
	style: (kind: TokenKind, text: string) => string,
): string[] {
	const byLine = dataLanguage(language);
	if (byLine) {
		return code
			.split("\n")
			.map((line) => byLine(line).reduce((out, t) => out + (t.kind ? style(t.kind, t.text) : t.text), ""));
	}
	const lines: string[] = [""];
	for (const token of tokenize(code, language)) {
		token.text.split("\n").forEach((part, index) => {
			if (index > 0) lines.push("");
			if (part === "") return;
			lines[lines.length - 1] += token.kind ? style(token.kind, part) : part;
		});
	}
	return lines;
}
