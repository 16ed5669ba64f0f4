export { AssistantMessageComponent, type AssistantMessageLike } from "./assistant-message.ts";
export { BashExecutionComponent, type BashTruncation } from "./bash-execution.ts";
export { CustomMessageComponent, type CustomMessageLike, type MessageRenderer } from "./custom-message.ts";
export { type RenderDiffOptions, renderDiff } from "./diff.ts";
export { keyHint, keyText, rawKeyHint } from "./keybinding-hints.ts";
export { type MarkdownTransformer, setTranscriptStyle, type TranscriptStyle, type TranscriptTheme } from "./style.ts";
export {
	type BranchSummaryLike,
	BranchSummaryMessageComponent,
	type CompactionSummaryLike,
	CompactionSummaryMessageComponent,
	type SkillBlockLike,
	SkillInvocationMessageComponent,
} from "./summary-messages.ts";
export { type RenderRequest, ToolExecutionComponent, type ToolExecutionOptions } from "./tool-execution.ts";
export {
	createAllToolRenderers,
	createShellRenderers,
	editRenderers,
	findRenderers,
	grepRenderers,
	lsRenderers,
	readRenderers,
	withBuiltInRenderers,
	writeRenderers,
} from "./tool-renderers/index.ts";
export type { ToolRenderContext, ToolRenderers, ToolResultView } from "./tool-types.ts";
export { UserMessageComponent } from "./user-message.ts";
