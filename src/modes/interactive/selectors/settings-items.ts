/**
 * The rows of `/settings`, in pi 0.87.1's order: each row's label, description, the values Enter/Space steps
 * through, how the value is read from the resolved settings, and the key and stored value it writes. pi shows
 * one flat list (searchable) rather than sections; its order is its grouping (images, then editor and terminal,
 * then queueing and network, then display, then trust and navigation, then the TUI mode, then the theme).
 * Rows with a submenu (warnings, per-model thinking, theme) are described here too; the selector builds them.
 */
import type { ResolvedSettings } from "../../../config/index.ts";

/** A row whose value cycles through `values` and is stored under `path` in settings.json. */
export interface CyclingSetting {
	kind: "cycle";
	id: string;
	label: string;
	description: string;
	path: readonly string[];
	values: readonly string[];
	/** The value shown for the current settings. */
	read(s: ResolvedSettings): string;
	/** The JSON value stored for a shown value. */
	parse(value: string): unknown;
}

/** A row that opens a submenu (the selector builds it). */
export interface SubmenuSetting {
	kind: "submenu";
	id: "warnings" | "model-thinking" | "theme";
	label: string;
	description: string;
}

export type SettingRow = CyclingSetting | SubmenuSetting;

export interface SettingRowsOptions {
	/** The terminal can draw images (pi shows the image rows only then). */
	supportsImages: boolean;
	/** Key text of `app.message.followUp` and `app.thinking.cycle`, for two descriptions. */
	followUpKey: string;
	cycleThinkingKey: string;
}

const BOOL = ["true", "false"] as const;

function flag(
	id: string,
	label: string,
	description: string,
	path: readonly string[],
	get: (s: ResolvedSettings) => boolean | undefined,
	fallback: boolean,
): CyclingSetting {
	return {
		kind: "cycle",
		id,
		label,
		description,
		path,
		values: BOOL,
		read: (s) => String(get(s) ?? fallback),
		parse: (value) => value === "true",
	};
}

function choice(
	id: string,
	label: string,
	description: string,
	path: readonly string[],
	values: readonly string[],
	get: (s: ResolvedSettings) => string | number | undefined,
	fallback: string,
	parse: (value: string) => unknown = (value) => value,
): CyclingSetting {
	return { kind: "cycle", id, label, description, path, values, read: (s) => String(get(s) ?? fallback), parse };
}

export const HTTP_IDLE_TIMEOUTS: readonly { label: string; ms: number }[] = [
	{ label: "30 sec", ms: 30_000 },
	{ label: "1 min", ms: 60_000 },
	{ label: "2 min", ms: 120_000 },
	{ label: "5 min", ms: 300_000 },
	{ label: "disabled", ms: 0 },
];

/** `300000` → "5 min"; a value not among the choices in seconds. */
export function formatIdleTimeout(ms: number): string {
	return HTTP_IDLE_TIMEOUTS.find((c) => c.ms === ms)?.label ?? `${ms / 1000} sec`;
}

const TRUST_LABELS: Record<string, string> = { ask: "Ask", always: "Always trust", never: "Never trust" };

const num = (value: string) => Number.parseInt(value, 10);

