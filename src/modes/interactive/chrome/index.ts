/** The interactive mode's screen chrome: header, start-up summary, footer, status indicators, key hints. */
export { CountdownTimer, type RenderRequester } from "./countdown-timer.ts";
export {
	FooterComponent,
	type FooterContextUsage,
	type FooterDataProvider,
	type FooterModel,
	type FooterOptions,
	type FooterSession,
} from "./footer.ts";
export { FooterData, findGitPaths, type GitPaths } from "./footer-data.ts";
export { formatCwdForFooter, formatTokens, oneLineStatus } from "./format.ts";
export { type Expandable, HeaderComponent, type HeaderOptions, headerLines, isExpandable } from "./header.ts";
export { appKeyText, keyHint, rawKeyHint } from "./keys.ts";
export { compactExtensionLabels, displayPath, type LabelledExtension } from "./resource-labels.ts";
export {
	type DiagnosticSection,
	type LoadedSection,
	StartupSummary,
	type StartupSummaryData,
	type StartupSummaryOptions,
} from "./startup-summary.ts";
export {
	BranchSummaryStatusIndicator,
	type CompactionReason,
	CompactionStatusIndicator,
	IdleStatus,
	RetryStatusIndicator,
	StatusIndicator,
	type StatusKind,
	WorkingStatusIndicator,
} from "./status-indicator.ts";
export type { ChromeTheme } from "./theme.ts";
export { type UsageEntry, type UsageNumbers, UsageTally, type UsageTotals } from "./usage-tally.ts";
