/**
 * The footer under the editor: the working folder (home as `~`) with git branch and session name; token totals,
 * cost, context use and the model on the right; then extension statuses. Same constructor and methods as pi's
 * FooterComponent, fed by the small interfaces below (an agent session and footer-data provider satisfy them).
 */
import { type Component, truncateToWidth, visibleWidth } from "../../../tui/index.ts";
import { formatCwdForFooter, formatTokens, oneLineStatus } from "./format.ts";
import { type ChromeTheme, themeOf } from "./theme.ts";
import { type UsageEntry, UsageTally, type UsageTotals } from "./usage-tally.ts";

export interface FooterModel {
	id: string;
	provider: string;
	reasoning?: boolean;
	contextWindow?: number;
}

export interface FooterContextUsage {
	contextWindow?: number;
	/** Null right after a compaction, until the next response tells the size again. */
	percent: number | null;
}

/** What the footer reads from the session. */
export interface FooterSession {
	readonly state: { readonly model?: FooterModel | undefined; readonly thinkingLevel?: string | undefined };
	getContextUsage(): FooterContextUsage | undefined;
	readonly sessionManager: {
		getCwd(): string;
		getSessionName(): string | undefined;
		/** Read only when `getUsageTotals` is absent; counted incrementally (append-only). */
		getEntries(): readonly UsageEntry[];
	};
	readonly modelRuntime?: { isUsingSubscription(provider: string): boolean };
	/** Running totals kept by the caller (a UsageTally fed as entries arrive); spares reading the entry list. */
	getUsageTotals?(): Readonly<UsageTotals>;
}

/** Git branch, provider count and extension statuses (pi's ReadonlyFooterDataProvider). */
export interface FooterDataProvider {
	getGitBranch(): string | null | undefined;
	getExtensionStatuses(): ReadonlyMap<string, string>;
	getAvailableProviderCount(): number;
}

export interface FooterOptions {
	theme?: ChromeTheme;
	/** Home folder written `~`; default `$HOME` (or `%USERPROFILE%`). */
	home?: string;
	/** Appends the experimental-features marker. */
	experimental?: boolean;
}

const MIN_GAP = 2;

export class FooterComponent implements Component {
	private autoCompactEnabled = true;
	private readonly tally = new UsageTally();

	constructor(
		private session: FooterSession,
		private readonly footerData: FooterDataProvider,
		private readonly options: FooterOptions = {},
	) {}

	setSession(session: FooterSession): void {
		this.session = session;
		this.tally.reset();
	}

	setAutoCompactEnabled(enabled: boolean): void {
		this.autoCompactEnabled = enabled;
	}

	/** Nothing is cached across frames except the running totals, which stay valid. */
	invalidate(): void {}

	/** The footer holds no timers or watchers (the data provider owns the git watcher). */
	dispose(): void {}

	render(width: number): string[] {
		const theme = themeOf(this.options.theme);
		const dim = (text: string) => theme.fg("dim", text);
		const lines = [truncateToWidth(dim(this.placeLine()), width, dim("...")), this.statsLine(width, theme)];
		const statuses = this.footerData.getExtensionStatuses();
		if (statuses.size > 0) {
			const text = [...statuses.entries()]
				.sort(([a], [b]) => a.localeCompare(b))
				.map(([, status]) => oneLineStatus(status))
				.join(" ");
			lines.push(truncateToWidth(text, width, dim("...")));
		}
		return lines;
	}

	private totals(): Readonly<UsageTotals> {
		if (this.session.getUsageTotals) return this.session.getUsageTotals();
		this.tally.sync(this.session.sessionManager.getEntries());
		return this.tally.get();
	}

	private placeLine(): string {
		const home = "home" in this.options ? this.options.home : process.env.HOME || process.env.USERPROFILE;
		let place = formatCwdForFooter(this.session.sessionManager.getCwd(), home);
		const branch = this.footerData.getGitBranch();
		if (branch) place += ` (${branch})`;
		const name = this.session.sessionManager.getSessionName();
		if (name) place += ` • ${name}`;
		return place;
	}

	private leftStats(theme: ChromeTheme): string {
		const t = this.totals();
		const parts: string[] = [];
		if (t.input) parts.push(`↑${formatTokens(t.input)}`);
		if (t.output) parts.push(`↓${formatTokens(t.output)}`);
		if (t.cacheRead) parts.push(`R${formatTokens(t.cacheRead)}`);
		if (t.cacheWrite) parts.push(`W${formatTokens(t.cacheWrite)}`);
		if ((t.cacheRead > 0 || t.cacheWrite > 0) && t.latestCacheHitRate !== undefined) {
			parts.push(`CH${t.latestCacheHitRate.toFixed(1)}%`);
		}
		const model = this.session.state.model;
		// Kimi Coding bills by subscription although it signs in with an API key.
		const subscription = model
			? model.provider === "kimi-coding" || (this.session.modelRuntime?.isUsingSubscription(model.provider) ?? false)
			: false;
		if (t.cost || subscription) parts.push(`$${t.cost.toFixed(3)}${subscription ? " (sub)" : ""}`);
		parts.push(this.contextText(theme));
		if (this.options.experimental) parts.push(`${theme.fg("dim", "•")} ${theme.bold(theme.fg("warning", "xp"))}`);
		return parts.join(" ");
	}

	private contextText(theme: ChromeTheme): string {
		const usage = this.session.getContextUsage();
		const window = usage?.contextWindow ?? this.session.state.model?.contextWindow ?? 0;
		const percent = usage?.percent ?? 0;
		const auto = this.autoCompactEnabled ? " (auto)" : "";
		const shown = usage?.percent === null ? "?" : `${percent.toFixed(1)}%`;
		const text = `${shown}/${formatTokens(window)}${auto}`;
		if (percent > 90) return theme.fg("error", text);
		if (percent > 70) return theme.fg("warning", text);
		return text;
	}

	private modelText(): string {
		const model = this.session.state.model;
		const id = model?.id || "no-model";
		if (!model?.reasoning) return id;
		const level = this.session.state.thinkingLevel || "off";
		return level === "off" ? `${id} • thinking off` : `${id} • ${level}`;
	}

	private statsLine(width: number, theme: ChromeTheme): string {
		let left = this.leftStats(theme);
		if (visibleWidth(left) > width) left = truncateToWidth(left, width, "...");
		const leftWidth = visibleWidth(left);
		const model = this.session.state.model;
		let right = this.modelText();
		if (model && this.footerData.getAvailableProviderCount() > 1) {
			const withProvider = `(${model.provider}) ${right}`;
			if (leftWidth + MIN_GAP + visibleWidth(withProvider) <= width) right = withProvider;
		}
		let rest = "";
		if (leftWidth + MIN_GAP + visibleWidth(right) <= width) {
			rest = " ".repeat(width - leftWidth - visibleWidth(right)) + right;
		} else if (width - leftWidth - MIN_GAP > 0) {
			const cut = truncateToWidth(right, width - leftWidth - MIN_GAP, "");
			rest = " ".repeat(Math.max(0, width - leftWidth - visibleWidth(cut))) + cut;
		}
		// Dim the two halves separately: a coloured context figure ends with a colour reset that would end an outer dim.
		return theme.fg("dim", left) + theme.fg("dim", rest);
	}
}
