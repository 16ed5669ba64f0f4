/**
 * Theme colour tokens (the roles of pi 0.87.1's theme schema) and the two built-in themes. The palettes are this
 * project's own; every token has a value in both.
 */

export const THEME_FG_TOKENS = [
	"accent",
	"border",
	"borderAccent",
	"borderMuted",
	"success",
	"error",
	"warning",
	"muted",
	"dim",
	"text",
	"thinkingText",
	"scrollbarTrack",
	"scrollbarThumb",
	"searchMatchText",
	"userMessageText",
	"customMessageText",
	"customMessageLabel",
	"toolTitle",
	"toolOutput",
	"mdHeading",
	"mdLink",
	"mdLinkUrl",
	"mdCode",
	"mdCodeBlock",
	"mdCodeBlockBorder",
	"mdQuote",
	"mdQuoteBorder",
	"mdHr",
	"mdListBullet",
	"toolDiffAdded",
	"toolDiffRemoved",
	"toolDiffContext",
	"syntaxComment",
	"syntaxKeyword",
	"syntaxFunction",
	"syntaxVariable",
	"syntaxString",
	"syntaxNumber",
	"syntaxType",
	"syntaxOperator",
	"syntaxPunctuation",
	"thinkingOff",
	"thinkingMinimal",
	"thinkingLow",
	"thinkingMedium",
	"thinkingHigh",
	"thinkingXhigh",
	"thinkingMax",
	"bashMode",
] as const;

export const THEME_BG_TOKENS = [
	"selectedBg",
	"searchMatchBg",
	"userMessageBg",
	"customMessageBg",
	"toolPendingBg",
	"toolSuccessBg",
	"toolErrorBg",
] as const;

export type ThemeColor = (typeof THEME_FG_TOKENS)[number];
export type ThemeBg = (typeof THEME_BG_TOKENS)[number];
export type ThemeToken = ThemeColor | ThemeBg;

/** Tokens a theme file may leave out; they take the value of another token. */
export const OPTIONAL_TOKEN_FALLBACK: Readonly<Partial<Record<ThemeToken, ThemeToken>>> = {
	scrollbarTrack: "muted",
	scrollbarThumb: "text",
	searchMatchBg: "selectedBg",
	searchMatchText: "text",
	thinkingMax: "thinkingXhigh",
};

export const THEME_EXPORT_KEYS = ["pageBg", "cardBg", "infoBg"] as const;
export type ThemeExportKey = (typeof THEME_EXPORT_KEYS)[number];

/** A colour as written in a theme file: "#rrggbb", a 256-colour index, "" (terminal default) or a `vars` name. */
export type ColorValue = string | number;

export interface ThemeJson {
	$schema?: string;
	name: string;
	vars?: Record<string, ColorValue>;
	colors: Record<string, ColorValue>;
	export?: Partial<Record<ThemeExportKey, ColorValue>>;
}

const dark: ThemeJson = {
	name: "dark",
	vars: {
		sky: "#6cb6ff",
		teal: "#4fc1c9",
		leaf: "#86d17a",
		coral: "#f2766b",
		amber: "#e3bd5b",
		tangerine: "#f0a05a",
		violet: "#b99cff",
		rose: "#f27aaf",
		slate: "#8d96a3",
		ash: "#5f6773",
		line: "#454c57",
		faint: "#343a43",
	},
	colors: {
		accent: "sky",
		border: "line",
		borderAccent: "teal",
		borderMuted: "faint",
		success: "leaf",
		error: "coral",
		warning: "amber",
		muted: "slate",
		dim: "ash",
		text: "",
		thinkingText: "slate",
		scrollbarTrack: "faint",
		scrollbarThumb: "slate",
		searchMatchText: "",
		userMessageText: "",
		customMessageText: "",
		customMessageLabel: "violet",
		toolTitle: "",
		toolOutput: "slate",
		mdHeading: "amber",
		mdLink: "sky",
		mdLinkUrl: "ash",
		mdCode: "teal",
		mdCodeBlock: "leaf",
		mdCodeBlockBorder: "ash",
		mdQuote: "slate",
		mdQuoteBorder: "ash",
		mdHr: "ash",
		mdListBullet: "teal",
		toolDiffAdded: "leaf",
		toolDiffRemoved: "coral",
		toolDiffContext: "slate",
		syntaxComment: "#76808c",
		syntaxKeyword: "violet",
		syntaxFunction: "sky",
		syntaxVariable: "#d7dde5",
		syntaxString: "#a6d88f",
		syntaxNumber: "tangerine",
		syntaxType: "teal",
		syntaxOperator: "#c9ced6",
		syntaxPunctuation: "slate",
		thinkingOff: "ash",
		thinkingMinimal: "#77818d",
		thinkingLow: "#5d93d6",
		thinkingMedium: "teal",
		thinkingHigh: "violet",
		thinkingXhigh: "rose",
		thinkingMax: "#ff5c8a",
		bashMode: "tangerine",
		selectedBg: "#2c323b",
		searchMatchBg: "#564717",
		userMessageBg: "#272d38",
		customMessageBg: "#2e2838",
		toolPendingBg: "#252a31",
		toolSuccessBg: "#1e2b22",
		toolErrorBg: "#362225",
	},
	export: { pageBg: "#15181d", cardBg: "#1d2128", infoBg: "#252a33" },
};

const light: ThemeJson = {
	name: "light",
	vars: {
		sky: "#1f6fc4",
		teal: "#0f7f87",
		leaf: "#2f7d32",
		coral: "#c4382f",
		amber: "#9a6b00",
		tangerine: "#b85c0b",
		violet: "#7348c7",
		rose: "#b8336f",
		slate: "#5d6673",
		ash: "#8a929c",
		line: "#b8bec7",
		faint: "#d9dde3",
	},
	colors: {
		...dark.colors,
		syntaxComment: "#7b8490",
		syntaxVariable: "#2a313b",
		syntaxString: "#3d7a24",
		syntaxOperator: "#3b434e",
		thinkingMinimal: "#8a929c",
		thinkingLow: "#3f79bf",
		thinkingMax: "#d11f5c",
		selectedBg: "#dde6f2",
		searchMatchBg: "#f5e3a3",
		userMessageBg: "#eef1f6",
		customMessageBg: "#f1ecf8",
		toolPendingBg: "#f1f3f5",
		toolSuccessBg: "#e8f4e8",
		toolErrorBg: "#f8e6e5",
	},
	export: { pageBg: "#fafbfc", cardBg: "#f2f4f7", infoBg: "#e9edf2" },
};

export const BUILTIN_THEME_JSON: Readonly<Record<"dark" | "light", ThemeJson>> = { dark, light };
