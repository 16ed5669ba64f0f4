/** The interactive mode's chat region: session history and live session events drawn as transcript components. */
export { ChatTranscript } from "./chat-transcript.ts";
export { CustomEntryComponent } from "./custom-entry.ts";
export { type BashExecutionLike, DEFAULT_HIDDEN_THINKING_LABEL } from "./factory.ts";
export {
	type IndicatorChange,
	type IndicatorKind,
	type IndicatorShow,
	statusIndicatorChange,
} from "./indicators.ts";
export type { ChatTranscriptOptions, CustomEntryLike, EntryRenderer, TranscriptSettings } from "./types.ts";
