/**
 * A `!command` typed by the user, between two rules in the bash-mode colour (dim for `!!`, which keeps the output
 * out of the model's context): "$ command", the output's last 20 lines (all when expanded), a spinner while it runs,
 * then the exit code, cancellation or truncation notes.
 */
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, sanitizeOutput, truncateTail } from "../../../tools/index.ts";
import {
	type Component,
	Container,
	DynamicBorder,
	Loader,
	Spacer,
	Text,
	truncateToVisualLines,
} from "../../../tui/index.ts";
import { keyHint, keyText } from "./keybinding-hints.ts";
import { theme } from "./style.ts";
import type { RenderRequest } from "./tool-execution.ts";

const PREVIEW_LINES = 20;

export interface BashTruncation {
	truncated?: boolean;
}

/** The last lines of the preview as they wrap at the width drawn (computed once per width). */
class PreviewTail implements Component {
	private cache: { width: number; lines: string[] } | undefined;
	constructor(private readonly styled: string) {}
	render(width: number): string[] {
		if (this.cache?.width !== width)
			this.cache = { width, lines: truncateToVisualLines(this.styled, PREVIEW_LINES, width, 1).visualLines };
		return this.cache.lines;
	}
	invalidate(): void {
		this.cache = undefined;
	}
}

export class BashExecutionComponent extends Container {
	private readonly command: string;
	private outputLines: string[] = [];
	private status: "running" | "complete" | "cancelled" | "error" = "running";
	private exitCode: number | null | undefined;
	private readonly loader: Loader;
	private truncationResult: BashTruncation | undefined;
	private fullOutputPath: string | undefined;
	private expanded = false;
	private readonly contentContainer = new Container();

	constructor(command: string, ui: RenderRequest, excludeFromContext = false) {
		super();
		this.command = command;
		const colorKey = excludeFromContext ? "dim" : "bashMode";
		const border = (text: string) => theme().fg(colorKey, text);
		this.addChild(new Spacer(1));
		this.addChild(new DynamicBorder(border));
		this.addChild(this.contentContainer);
		this.contentContainer.addChild(new Text(theme().fg(colorKey, theme().bold(`$ ${command}`)), 1, 0));
		this.loader = new Loader(
			ui,
			(spinner) => theme().fg(colorKey, spinner),
			(text) => theme().fg("muted", text),
			`Running... (${keyText("tui.select.cancel")} to cancel)`,
		);
		this.contentContainer.addChild(this.loader);
		this.addChild(new DynamicBorder(border));
	}

	/** Settled once the command has ended (the transcript may freeze its lines). */
	isSettled(): boolean {
		return this.status !== "running";
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.updateDisplay();
	}

	override invalidate(): void {
		super.invalidate();
		this.updateDisplay();
	}

	/** Adds streamed output; a chunk continues the last line until it brings a newline. */
	appendOutput(chunk: string): void {
		const clean = sanitizeOutput(chunk.replace(/\r\n/g, "\n").replace(/\r/g, "\n"));
		const lines = clean.split("\n");
		if (this.outputLines.length > 0) {
			this.outputLines[this.outputLines.length - 1] += lines[0] ?? "";
			this.outputLines.push(...lines.slice(1));
		} else this.outputLines.push(...lines);
		this.updateDisplay();
	}

	setComplete(
		exitCode: number | null | undefined,
		cancelled: boolean,
		truncationResult?: BashTruncation,
		fullOutputPath?: string,
	): void {
		this.exitCode = exitCode;
		this.status = cancelled ? "cancelled" : exitCode !== 0 && exitCode != null ? "error" : "complete";
		this.truncationResult = truncationResult;
		this.fullOutputPath = fullOutputPath;
		this.loader.stop();
		this.updateDisplay();
	}

	private updateDisplay(): void {
		const t = theme();
		// The model sees the output cut to the bash tool's limits; so does the user.
		const limited = truncateTail(this.outputLines.join("\n"), {
			maxLines: DEFAULT_MAX_LINES,
			maxBytes: DEFAULT_MAX_BYTES,
		});
		const lines = limited.content ? limited.content.split("\n") : [];
		const preview = lines.slice(-PREVIEW_LINES);
		const hidden = lines.length - preview.length;
		const box = this.contentContainer;
		box.clear();
		box.addChild(new Text(t.fg("bashMode", t.bold(`$ ${this.command}`)), 1, 0));
		if (lines.length > 0) {
			const shown = (this.expanded ? lines : preview).map((line) => t.fg("muted", line)).join("\n");
			box.addChild(this.expanded ? new Text(`\n${shown}`, 1, 0) : new PreviewTail(`\n${shown}`));
		}
		if (this.status === "running") {
			box.addChild(this.loader);
			return;
		}
		const notes: string[] = [];
		if (hidden > 0) {
			notes.push(
				this.expanded
					? `${t.fg("muted", "(")}${keyHint("app.tools.expand", "to collapse")}${t.fg("muted", ")")}`
					: `${t.fg("muted", `... ${hidden} more lines (`)}${keyHint("app.tools.expand", "to expand")}${t.fg("muted", ")")}`,
			);
		}
		if (this.status === "cancelled") notes.push(t.fg("warning", "(cancelled)"));
		else if (this.status === "error") notes.push(t.fg("error", `(exit ${this.exitCode})`));
		if ((this.truncationResult?.truncated || limited.truncated) && this.fullOutputPath)
			notes.push(t.fg("warning", `Output truncated. Full output: ${this.fullOutputPath}`));
		if (notes.length > 0) box.addChild(new Text(`\n${notes.join("\n")}`, 1, 0));
	}

	/** The output so far, as recorded in the session's bash-execution message. */
	getOutput(): string {
		return this.outputLines.join("\n");
	}

	getCommand(): string {
		return this.command;
	}
}
