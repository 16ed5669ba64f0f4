/**
 * The read tool in the transcript: "read <path>:<from>-<to>"; the content only when expanded (highlighted by the
 * file's language) or when the read failed. Skill files, pi's own docs and AGENTS.md/CLAUDE.md collapse to a short
 * label ("[skill] name", "read docs …", "read resource …") until expanded.
 */
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { getReadmePath } from "../../../../config/index.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../../../../tools/index.ts";
import { Text } from "../../../../tui/index.ts";
import { homeDir } from "../../../../util/index.ts";
import { keyText, moreLinesHint } from "../keybinding-hints.ts";
import { boldLabel, highlightCode, languageOf, type TranscriptTheme, theme } from "../style.ts";
import type { ToolRenderers } from "../tool-types.ts";
import {
	detailsOf,
	getTextOutput,
	renderToolPath,
	replaceTabs,
	str,
	type ToolResultLike,
	type TruncationLike,
	trimTrailingEmptyLines,
} from "./common.ts";

type ReadArgs = { path?: unknown; file_path?: unknown; offset?: number; limit?: number } | undefined;

const RESOURCE_FILES = new Set(["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"]);

function lineRange(args: ReadArgs, t: TranscriptTheme): string {
	if (args?.offset === undefined && args?.limit === undefined) return "";
	const start = args.offset ?? 1;
	const end = args.limit !== undefined ? start + args.limit - 1 : "";
	return t.fg("warning", `:${start}${end ? `-${end}` : ""}`);
}

function toAbsolute(path: string, cwd: string): string {
	const expanded = path === "~" || path.startsWith("~/") ? homeDir() + path.slice(1) : path;
	return resolve(cwd, expanded);
}

type Compact = { kind: "skill" | "docs" | "resource"; label: string };

function compactKind(args: ReadArgs, cwd: string): Compact | undefined {
	const raw = str(args?.file_path ?? args?.path);
	if (!raw) return undefined;
	const absolute = toAbsolute(raw, cwd);
	const name = basename(absolute);
	if (name === "SKILL.md") return { kind: "skill", label: basename(dirname(absolute)) || name };
	{
		// pi's own README, docs and examples (where the system prompt points the model)
		const rel = relative(resolve(dirname(getReadmePath())), absolute);
		const inside = rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
		const label = rel.split(sep).join("/");
		if (inside && (label === "README.md" || label.startsWith("docs/") || label.startsWith("examples/")))
			return { kind: "docs", label };
	}
	if (RESOURCE_FILES.has(name)) {
		const rel = relative(cwd, absolute);
		const label = rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : absolute;
		return { kind: "resource", label };
	}
	return undefined;
}

function formatCall(args: ReadArgs, cwd: string, expanded: boolean, t: TranscriptTheme): string {
	const compact = expanded ? undefined : compactKind(args, cwd);
	if (!compact) {
		const path = renderToolPath(str(args?.file_path ?? args?.path), t, cwd);
		return `${t.fg("toolTitle", t.bold("read"))} ${path}${lineRange(args, t)}`;
	}
	const hint = t.fg("dim", ` (${keyText("app.tools.expand")} to expand)`);
	if (compact.kind === "skill")
		return `${t.fg("customMessageLabel", boldLabel("[skill]") + " ")}${t.fg("customMessageText", compact.label)}${lineRange(args, t)}${hint}`;
	return `${t.fg("toolTitle", t.bold(`read ${compact.kind}`))} ${t.fg("accent", compact.label)}${lineRange(args, t)}${hint}`;
}

function truncationNote(truncation: TruncationLike | undefined, t: TranscriptTheme): string {
	if (!truncation?.truncated) return "";
	const limit = formatSize(truncation.maxBytes ?? DEFAULT_MAX_BYTES);
	if (truncation.firstLineExceedsLimit) return `\n${t.fg("warning", `[First line exceeds ${limit} limit]`)}`;
	if (truncation.truncatedBy === "lines")
		return `\n${t.fg("warning", `[Truncated: showing ${truncation.outputLines} of ${truncation.totalLines} lines (${truncation.maxLines ?? DEFAULT_MAX_LINES} line limit)]`)}`;
	return `\n${t.fg("warning", `[Truncated: ${truncation.outputLines} lines shown (${limit} limit)]`)}`;
}

function formatResult(
	args: ReadArgs,
	result: ToolResultLike,
	expanded: boolean,
	showImages: boolean,
	isError: boolean,
	t: TranscriptTheme,
): string {
	if (!expanded && !isError) return "";
	const raw = str(args?.file_path ?? args?.path);
	const output = getTextOutput(result, showImages);
	const lang = !isError && raw ? languageOf(raw) : undefined;
	const lines = trimTrailingEmptyLines(lang ? highlightCode(replaceTabs(output), lang) : output.split("\n"));
	const max = expanded ? lines.length : 10;
	const shown = lines.slice(0, max).map((line) => (lang ? replaceTabs(line) : t.fg("toolOutput", replaceTabs(line))));
	let text = `\n${shown.join("\n")}`;
	if (lines.length > max) text += moreLinesHint(lines.length - max);
	return text + truncationNote(detailsOf(result).truncation as TruncationLike | undefined, t);
}

export const readRenderers: ToolRenderers = {
	renderCall(args, _theme, context) {
		const text = context.lastComponent instanceof Text ? context.lastComponent : new Text("", 0, 0);
		text.setText(formatCall(args as ReadArgs, context.cwd, context.expanded, theme()));
		return text;
	},
	renderResult(result, options, _theme, context) {
		const text = context.lastComponent instanceof Text ? context.lastComponent : new Text("", 0, 0);
		const args = context.args as ReadArgs;
		text.setText(formatResult(args, result, options.expanded, context.showImages, context.isError, theme()));
		return text;
	},
};
