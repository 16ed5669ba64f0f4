/**
 * The first half of pi's `SettingsManager` accessors: model and thinking defaults, queue modes, theme,
 * compaction, branch summaries, retries, timeouts, shell and trust. Getters apply pi's defaults; setters change
 * the global document and queue its write.
 */
import type { ThinkingLevel } from "../agent/index.ts";
import { expandHome } from "../util/index.ts";
import { SettingsManagerCore } from "./settings-manager-core.ts";
import type { Settings } from "./settings-schema.ts";

type Setting<K extends keyof Settings> = NonNullable<Settings[K]>;
type QueueMode = "all" | "one-at-a-time";

const COMPACTION_TOKENS = { reserveTokens: 16384, keepRecentTokens: 20000 } as const;
const CACHE_WARMING_MODES = ["off", "streaming", "idle"] as const;
const DEFAULT_HTTP_IDLE_TIMEOUT_MS = 300_000;
const DEFAULT_MAX_AGENT_RETRY_DELAY_MS = 60_000;

/** A timeout setting in ms: a non-negative number (floored), a numeric string, or "disabled" (0). */
function timeoutMs(value: unknown): number | undefined {
	if (typeof value === "string") {
		const text = value.trim();
		if (text.toLowerCase() === "disabled") return 0;
		return text === "" ? undefined : timeoutMs(Number(text));
	}
	return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

function requireTimeout(value: unknown, name: string): number | undefined {
	const ms = timeoutMs(value);
	if (ms === undefined && value !== undefined) throw new Error(`Invalid ${name} setting: ${String(value)}`);
	return ms;
}

const normalizedPath = (path: string | undefined) =>
	path ? (path.startsWith("file://") ? new URL(path).pathname : expandHome(path)) : path;

const isTokenCount = (value: unknown) => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

export class SettingsAccessors extends SettingsManagerCore {
	getLastChangelogVersion(): string | undefined {
		return this.settings.lastChangelogVersion;
	}
	setLastChangelogVersion(version: string): void {
		this.setGlobal("lastChangelogVersion", version);
	}
	getSessionDir(): string | undefined {
		return normalizedPath(this.settings.sessionDir);
	}
	getDefaultProvider(): string | undefined {
		return this.settings.defaultProvider;
	}
	getDefaultModel(): string | undefined {
		return this.settings.defaultModel;
	}
	setDefaultProvider(provider: string): void {
		this.setGlobal("defaultProvider", provider);
	}
	setDefaultModel(modelId: string): void {
		this.setGlobal("defaultModel", modelId);
	}
	setDefaultModelAndProvider(provider: string, modelId: string): void {
		this.editGlobal("defaultProvider", (s) => {
			s.defaultProvider = provider;
			s.defaultModel = modelId;
		});
		this.setGlobal("defaultModel", modelId);
	}
	getSteeringMode(): QueueMode {
		return this.settings.steeringMode || "one-at-a-time";
	}
	setSteeringMode(mode: QueueMode): void {
		this.setGlobal("steeringMode", mode);
	}
	getFollowUpMode(): QueueMode {
		return this.settings.followUpMode || "one-at-a-time";
	}
	setFollowUpMode(mode: QueueMode): void {
		this.setGlobal("followUpMode", mode);
	}
	getThemeSetting(): string | undefined {
		return typeof this.settings.theme === "string" ? this.settings.theme : undefined;
	}
	/** The theme name, or undefined when the setting is a path. */
	getTheme(): string | undefined {
		const theme = this.getThemeSetting();
		return theme?.includes("/") ? undefined : theme;
	}
	setTheme(theme: string): void {
		this.setGlobal("theme", theme);
	}
	getDefaultThinkingLevel(): ThinkingLevel | undefined {
		return this.settings.defaultThinkingLevel;
	}
	setDefaultThinkingLevel(level: ThinkingLevel): void {
		this.setGlobal("defaultThinkingLevel", level);
	}
	getModelThinkingLevel(provider: string, modelId: string): ThinkingLevel | undefined {
		return this.settings.modelThinkingLevels?.[`${provider}/${modelId}`];
	}
	getAllModelThinkingLevels(): Record<string, ThinkingLevel> {
		return { ...(this.settings.modelThinkingLevels ?? {}) };
	}
	setModelThinkingLevel(provider: string, modelId: string, level: ThinkingLevel): void {
		this.editGlobal("modelThinkingLevels", (s) => {
			s.modelThinkingLevels = { ...(s.modelThinkingLevels ?? {}), [`${provider}/${modelId}`]: level };
		});
	}
	removeModelThinkingLevel(provider: string, modelId: string): void {
		if (!this.globalSettings.modelThinkingLevels) return;
		this.editGlobal("modelThinkingLevels", (s) => {
			const levels = s.modelThinkingLevels ?? {};
			delete levels[`${provider}/${modelId}`];
			if (Object.keys(levels).length === 0) delete s.modelThinkingLevels;
		});
	}
	getTransport(): Setting<"transport"> {
		return this.settings.transport ?? "auto";
	}
	setTransport(transport: Setting<"transport">): void {
		this.setGlobal("transport", transport);
	}

	getCompactionEnabled(): boolean {
		return this.settings.compaction?.enabled ?? true;
	}
	setCompactionEnabled(enabled: boolean): void {
		this.setGlobal("compaction", enabled, "enabled");
	}
	/** Model override (`compaction.modelOverrides["provider/id"]`), then the plain setting, then pi's default. */
	private compactionTokens(field: keyof typeof COMPACTION_TOKENS, model?: { provider: string; id: string }): number {
		const compaction = this.settings.compaction as Record<string, any> | undefined;
		const plain = compaction?.[field];
		if (plain !== undefined && !isTokenCount(plain)) {
			throw new Error(`Invalid compaction.${field} setting: ${String(plain)}. Expected a non-negative safe integer.`);
		}
		const key = model ? `${model.provider}/${model.id}` : undefined;
		const entry = key !== undefined ? compaction?.modelOverrides?.[key] : undefined;
		if (entry !== undefined && (typeof entry !== "object" || entry === null || Array.isArray(entry))) {
			throw new Error(`Invalid compaction.modelOverrides["${key}"] setting: ${String(entry)}. Expected an object.`);
		}
		const override = entry?.[field];
		if (override !== undefined && !isTokenCount(override)) {
			throw new Error(
				`Invalid compaction.modelOverrides["${key}"].${field} setting: ${String(override)}. Expected a non-negative safe integer.`,
			);
		}
		return override ?? plain ?? COMPACTION_TOKENS[field];
	}
	getCompactionReserveTokens(model?: { provider: string; id: string }) {
		return this.compactionTokens("reserveTokens", model);
	}
	getCompactionKeepRecentTokens(model?: { provider: string; id: string }) {
		return this.compactionTokens("keepRecentTokens", model);
	}
	getCompactionSettings(model?: { provider: string; id: string }) {
		return {
			enabled: this.getCompactionEnabled(),
			reserveTokens: this.getCompactionReserveTokens(model),
			keepRecentTokens: this.getCompactionKeepRecentTokens(model),
		};
	}
	getBranchSummarySettings() {
		return {
			reserveTokens: this.settings.branchSummary?.reserveTokens ?? 16384,
			skipPrompt: this.settings.branchSummary?.skipPrompt ?? false,
		};
	}
	getBranchSummarySkipPrompt(): boolean {
		return this.settings.branchSummary?.skipPrompt ?? false;
	}

	getRetryEnabled(): boolean {
		return this.settings.retry?.enabled ?? true;
	}
	setRetryEnabled(enabled: boolean): void {
		this.setGlobal("retry", enabled, "enabled");
	}
	getRetrySettings() {
		return {
			enabled: this.getRetryEnabled(),
			maxRetries: this.settings.retry?.maxRetries ?? 3,
			baseDelayMs: this.settings.retry?.baseDelayMs ?? 2000,
			maxAgentDelayMs: this.settings.retry?.maxAgentDelayMs ?? DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
		};
	}
	getHttpIdleTimeoutMs(): number {
		return requireTimeout(this.settings.httpIdleTimeoutMs, "httpIdleTimeoutMs") ?? DEFAULT_HTTP_IDLE_TIMEOUT_MS;
	}
	setHttpIdleTimeoutMs(ms: number): void {
		if (!Number.isFinite(ms) || ms < 0) throw new Error(`Invalid httpIdleTimeoutMs setting: ${String(ms)}`);
		this.setGlobal("httpIdleTimeoutMs", Math.floor(ms));
	}
	/** Global settings only: warming the cache costs money, so a project cannot turn it on. */
	getCacheWarmingMode(): (typeof CACHE_WARMING_MODES)[number] {
		const mode = this.globalSettings.cacheWarming;
		return mode !== undefined && CACHE_WARMING_MODES.includes(mode) ? mode : "streaming";
	}
	setCacheWarmingMode(mode: (typeof CACHE_WARMING_MODES)[number]): void {
		this.setGlobal("cacheWarming", mode);
	}
	getProviderRetrySettings(): { timeoutMs?: number; maxRetries?: number; maxRetryDelayMs: number } {
		return {
			timeoutMs: this.settings.retry?.provider?.timeoutMs,
			maxRetries: this.settings.retry?.provider?.maxRetries,
			maxRetryDelayMs: this.settings.retry?.provider?.maxRetryDelayMs ?? 60000,
		};
	}
	getWebSocketConnectTimeoutMs(): number | undefined {
		return requireTimeout(this.settings.websocketConnectTimeoutMs, "websocketConnectTimeoutMs");
	}
	getHideThinkingBlock(): boolean {
		return this.settings.hideThinkingBlock ?? false;
	}
	setHideThinkingBlock(hide: boolean): void {
		this.setGlobal("hideThinkingBlock", hide);
	}
	getShowCacheMissNotices(): boolean {
		return this.settings.showCacheMissNotices ?? false;
	}
	setShowCacheMissNotices(show: boolean): void {
		this.setGlobal("showCacheMissNotices", show);
	}
	/** Settings `externalEditor`, else $VISUAL, $EDITOR, and finally nano (notepad on Windows). */
	getExternalEditorCommand(): string {
		const configured = this.settings.externalEditor;
		if (typeof configured === "string" && configured.trim() !== "") return configured;
		return process.env.VISUAL || process.env.EDITOR || (process.platform === "win32" ? "notepad" : "nano");
	}
	getShellPath(): string | undefined {
		return normalizedPath(this.settings.shellPath);
	}
	setShellPath(path: string | undefined): void {
		this.setGlobal("shellPath", path);
	}
	getQuietStartup(): boolean {
		return this.settings.quietStartup ?? false;
	}
	setQuietStartup(quiet: boolean): void {
		this.setGlobal("quietStartup", quiet);
	}
	/** Global settings only. */
	getDefaultProjectTrust(): Setting<"defaultProjectTrust"> {
		const value = this.globalSettings.defaultProjectTrust;
		return value === "always" || value === "never" ? value : "ask";
	}
	setDefaultProjectTrust(trust: Setting<"defaultProjectTrust">): void {
		this.setGlobal("defaultProjectTrust", trust);
	}
	getShellCommandPrefix(): string | undefined {
		return this.settings.shellCommandPrefix;
	}
	setShellCommandPrefix(prefix: string | undefined): void {
		this.setGlobal("shellCommandPrefix", prefix);
	}
	getNpmCommand(): string[] | undefined {
		return this.settings.npmCommand ? [...this.settings.npmCommand] : undefined;
	}
	setNpmCommand(command: string[] | undefined): void {
		this.setGlobal("npmCommand", command ? [...command] : undefined);
	}
	getCollapseChangelog(): boolean {
		return this.settings.collapseChangelog ?? false;
	}
	setCollapseChangelog(collapse: boolean): void {
		this.setGlobal("collapseChangelog", collapse);
	}
	getEnableInstallTelemetry(): boolean {
		return this.settings.enableInstallTelemetry ?? true;
	}
	setEnableInstallTelemetry(enabled: boolean): void {
		this.setGlobal("enableInstallTelemetry", enabled);
	}
	getEnableAnalytics(): boolean {
		return this.settings.enableAnalytics ?? false;
	}
	getTrackingId(): string | undefined {
		return this.settings.trackingId;
	}
	/** Opting in for the first time also creates the tracking id. */
	setEnableAnalytics(enabled: boolean): void {
		if (enabled && !this.globalSettings.trackingId) this.setGlobal("trackingId", crypto.randomUUID());
		this.setGlobal("enableAnalytics", enabled);
	}
}
