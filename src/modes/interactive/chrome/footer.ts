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
	/** The last lines and what they were made from: a frame with the same inputs gets the same array back. */
	private last: { theme: ChromeTheme; key: string; lines: string[] } | undefined;
	private cwdText: { cwd: string; home: string | undefined; text: string } | undefined;

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

	/** Draws the lines afresh next frame (the running totals stay valid). */
	invalidate(): void {
		this.last = undefined;
	}

	/** The footer holds no timers or watchers (the data provider owns the git watcher). */
	dispose(): void {}

	render(width: number): string[] {
		const theme = themeOf(this.options.theme);
		const dim = (text: string) => theme.fg("dim", text);
		const place = this.placeLine();
		const left = this.leftStats(theme);
		const right = this.modelText();
		const model = this.session.state.model;
		const provider = model && this.footerData.getAvailableProviderCount() > 1 ? model.provider : undefined;
		const statuses = this.footerData.getExtensionStatuses();
		let statusKey = "";
		for (const [key, status] of statuses) statusKey += `\u0000${key}\u0000${status}`;
		const key = `${width}\u0000${dim("x")}\u0000${place}\u0000${left}\u0000${right}\u0000${provider ?? "\u0001"}${statusKey}`;
		const last = this.last;
		if (last && last.theme === theme && last.key === key) return last.lines;
		const lines = [truncateToWidth(dim(place), width, dim("...")), this.statsLine(width, theme, left, right, provider)];
		if (statuses.size > 0) {
			const text = [...statuses.entries()]
				.sort(([a], [b]) => a.localeCompare(b))
				.map(([, status]) => oneLineStatus(status))
				.join(" ");
			lines.push(truncateToWidth(text, width, dim("...")));
		}
		this.last = { theme, key, lines };
		return lines;
	}

	private totals(): Readonly<UsageTotals> {
		if (this.session.getUsageTotals) return this.session.getUsageTotals();
		this.tally.sync(this.session.sessionManager.getEntries());
		return this.tally.get();
	}

	private placeLine(): string {
		const home = "home" in this.options ? this.options.home : process.env.HOME || process.env.USERPROFILE;
		const cwd = this.session.sessionManager.getCwd();
		const known = this.cwdText;
		const text = known && known.cwd === cwd && known.home === home ? known.text : formatCwdForFooter(cwd, home);
		this.cwdText = { cwd, home, text };
		let place = text;
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

	/** `provider`: the model's provider when more than one is available (shown before the model if it fits). */
	private statsLine(width: number, theme: ChromeTheme, stats: string, model: string, provider?: string): string {
		let left = stats;
		if (visibleWidth(left) > width) left = truncateToWidth(left, width, "...");
		const leftWidth = visibleWidth(left);
		let right = model;
		if (provider !== undefined) {
			const withProvider = `(${provider}) ${right}`;
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
