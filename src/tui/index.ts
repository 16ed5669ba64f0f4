/**
 * The terminal UI layer: components, key decoding and width arithmetic. Extensions see this as `pi-tui`; the
 * agent-side helpers (DynamicBorder, BorderedLoader, CustomEditor, get*Theme) are re-exported by `pi-coding-agent`.
 * Depends only on util.
 */
export {
	BorderedLoader,
	DynamicBorder,
	getEditorTheme,
	getMarkdownTheme,
	getSelectListTheme,
	getSettingsListTheme,
	type ThemeColors,
} from "./agent-components.ts";
// Fullscreen layout and mouse (issue 18 item 2, fullscreen part)
export { TuiAltScreen, type TuiAltScreenOptions } from "./alt-screen/tui-alt-screen.ts";
export type {
	AutocompleteItem,
	AutocompleteProvider,
	AutocompleteSuggestions,
	SlashCommand,
} from "./autocomplete.ts";
export { CombinedAutocompleteProvider } from "./autocomplete-provider.ts";
export { Box, Container, Spacer, Text, TruncatedText } from "./basic.ts";
export { CustomEditor, type CustomEditorOptions, type KeybindingMatcher } from "./custom-editor.ts";
export { Editor, type EditorOptions, type EditorTheme } from "./editor.ts";
export type { EditorComponent } from "./editor-component.ts";
export { type FuzzyMatch, fuzzyFilter, fuzzyMatch } from "./fuzzy.ts";
export { Image, type ImageOptions, type ImageTheme } from "./image.ts";
// Terminal images, terminal colours and the clipboard (issue 18 item 1)
export {
	calculateImageRows,
	getGifDimensions,
	getImageDimensions,
	getJpegDimensions,
	getPngDimensions,
	getWebpDimensions,
	type ImageDimensions,
} from "./image-dimensions.ts";
export { Input, type InputOptions } from "./input.ts";
export { formatKeyText, keyText } from "./key-hints.ts";
export {
	getKeybindings,
	type Keybinding,
	type KeybindingConflict,
	type KeybindingDefinition,
	type KeybindingDefinitions,
	type Keybindings,
	type KeybindingsConfig,
	KeybindingsManager,
	setKeybindings,
	TUI_KEYBINDINGS,
} from "./keybindings.ts";
export { type KeybindingsFileResult, LEGACY_KEYBINDING_NAMES, readKeybindingsFile } from "./keybindings-file.ts";
export {
	decodeKittyPrintable,
	decodePrintableKey,
	isKeyRelease,
	isKeyRepeat,
	isKittyProtocolActive,
	Key,
	type KeyEventType,
	type KeyId,
	matchesKey,
	parseKey,
	setKittyProtocolActive,
} from "./keys.ts";
export { type RenderLatexOptions, renderLatex } from "./latex/index.ts";
export {
	ScrollView,
	type ScrollViewOptions,
	type ScrollViewScrollbar,
	type ScrollViewScrollToOptions,
} from "./layout/scroll-view.ts";
export {
	HStack,
	type StackChild,
	type StackEntry,
	type StackEntryOptions,
	type StackOptions,
	VStack,
} from "./layout/stacks.ts";
export { CancellableLoader, Loader, type LoaderIndicatorOptions } from "./loader.ts";
export { Marked } from "./markdown/marked.ts";
export { type DefaultTextStyle, Markdown, type MarkdownOptions, type MarkdownTheme } from "./markdown.ts";
export { MouseRegion, type MouseRegionHandler } from "./mouse/mouse-region.ts";
export { getNativeClipboard, type NativeClipboard } from "./native-clipboard.ts";
export { compositeTuiLine, isViewportTUI, VIEWPORT_TUI, type ViewportTUI } from "./render/composite.ts";
export { type MainScreenRenderState, TuiMainScreen } from "./render/main-screen.ts";
export { TuiBase } from "./render/tui-base.ts";
export {
	type SelectItem,
	SelectList,
	type SelectListLayoutOptions,
	type SelectListTheme,
	type SelectListTruncatePrimaryContext,
} from "./select-list.ts";
export { type SettingItem, SettingsList, type SettingsListOptions, type SettingsListTheme } from "./settings-list.ts";
export { StdinBuffer, type StdinBufferEventMap, type StdinBufferOptions } from "./stdin-buffer.ts";
export { ProcessTerminal } from "./terminal.ts";
export {
	type CellDimensions,
	detectCapabilities,
	getCapabilities,
	getCellDimensions,
	type ImageProtocol,
	resetCapabilitiesCache,
	setCapabilities,
	setCapabilityOverrides,
	setCellDimensions,
	type TerminalCapabilities,
} from "./terminal-capabilities.ts";
export { parseOsc11BackgroundColor, parseTerminalColorSchemeReport } from "./terminal-colors.ts";
export {
	allocateImageId,
	deleteAllKittyImages,
	deleteKittyImage,
	encodeITerm2,
	encodeKitty,
	hyperlink,
	type ImageRenderOptions,
	imageFallback,
	renderImage,
} from "./terminal-image.ts";
export {
	type Component,
	CURSOR_MARKER,
	type Focusable,
	isFocusable,
	type OverlayAnchor,
	type OverlayBounds,
	type OverlayHandle,
	type OverlayMargin,
	type OverlayOptions,
	type OverlayUnfocusOptions,
	type RgbColor,
	type SizeValue,
	type Terminal,
	type TerminalColorScheme,
	type TUI,
	type TuiInputListener,
	type TuiInputListenerResult,
	type TuiMode,
	type TuiMouseButton,
	type TuiMouseEvent,
	type TuiMouseEventResult,
	type TuiMouseEventType,
	type TuiStopOptions,
} from "./types.ts";
export { truncateToVisualLines, type VisualTruncateResult } from "./visual-truncate.ts";
export { getOsc8LinkAtColumn, sliceByColumn, stripTerminalSequences, truncateToWidth, visibleWidth } from "./width.ts";
export { wrapTextWithAnsi } from "./wrap.ts";