/** The rows in pi's order. */
export function settingRows(o: SettingRowsOptions): SettingRow[] {
	const imageRows: SettingRow[] = o.supportsImages
		? [
				flag(
					"show-images",
					"Show images",
					"Render images inline in terminal",
					["terminal", "showImages"],
					(s) => s.terminal?.showImages,
					true,
				),
				choice(
					"image-width-cells",
					"Image width",
					"Preferred inline image width in terminal cells",
					["terminal", "imageWidthCells"],
					["60", "80", "120"],
					(s) => s.terminal?.imageWidthCells,
					"60",
					num,
				),
			]
		: [];
	return [
		flag(
			"autocompact",
			"Auto-compact",
			"Automatically compact context when it gets too large",
			["compaction", "enabled"],
			(s) => s.compaction?.enabled,
			true,
		),
		...imageRows,
		flag(
			"auto-resize-images",
			"Auto-resize images",
			"Resize large images to 2000x2000 max for better model compatibility",
			["images", "autoResize"],
			(s) => s.images?.autoResize,
			true,
		),
		flag(
			"block-images",
			"Block images",
			"Prevent images from being sent to LLM providers",
			["images", "blockImages"],
			(s) => s.images?.blockImages,
			false,
		),
		flag(
			"skill-commands",
			"Skill commands",
			"Register skills as /skill:name commands",
			["enableSkillCommands"],
			(s) => s.enableSkillCommands,
			true,
		),
		flag(
			"show-hardware-cursor",
			"Show hardware cursor",
			"Show the terminal cursor while still positioning it for IME support",
			["showHardwareCursor"],
			(s) => s.showHardwareCursor,
			false,
		),
		choice(
			"editor-padding",
			"Editor padding",
			"Horizontal padding for input editor (0-3)",
			["editorPaddingX"],
			["0", "1", "2", "3"],
			(s) => s.editorPaddingX,
			"0",
			num,
		),
		choice(
			"output-padding",
			"Output padding",
			"Horizontal padding for user messages, assistant messages, and thinking",
			["outputPad"],
			["0", "1"],
			(s) => s.outputPad,
			"1",
			num,
		),
		choice(
			"autocomplete-max-visible",
			"Autocomplete max items",
			"Max visible items in autocomplete dropdown (3-20)",
			["autocompleteMaxVisible"],
			["3", "5", "7", "10", "15", "20"],
			(s) => s.autocompleteMaxVisible,
			"5",
			num,
		),
		flag(
			"clear-on-shrink",
			"Clear on shrink",
			"Clear empty rows when content shrinks (may cause flicker)",
			["terminal", "clearOnShrink"],
			(s) => s.terminal?.clearOnShrink,
			false,
		),
		flag(
			"terminal-progress",
			"Terminal progress",
			"Show OSC 9;4 progress indicators in the terminal tab bar",
			["terminal", "showTerminalProgress"],
			(s) => s.terminal?.showTerminalProgress,
			false,
		),
		choice(
			"steering-mode",
			"Steering mode",
			"Enter while streaming queues steering messages. 'one-at-a-time': deliver one, wait for response. 'all': deliver all at once.",
			["steeringMode"],
			["one-at-a-time", "all"],
			(s) => s.steeringMode,
			"one-at-a-time",
		),
		choice(
			"follow-up-mode",
			"Follow-up mode",
			`${o.followUpKey} queues follow-up messages until agent stops. 'one-at-a-time': deliver one, wait for response. 'all': deliver all at once.`,
			["followUpMode"],
			["one-at-a-time", "all"],
			(s) => s.followUpMode,
			"one-at-a-time",
		),
		choice(
			"transport",
			"Transport",
			"Preferred transport for providers that support multiple transports",
			["transport"],
			["sse", "websocket", "websocket-cached", "auto"],
			(s) => s.transport,
			"auto",
		),
		choice(
			"http-idle-timeout",
			"HTTP idle timeout",
			"Maximum idle gap while waiting for HTTP headers or body chunks. Disable for local models that pause longer than five minutes.",
			["httpIdleTimeoutMs"],
			HTTP_IDLE_TIMEOUTS.map((c) => c.label),
			(s) => formatIdleTimeout(s.httpIdleTimeoutMs ?? 300_000),
			"5 min",
			(value) => HTTP_IDLE_TIMEOUTS.find((c) => c.label === value)?.ms ?? 300_000,
		),
		choice(
			"cache-warming-mode",
			"Cache warming",
			"off; streaming while the agent runs; idle also between runs while continuation stays profitable",
			["cacheWarming"],
			["off", "streaming", "idle"],
			(s) => s.cacheWarming,
			"streaming",
		),
		flag(
			"hide-thinking",
			"Hide thinking",
			"Hide thinking blocks in assistant responses",
			["hideThinkingBlock"],
			(s) => s.hideThinkingBlock,
			false,
		),
		choice(
			"mermaid-rendering",
			"Mermaid diagrams",
			"Render Mermaid code blocks as Unicode diagrams",
			["markdown", "mermaid"],
			["off", "final", "streaming"],
			(s) => s.markdown?.mermaid,
			"streaming",
		),
		flag(
			"cache-miss-notices",
			"Cache miss notices",
			"Show transcript notices for cache costs and provider recovery diagnostics",
			["showCacheMissNotices"],
			(s) => s.showCacheMissNotices,
			false,
		),
		flag(
			"collapse-changelog",
			"Collapse changelog",
			"Show condensed changelog after updates",
			["collapseChangelog"],
			(s) => s.collapseChangelog,
			false,
		),
		flag(
			"quiet-startup",
			"Quiet startup",
			"Disable verbose printing at startup",
			["quietStartup"],
			(s) => s.quietStartup,
			false,
		),
		flag(
			"install-telemetry",
			"Install telemetry",
			"Send an anonymous version/update ping after changelog-detected updates",
			["enableInstallTelemetry"],
			(s) => s.enableInstallTelemetry,
			true,
		),
		choice(
			"default-project-trust",
			"Default project trust",
			"Fallback behavior when no extension or saved trust decision decides project trust",
			["defaultProjectTrust"],
			Object.values(TRUST_LABELS),
			(s) => TRUST_LABELS[s.defaultProjectTrust ?? "ask"],
			"Ask",
			(value) => Object.entries(TRUST_LABELS).find(([, label]) => label === value)?.[0] ?? "ask",
		),
		choice(
			"double-escape-action",
			"Double-escape action",
			"Action when pressing Escape twice with empty editor",
			["doubleEscapeAction"],
			["tree", "fork", "none"],
			(s) => s.doubleEscapeAction,
			"tree",
		),
		choice(
			"tree-filter-mode",
			"Tree filter mode",
			"Default filter when opening /tree",
			["treeFilterMode"],
			["default", "no-tools", "user-only", "labeled-only", "all"],
			(s) => s.treeFilterMode,
			"default",
		),
		{ kind: "submenu", id: "warnings", label: "Warnings", description: "Enable or disable individual warnings" },
		{
			kind: "submenu",
			id: "model-thinking",
			label: "Default thinking level per model",
			description: `Override the default thinking level for specific models. ${o.cycleThinkingKey} cycles in-session.`,
		},
		choice(
			"tui-mode",
			"TUI mode",
			"Interface layout; fullscreen mode is experimental",
			["tuiMode"],
			["regular", "fullscreen"],
			(s) => s.tuiMode,
			"regular",
		),
		choice(
			"fullscreen-exit-output",
			"Fullscreen exit output",
			"Print the transcript or only a session resume hint when exiting fullscreen mode",
			["fullscreenExitOutput"],
			["transcript", "resume-hint"],
			(s) => s.fullscreenExitOutput,
			"transcript",
		),
		choice(
			"fullscreen-scrollbar",
			"Fullscreen scrollbar",
			"Scrollbar behavior in fullscreen mode; has no effect in regular mode",
			["fullscreenScrollbar"],
			["auto", "always", "hidden"],
			(s) => s.fullscreenScrollbar,
			"auto",
		),
		flag(
			"fullscreen-copy-on-select",
			"Fullscreen copy on select",
			"Automatically copy selected text in fullscreen mode; disable to copy selections with Ctrl+X",
			["fullscreenCopyOnSelect"],
			(s) => s.fullscreenCopyOnSelect,
			true,
		),
		{ kind: "submenu", id: "theme", label: "Theme", description: "Color theme for the interface" },
	];
}
