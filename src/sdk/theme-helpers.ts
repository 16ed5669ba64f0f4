/**
 * The theme helpers pi-coding-agent exports (pi 0.87.1's `initTheme`, `get*Theme`, `highlightCode`,
 * `getLanguageFromPath`, `keyHint`, `keyText`, `rawKeyHint`), drawn with the run's theme (`ctx.ui.theme`). Each
 * call reads the current theme, so a theme chosen later is used by styles made earlier.
 */
import chalkInstance from "chalk";
import { setTranscriptStyle } from "../modes/interactive/index.ts";
import { currentTheme, initTheme as initRunTheme, useChalk } from "../resources/index.ts";
import {
	DynamicBorder as BorderRule,
	type EditorTheme,
	type Keybinding,
	keyText,
	type MarkdownTheme,
	type SelectListTheme,
	type SettingsListTheme,
} from "../tui/index.ts";
import { highlightLines, supportsLanguage, type TokenKind } from "./highlight.ts";

// The SDK used from source (no extension loader) styles through the same chalk.
useChalk(chalkInstance);

/**
 * Chooses the theme by name (built-in `dark`/`light`, `<agentDir>/themes/<name>.json`, or "light/dark" to follow
 * the terminal background); none: the terminal's default. An unknown name falls back to `dark`. Theme files are
 * not watched (`enableWatcher` is for the terminal UI, which redraws on change).
 */
export function initTheme(themeName?: string, _enableWatcher = false): void {
	initRunTheme(themeName);
}

const TOKEN_COLORS = {
	comment: "syntaxComment",
	string: "syntaxString",
	number: "syntaxNumber",
	literal: "syntaxNumber",
	keyword: "syntaxKeyword",
	type: "syntaxType",
	function: "syntaxFunction",
	attr: "syntaxVariable",
	meta: "muted",
	addition: "toolDiffAdded",
	deletion: "toolDiffRemoved",
} as const satisfies Record<TokenKind, string>;

/**
 * Code coloured by language, one string per line. Without a language, or one that is not coloured, every line is
 * in the code-block colour.
 */
export function highlightCode(code: string, lang?: string): string[] {
	const theme = currentTheme();
	if (!lang || !supportsLanguage(lang)) return code.split("\n").map((line) => theme.fg("mdCodeBlock", line));
	return highlightLines(code, lang, (kind, text) => theme.fg(TOKEN_COLORS[kind], text));
}

const EXTENSION_LANGUAGES: Record<string, string> = {
	ts: "typescript",
	tsx: "typescript",
	js: "javascript",
	jsx: "javascript",
	mjs: "javascript",
	cjs: "javascript",
	py: "python",
	rb: "ruby",
	rs: "rust",
	go: "go",
	java: "java",
	kt: "kotlin",
	swift: "swift",
	c: "c",
	h: "c",
	cpp: "cpp",
	cc: "cpp",
	cxx: "cpp",
	hpp: "cpp",
	cs: "csharp",
	php: "php",
	sh: "bash",
	bash: "bash",
	zsh: "bash",
	fish: "fish",
	ps1: "powershell",
	sql: "sql",
	html: "html",
	htm: "html",
	css: "css",
	scss: "scss",
	sass: "sass",
	less: "less",
	json: "json",
	yaml: "yaml",
	yml: "yaml",
	toml: "toml",
	xml: "xml",
	md: "markdown",
	markdown: "markdown",
	dockerfile: "dockerfile",
	makefile: "makefile",
	cmake: "cmake",
	lua: "lua",
	perl: "perl",
	r: "r",
	scala: "scala",
	clj: "clojure",
	ex: "elixir",
	exs: "elixir",
	erl: "erlang",
	hs: "haskell",
	ml: "ocaml",
	vim: "vim",
	graphql: "graphql",
	proto: "protobuf",
	tf: "hcl",
	hcl: "hcl",
};

/** The language of a file from its extension (a name without a dot counts whole: `Makefile`), or undefined. */
export function getLanguageFromPath(filePath: string): string | undefined {
	const extension = filePath.split(".").pop()?.toLowerCase();
	return extension && Object.hasOwn(EXTENSION_LANGUAGES, extension) ? EXTENSION_LANGUAGES[extension] : undefined;
}

export function getMarkdownTheme(): MarkdownTheme {
	const fg = (token: Parameters<ReturnType<typeof currentTheme>["fg"]>[0]) => (text: string) =>
		currentTheme().fg(token, text);
	return {
		heading: fg("mdHeading"),
		link: fg("mdLink"),
		linkUrl: fg("mdLinkUrl"),
		code: fg("mdCode"),
		codeBlock: fg("mdCodeBlock"),
		codeBlockBorder: fg("mdCodeBlockBorder"),
		quote: fg("mdQuote"),
		quoteBorder: fg("mdQuoteBorder"),
		hr: fg("mdHr"),
		listBullet: fg("mdListBullet"),
		bold: (text) => currentTheme().bold(text),
		italic: (text) => currentTheme().italic(text),
		underline: (text) => currentTheme().underline(text),
		strikethrough: (text) => currentTheme().strikethrough(text),
		highlightCode,
	};
}

export function getSelectListTheme(): SelectListTheme {
	const fg = (token: "accent" | "muted") => (text: string) => currentTheme().fg(token, text);
	return {
		selectedPrefix: fg("accent"),
		selectedText: fg("accent"),
		description: fg("muted"),
		scrollInfo: fg("muted"),
		noMatch: fg("muted"),
	};
}

export function getEditorTheme(): EditorTheme {
	return { borderColor: (text) => currentTheme().fg("borderMuted", text), selectList: getSelectListTheme() };
}

export function getSettingsListTheme(): SettingsListTheme {
	return {
		label: (text, selected) => (selected ? currentTheme().fg("accent", text) : text),
		value: (text, selected) => currentTheme().fg(selected ? "accent" : "muted", text),
		description: (text) => currentTheme().fg("dim", text),
		cursor: currentTheme().fg("accent", "→ "),
		hint: (text) => currentTheme().fg("dim", text),
	};
}

export { rawKeyHint } from "../modes/interactive/index.ts";
export { keyText };

/**
 * pi's `keyHint(keybinding, description)`: the keys bound to the action in the process-wide keybindings (dim),
 * then the description (muted). Only bound keys show, as in pi: an id the manager does not know (a pre-0.74 name
 * such as `expandTools`), an action the user unbound, or a mode without the terminal UI's bindings (print, RPC)
 * gives no key text, just the description.
 */
export function keyHint(keybinding: Keybinding, description: string): string {
	const theme = currentTheme();
	return theme.fg("dim", keyText(keybinding)) + theme.fg("muted", ` ${description}`);
}

/** pi-coding-agent's DynamicBorder: without a colour, the rule is drawn in the run theme's `border` colour. */
export class DynamicBorder extends BorderRule {
	constructor(color: (text: string) => string = (text) => currentTheme().fg("border", text)) {
		super(color);
	}
}

// The transcript components draw Markdown and code the way these helpers do.
setTranscriptStyle({ markdownTheme: getMarkdownTheme, highlightCode, languageOf: getLanguageFromPath });
