export { serializeConversation } from "../compaction/index.ts";
export {
	AgentSession,
	type AgentSessionOptions,
	type RunEndHook,
} from "./agent-session.ts";
export {
	type AgentSessionRuntimeDiagnostic,
	type AgentSessionServices,
	type CreateAgentSessionServicesOptions,
	createAgentSessionServices,
} from "./agent-session-services.ts";
export { attachAutoCompaction } from "./auto-compaction.ts";
export { type BoundaryDeps, RunBoundaries } from "./boundaries.ts";
export {
	type BranchPreparation,
	type BranchSummaryResult,
	branchInstructions,
	type CollectEntriesResult,
	collectEntriesForBranchSummary,
	DEFAULT_BRANCH_SUMMARY_RESERVE,
	type GenerateBranchSummaryOptions,
	generateBranchSummary,
	prepareBranchEntries,
} from "./branch-summary.ts";
export {
	compact,
	generateSummary,
	generateSummaryWithUsage,
	type SummaryRetryCallbacks,
	type SummaryRetryPolicy,
} from "./compaction-api.ts";
export {
	type CompactionRequest,
	type CompactionRunOutcome,
	compactNow,
	NothingToCompactError,
	runCompaction,
} from "./compaction-lifecycle.ts";
export {
	CompactionCancelledError,
	type CompactionDeps,
	type CompactionOutcome,
	type CompactionReason,
	type CompactionResult,
	compactSession,
	currentCompactionSettings,
} from "./compaction-run.ts";
export {
	BRANCH_SUMMARY_PREFIX,
	BRANCH_SUMMARY_SUFFIX,
	bashExecutionText,
	COMPACTION_SUMMARY_PREFIX,
	COMPACTION_SUMMARY_SUFFIX,
	convertToLlm,
} from "./convert-to-llm.ts";
export { type CreateSessionOptions, createAgentSession } from "./create-session.ts";
export {
	type ConfiguredPackageInfo,
	DefaultPackageManager,
	type DefaultPackageManagerOptions,
	type MissingSourceAction,
	type PackageManager,
	type PackageUpdate,
	type PathMetadata,
	type ProgressCallback,
	type ProgressEvent,
	type ResolvedPaths,
	type ResolvedResource,
} from "./default-package-manager.ts";
export {
	DefaultResourceLoader,
	type DefaultResourceLoaderOptions,
	type ResourceExtensionPaths,
} from "./default-resource-loader.ts";
export type { SessionEvent, SessionListener, SessionSaveFailure } from "./events.ts";
export { type ActionContext, createExtensionActions } from "./extension-actions.ts";
export {
	ExtensionBridge,
	type ExtensionBridgeOptions,
	type SessionControl,
	type SessionStartInfo,
} from "./extension-bridge.ts";
export {
	type ExtensionHost,
	type ExtensionHostOptions,
	type RegisteredFlag,
	startExtensionHost,
} from "./extension-host.ts";
export {
	type HostPackageOptions,
	installedCandidates,
	type SettingsPackageResources,
} from "./extension-packages.ts";
export { wrapRegisteredTool, wrapRegisteredTools } from "./extension-tools.ts";
export {
	BranchSummaryError,
	type BranchSummaryErrorCode,
	CompactionError,
	type CompactionErrorCode,
	type CompactResult as HarnessCompactResult,
	collectEntriesForBranchSummary as harnessCollectEntriesForBranchSummary,
	compact as harnessCompact,
	generateBranchSummary as harnessGenerateBranchSummary,
	generateSummary as harnessGenerateSummary,
	generateSummaryWithUsage as harnessGenerateSummaryWithUsage,
	NothingToCompact,
	prepareCompaction as harnessPrepareCompaction,
} from "./harness-summary.ts";
export { toWireEvent } from "./json-events.ts";
export {
	clampThinking,
	type ModelResolution,
	type ModelSource,
	parseModelPattern,
	resolveModel,
	THINKING_LEVELS,
} from "./model-resolver.ts";
export {
	type CreateModelRuntimeOptions,
	ModelRuntime,
	type ModelRuntimeAuth,
	type ModelRuntimeAuthOverrides,
} from "./model-runtime.ts";
export { navigateTree, type TreeHooks, type TreeNavigationOptions, type TreePreparationInfo } from "./navigate-tree.ts";
export {
	type CustomMessageInput,
	type InputSource,
	type PromptHooks,
	type PromptOptions,
	type StreamingBehavior,
	splitContent,
} from "./prompt-input.ts";
export { type PromptSources, PromptState } from "./prompt-state.ts";
export { DEFAULT_RETRY, type RetrySettings, retryDelay } from "./retry.ts";
export { type RuntimeFactory, RuntimeHost, type RuntimeStartedHook, type SessionRuntime } from "./runtime-host.ts";
export { type ExtensionBindings, SdkAgentSession } from "./sdk-agent-session.ts";
export { ExtensionRunner, type ProviderActions } from "./sdk-extension-runner.ts";
export {
	discoverAndLoadExtensions,
	type ExtensionModules,
	type InlineExtension,
	type LoadExtensionsResult,
	loadExtensionSet,
	type SdkExtension,
} from "./sdk-extensions.ts";
export {
	findExactModelReferenceMatch,
	type ModelScopeDiagnostic,
	providerDefaultModel,
	type ResolveCliModelResult,
	type ResolveModelScopeResult,
	resolveCliModel,
	resolveModelScopeFromModels,
	resolveModelScopeWithDiagnostics,
	type ScopedModel as SdkScopedModel,
} from "./sdk-model-resolver.ts";
export { announcingUi, type PromptAnnouncer, RESERVED_ACTIONS } from "./sdk-runner-registry.ts";
export {
	createSdkSession,
	type SdkResourceLoader,
	type SdkSessionOptions,
	type SdkSessionResult,
} from "./sdk-session.ts";
export { recordSession, recordSettings } from "./session-recorder.ts";
export {
	AgentSessionRuntime,
	type CreateAgentSessionRuntimeFactory,
	type CreateAgentSessionRuntimeResult,
	createAgentSessionRuntime,
	SessionImportFileNotFoundError,
	type SessionRuntimeTarget,
} from "./session-runtime.ts";
export {
	applyModel,
	applyThinkingLevel,
	isUsable,
	nextModel,
	nextThinkingLevel,
	type SettingsTarget,
} from "./session-settings.ts";
export {
	buildSystemPrompt,
	buildSystemPromptSections,
	buildSystemPromptState,
	diffSystemPromptSections,
	type NormalizedSystemPromptOptions,
	normalizeSystemPromptOptions,
	type SystemPromptOptions,
} from "./system-prompt.ts";
export { runUserBash, type UserBashOptions } from "./user-bash.ts";
