/** What the chat transcript is built from: the app's render loop, lookups of extension renderers, display settings. */
import type { CustomEntry, SessionEntry } from "../../../session/index.ts";
import type { Component, MarkdownTheme } from "../../../tui/index.ts";
import type {
	MarkdownTransformer,
	MessageRenderer,
	RenderRequest,
	ToolRenderers,
	TranscriptTheme,
} from "../components/index.ts";

/**
 * Display settings, read each time a component is made (so an object with getters over the settings store always
 * gives the current values). `hideThinkingBlock` is read once, at construction; later changes go through
 * `ChatTranscript.setHideThinking`.
 */
export interface TranscriptSettings {
	/** Thinking runs as one italic label instead of their text (settings `hideThinkingBlock`, default false). */
	readonly hideThinkingBlock?: boolean;
	/** Images in tool results drawn when the terminal can (settings `terminal.showImages`, default true). */
	readonly showImages?: boolean;
	/** Widest an image may be drawn, in cells (settings `terminal.imageWidthCells`, default 60). */
	readonly imageWidthCells?: number;
	/** Left and right padding of messages (settings `outputPad`, default 1). */
	readonly outputPad?: number;
	/** Cache-warming usage and compaction/branch-summary billing notices (settings `showCacheMissNotices`). */
	readonly showCacheMissNotices?: boolean;
}

/** An extension's `registerEntryRenderer` function, as the transcript calls it. */
export type EntryRenderer = (
	entry: CustomEntryLike,
	options: { expanded: boolean },
	theme: TranscriptTheme,
) => Component | undefined;

/** A `custom` session entry (`pi.appendEntry`). */
export type CustomEntryLike = CustomEntry;

export interface ChatTranscriptOptions {
	/** Asked to draw again after every change the transcript makes. */
	ui: RenderRequest;
	/** The session's working folder (tool renderers resolve and link paths against it); a function when it changes. */
	cwd: string | (() => string);
	/**
	 * The renderers of a tool by name: an extension tool's `renderCall`/`renderResult`/`renderShell`, filled in with
	 * the built-in ones (`withBuiltInRenderers`). Default: the built-in renderers only.
	 */
	getToolDefinition?: (toolName: string) => ToolRenderers | undefined;
	/** `registerMessageRenderer` lookup for custom messages. */
	getMessageRenderer?: (customType: string) => MessageRenderer | undefined;
	/** `registerEntryRenderer` lookup for custom entries; without it custom entries are not shown (as in pi). */
	getEntryRenderer?: (customType: string) => EntryRenderer | undefined;
	/** The Markdown theme with the user's settings (code-block indent …). Default: the transcript style's theme. */
	markdownTheme?: () => MarkdownTheme;
	/** Markdown transformers (Mermaid, extensions' `registerMarkdownTransformer`), in the order they run. */
	markdownTransformers?: () => MarkdownTransformer[];
	settings?: TranscriptSettings;
	/**
	 * The session's compaction-aware context entries (`SessionManager.buildContextEntries()`): after a compaction the
	 * transcript is cleared and rebuilt from them. Without it the compaction summary is only appended.
	 */
	contextEntries?: () => readonly SessionEntry[];
	/** Called with the text of each user message a history shows (pi puts them into the editor's history). */
	onHistoryUserText?: (text: string) => void;
}
