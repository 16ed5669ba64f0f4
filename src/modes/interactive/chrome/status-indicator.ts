/**
 * Status indicators: a spinner and a message shown while the agent works, compacts, retries or summarises a
 * branch. The default editor draws the active one inside its top border (`── ⠋ Working... ───`, only the spinner
 * when narrow); an editor that does not embed it gets it as its own row (the Loader's blank line, then the line).
 */
import { Loader, type LoaderIndicatorOptions, truncateToWidth } from "../../../tui/index.ts";
import { CountdownTimer, type RenderRequester } from "./countdown-timer.ts";
import { appKeyText } from "./keys.ts";
import { type ChromeTheme, themeOf } from "./theme.ts";

export type StatusKind = "working" | "retry" | "compaction" | "branchSummary";
type Style = (text: string) => string;

export class StatusIndicator extends Loader {
	constructor(
		readonly kind: StatusKind,
		ui: RenderRequester,
		spinnerColorFn: Style,
		messageColorFn: Style,
		message?: string,
		indicator?: LoaderIndicatorOptions,
	) {
		super(ui, spinnerColorFn, messageColorFn, message, indicator);
	}

	/** Spinner and message without the row's padding, cut to `width` columns. */
	renderInBorder(width: number): string {
		const line = super.render(width + 2)[1] ?? "";
		return truncateToWidth(line.startsWith(" ") ? line.slice(1).trimEnd() : line.trimEnd(), width, "");
	}

	/** Only the spinner frame, cut to `width` columns. */
	renderSpinnerInBorder(width: number): string {
		return truncateToWidth(this.getRenderedIndicator(), width, "");
	}

	dispose(): void {
		this.stop();
	}
}

const styled = (theme: ChromeTheme | undefined, color: string): Style => {
	return (text) => themeOf(theme).fg(color, text);
};

/** The agent is working: accent spinner, muted message (or one colour for both). */
export class WorkingStatusIndicator extends StatusIndicator {
	constructor(
		ui: RenderRequester,
		message?: string,
		indicator?: LoaderIndicatorOptions,
		colorFn?: Style,
		theme?: ChromeTheme,
	) {
		super("working", ui, colorFn ?? styled(theme, "accent"), colorFn ?? styled(theme, "muted"), message, indicator);
	}
}

/** Waiting before retrying a failed request; the seconds count down. */
export class RetryStatusIndicator extends StatusIndicator {
	private countdown: CountdownTimer | undefined;

	constructor(ui: RenderRequester, attempt: number, maxAttempts: number, delayMs: number, theme?: ChromeTheme) {
		const text = (seconds: number) =>
			`Retrying (${attempt}/${maxAttempts}) in ${seconds}s... (${appKeyText("app.interrupt")} to cancel)`;
		super("retry", ui, styled(theme, "warning"), styled(theme, "muted"), text(Math.ceil(delayMs / 1000)));
		this.countdown = new CountdownTimer(
			delayMs,
			ui,
			(seconds) => this.setMessage(text(seconds)),
			() => {
				this.countdown = undefined;
			},
		);
	}

	override dispose(): void {
		this.countdown?.dispose();
		this.countdown = undefined;
		super.dispose();
	}
}

export type CompactionReason = "manual" | "threshold" | "overflow";

/** Compacting the context, by request or automatically (after an overflow, it says so). */
export class CompactionStatusIndicator extends StatusIndicator {
	constructor(ui: RenderRequester, reason: CompactionReason, theme?: ChromeTheme) {
		const cancel = `(${appKeyText("app.interrupt")} to cancel)`;
		const label =
			reason === "manual"
				? `Compacting context... ${cancel}`
				: `${reason === "overflow" ? "Context overflow detected, " : ""}Auto-compacting... ${cancel}`;
		super("compaction", ui, styled(theme, "accent"), styled(theme, "muted"), label);
	}
}

/** Summarising the branch being left (tree navigation). */
export class BranchSummaryStatusIndicator extends StatusIndicator {
	constructor(ui: RenderRequester, theme?: ChromeTheme) {
		const label = `Summarizing branch... (${appKeyText("app.interrupt")} to cancel)`;
		super("branchSummary", ui, styled(theme, "accent"), styled(theme, "muted"), label);
	}
}

/** The status row when nothing runs: two blank rows, so the layout does not jump when work starts. */
export class IdleStatus {
	invalidate(): void {}

	render(width: number): string[] {
		const blank = " ".repeat(width);
		return [blank, blank];
	}
}
