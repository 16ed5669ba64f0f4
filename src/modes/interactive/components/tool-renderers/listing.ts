/**
 * grep, find and ls in the transcript: the call on one line ("grep /pattern/ in path (glob) limit N"), then the
 * first 15 (grep) or 20 lines of output (all when expanded) and a warning when a limit cut the results short.
 */
import { DEFAULT_MAX_BYTES, formatSize } from "../../../../tools/index.ts";
import { Text } from "../../../../tui/index.ts";
import { moreLinesHint } from "../keybinding-hints.ts";
import { type TranscriptTheme, theme } from "../style.ts";
import type { ToolRenderers } from "../tool-types.ts";
import {
	detailsOf,
	getTextOutput,
	invalidArgText,
	renderToolPath,
	shortenPath,
	str,
	type ToolResultLike,
	type TruncationLike,
} from "./common.ts";

type Args = Record<string, unknown> | undefined;

function searchCall(name: string, pattern: string, args: Args, t: TranscriptTheme): string {
	const raw = str(args?.path);
	const path = raw === null ? invalidArgText(t) : shortenPath(raw || ".");
	return `${t.fg("toolTitle", t.bold(name))} ${pattern}${t.fg("toolOutput", ` in ${path}`)}`;
}

function grepCall(args: Args, t: TranscriptTheme): string {
	const pattern = str(args?.pattern);
	let text = searchCall("grep", pattern === null ? invalidArgText(t) : t.fg("accent", `/${pattern}/`), args, t);
	const glob = str(args?.glob);
	if (glob) text += t.fg("toolOutput", ` (${glob})`);
	if (args?.limit !== undefined) text += t.fg("toolOutput", ` limit ${args.limit}`);
	return text;
}

function findCall(args: Args, t: TranscriptTheme): string {
	const pattern = str(args?.pattern);
	let text = searchCall("find", pattern === null ? invalidArgText(t) : t.fg("accent", pattern), args, t);
	if (args?.limit !== undefined) text += t.fg("toolOutput", ` (limit ${args.limit})`);
	return text;
}

function lsCall(args: Args, t: TranscriptTheme, cwd: string): string {
	let text = `${t.fg("toolTitle", t.bold("ls"))} ${renderToolPath(str(args?.path), t, cwd, ".")}`;
	if (args?.limit !== undefined) text += t.fg("toolOutput", ` (limit ${args.limit})`);
	return text;
}

/** The output's first `preview` lines (all when expanded), then "[Truncated: …]" naming each limit reached. */
function listing(
	result: ToolResultLike,
	expanded: boolean,
	showImages: boolean,
	preview: number,
	notes: string[],
): string {
	const t = theme();
	const output = getTextOutput(result, showImages).trim();
	let text = "";
	if (output) {
		const lines = output.split("\n");
		const max = expanded ? lines.length : preview;
		text += `\n${lines
			.slice(0, max)
			.map((line) => t.fg("toolOutput", line))
			.join("\n")}`;
		if (lines.length > max) text += moreLinesHint(lines.length - max);
	}
	if (notes.length > 0) text += `\n${t.fg("warning", `[Truncated: ${notes.join(", ")}]`)}`;
	return text;
}

/** Limits reached, in pi's order: the tool's count limit, the byte limit, then any extra notes. */
function limitNotes(
	details: Record<string, unknown>,
	countLimit: string | undefined,
	extra: string | undefined,
): string[] {
	const truncation = details.truncation as TruncationLike | undefined;
	const notes: string[] = [];
	if (countLimit) notes.push(countLimit);
	if (truncation?.truncated) notes.push(`${formatSize(truncation.maxBytes ?? DEFAULT_MAX_BYTES)} limit`);
	if (extra) notes.push(extra);
	return notes;
}

function textRenderers(
	call: (args: Args, t: TranscriptTheme, cwd: string) => string,
	preview: number,
	countLimit: (details: Record<string, unknown>) => string | undefined,
	extra: (details: Record<string, unknown>) => string | undefined = () => undefined,
): ToolRenderers {
	return {
		renderCall(args, _theme, context) {
			const text = context.lastComponent instanceof Text ? context.lastComponent : new Text("", 0, 0);
			text.setText(call(args as Args, theme(), context.cwd));
			return text;
		},
		renderResult(result, options, _theme, context) {
			const text = context.lastComponent instanceof Text ? context.lastComponent : new Text("", 0, 0);
			const details = detailsOf(result);
			const notes = limitNotes(details, countLimit(details), extra(details));
			text.setText(listing(result, options.expanded, context.showImages, preview, notes));
			return text;
		},
	};
}

export const grepRenderers = textRenderers(
	grepCall,
	15,
	(details) => (details.matchLimitReached ? `${details.matchLimitReached} matches limit` : undefined),
	(details) => (details.linesTruncated ? "some lines truncated" : undefined),
);
export const findRenderers = textRenderers(findCall, 20, (details) =>
	details.resultLimitReached ? `${details.resultLimitReached} results limit` : undefined,
);
export const lsRenderers = textRenderers(lsCall, 20, (details) =>
	details.entryLimitReached ? `${details.entryLimitReached} entries limit` : undefined,
);
