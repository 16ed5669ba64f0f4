/**
 * Context compaction, pure part: token estimates, the trigger threshold, cut-point selection, preparation of a
 * compaction from the branch's entries, file tracking and the summarisation prompts. No model calls here.
 */
export {
	type CutPointResult,
	findCutPoint,
	findTurnStart,
	findTurnStart as findTurnStartIndex,
	isCutPoint,
	isTurnStart,
} from "./cut-point.ts";
export {
	addCompactionFileOps,
	collectFileOps,
	compactionDetails,
	computeFileLists,
	createFileOps,
	emptyFileOps,
	extractFileOpsFromMessage,
	type FileOperations,
	type FileOps,
	type FileOpsSets,
	formatFileLists,
	toFileOps,
} from "./file-ops.ts";
export {
	createBranchSummaryMessage,
	createCompactionSummaryMessage,
	createCustomMessage,
	findHarnessCutPoint,
	findHarnessTurnStartIndex,
	type HarnessCompactionPreparation,
	type HarnessEntry,
	prepareHarnessBranchEntries,
	prepareHarnessCompaction,
} from "./harness.ts";
export { collectEdits, entryMessage, messagesBetween } from "./messages.ts";
export { type CompactionPreparation, prepareCompaction } from "./prepare.ts";
export {
	buildSummaryPrompt,
	buildTurnPrefixPrompt,
	maxBranchSummaryTokens,
	maxSummaryTokens,
	SUMMARY_SYSTEM_PROMPT,
	type SummaryPromptOptions,
	serializeConversation,
	summaryRequestText,
	TOOL_RESULT_LIMIT,
	turnPrefixRequestText,
} from "./prompts.ts";
export {
	type CompactionSettings,
	type ContextEstimate,
	type ContextUsage,
	calculateContextTokens,
	DEFAULT_COMPACTION_SETTINGS,
	estimateContextTokens,
	estimateTokens,
	getContextUsage,
	getLastAssistantUsage,
	IMAGE_TOKENS,
	shouldCompact,
	usageTokens,
} from "./tokens.ts";
