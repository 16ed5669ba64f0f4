/**
 * The bash (and powershell) tool in the transcript: "$ command" in the title colour (with the timeout), then the
 * output's last 5 screen lines (all of it when expanded), a truncation warning, and how long the command ran.
 */
import { DEFAULT_MAX_BYTES, formatSize } from "../../../../tools/index.ts";
import { type Component, Container, Text, truncateToVisualLines, truncateToWidth } from "../../../../tui/index.ts";
import { keyHint } from "../keybinding-hints.ts";
import { type TranscriptTheme, theme } from "../style.ts";
import type { ToolRenderers } from "../tool-types.ts";
import { detailsOf, getTextOutput, invalidArgText, str, type ToolResultLike, type TruncationLike } from "./common.ts";

const PREVIEW_LINES = 5;

interface ShellState {
	startedAt?: number;
	endedAt?: number;
	interval?: ReturnType<typeof setInterval>;
}

export function formatDuration(ms: number): string {
	const seconds = ms / 1000;
	if (seconds < 60) return `${seconds.toFixed(1)}s`;
	const whole = Math.floor(seconds);
	const minutes = Math.floor(whole / 60);
	if (minutes < 60) return `${minutes}m ${whole % 60}s`;
	return `${Math.floor(minutes / 60)}h ${minutes % 60}m ${whole % 60}s`;
}

function formatCall(args: Record<string, unknown> | undefined, prompt: string, t: TranscriptTheme): string {
	const command = str(args?.command);
	const shown = command === null ? invalidArgText(t) : command || t.fg("toolOutput", "...");
	const timeout = args?.timeout ? t.fg("muted", ` (timeout ${args.timeout}s)`) : "";
	return t.fg("toolTitle", t.bold(`${prompt} ${shown}`)) + timeout;
}

/** The last lines of the output as they wrap at the width drawn, with how many earlier screen lines were left out. */
class OutputTail implements Component {
	private cache: { width: number; lines: string[] } | undefined;
	constructor(private readonly styled: string) {}
	render(width: number): string[] {
		if (this.cache?.width !== width) {
			const { visualLines, skippedCount } = truncateToVisualLines(this.styled, PREVIEW_LINES, width);
			const lines = [""];
			if (skippedCount > 0) {
				const hint = `${theme().fg("muted", `... (${skippedCount} earlier lines,`)} ${keyHint("app.tools.expand", "to expand")}${theme().fg("muted", ")")}`;
				lines.push(truncateToWidth(hint, width, "..."));
			}
			this.cache = { width, lines: [...lines, ...visualLines] };
		}
		return this.cache.lines;
	}
	invalidate(): void {
		this.cache = undefined;
	}
}

function fillResult(
	box: Container,
	result: ToolResultLike,
	options: { expanded: boolean; isPartial: boolean },
	showImages: boolean,
	state: ShellState,
): void {
	const t = theme();
	box.clear();
	const details = detailsOf(result);
	const truncation = details.truncation as TruncationLike | undefined;
	const fullOutputPath = details.fullOutputPath as string | undefined;
	let output = getTextOutput(result, showImages).trim();
	// The footer the tool appends for the model repeats the warning drawn below; drop it.
	if (!options.isPartial && truncation?.truncated && fullOutputPath && output.endsWith("]")) {
		const footer = output.lastIndexOf("\n\n[");
		if (footer !== -1 && output.slice(footer).includes(fullOutputPath)) output = output.slice(0, footer).trimEnd();
	}
	if (output) {
		const styled = output
			.split("\n")
			.map((line) => t.fg("toolOutput", line))
			.join("\n");
		box.addChild(options.expanded ? new Text(`\n${styled}`, 0, 0) : new OutputTail(styled));
	}
	if (truncation?.truncated || fullOutputPath) {
		const warnings: string[] = [];
		if (fullOutputPath) warnings.push(`Full output: ${fullOutputPath}`);
		if (truncation?.truncated) {
			warnings.push(
				truncation.truncatedBy === "lines"
					? `Truncated: showing ${truncation.outputLines} of ${truncation.totalLines} lines`
					: `Truncated: ${truncation.outputLines} lines shown (${formatSize(truncation.maxBytes ?? DEFAULT_MAX_BYTES)} limit)`,
			);
		}
		box.addChild(new Text(`\n${t.fg("warning", `[${warnings.join(". ")}]`)}`, 0, 0));
	}
	if (state.startedAt !== undefined) {
		const label = options.isPartial ? "Elapsed" : "Took";
		const took = (state.endedAt ?? Date.now()) - state.startedAt;
		box.addChild(new Text(`\n${t.fg("muted", `${label} ${formatDuration(took)}`)}`, 0, 0));
	}
}

/** Renderers for a shell tool that shows `prompt` before the command ("$" for bash, "PS>" for powershell). */
export function createShellRenderers(prompt: string): ToolRenderers {
	return {
		renderCall(args, _theme, context) {
			const state = context.state as ShellState;
			if (context.executionStarted && state.startedAt === undefined) {
				state.startedAt = Date.now();
				state.endedAt = undefined;
			}
			const text = context.lastComponent instanceof Text ? context.lastComponent : new Text("", 0, 0);
			text.setText(formatCall(args as Record<string, unknown>, prompt, theme()));
			return text;
		},
		renderResult(result, options, _theme, context) {
			const state = context.state as ShellState;
			// While running, the elapsed time ticks once a second.
			if (state.startedAt !== undefined && options.isPartial && !state.interval) {
				state.interval = setInterval(() => context.invalidate(), 1000);
			}
			if (!options.isPartial || context.isError) {
				state.endedAt ??= Date.now();
				if (state.interval) clearInterval(state.interval);
				state.interval = undefined;
			}
			const box = context.lastComponent instanceof Container ? context.lastComponent : new Container();
			fillResult(box, result as ToolResultLike, options, context.showImages, state);
			box.invalidate();
			return box;
		},
	};
}
