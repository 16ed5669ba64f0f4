/**
 * The write tool in the transcript: "write <path>" and the first 10 lines of the content (all when expanded),
 * highlighted by the file's language; a failure's message below.
 */
import { Container, Text } from "../../../../tui/index.ts";
import { moreLinesHint } from "../keybinding-hints.ts";
import { highlightCode, languageOf, type TranscriptTheme, theme } from "../style.ts";
import type { ToolRenderers } from "../tool-types.ts";
import { dropCarriageReturns, errorText, renderToolPath, replaceTabs, str, trimTrailingEmptyLines } from "./common.ts";

type WriteArgs = Record<string, unknown> | undefined;

/** The call's text, keeping the highlighted lines of the content it showed last (content streams in). */
class WriteCallText extends Text {
	highlighted: { key: string; lines: string[] } | undefined;
	constructor() {
		super("", 0, 0);
	}
}

function contentLines(text: WriteCallText, path: string | null, content: string, lang: string | undefined): string[] {
	if (!lang) return dropCarriageReturns(content).split("\n");
	const key = `${path}\u0000${content}`;
	if (text.highlighted?.key !== key)
		text.highlighted = { key, lines: highlightCode(replaceTabs(dropCarriageReturns(content)), lang) };
	return text.highlighted.lines;
}

function formatCall(text: WriteCallText, args: WriteArgs, expanded: boolean, cwd: string, t: TranscriptTheme): string {
	const path = str(args?.file_path ?? args?.path);
	const content = str(args?.content);
	let out = `${t.fg("toolTitle", t.bold("write"))} ${renderToolPath(path, t, cwd)}`;
	if (content === null) return `${out}\n\n${t.fg("error", "[invalid content arg - expected string]")}`;
	if (!content) return out;
	const lang = path ? languageOf(path) : undefined;
	const lines = trimTrailingEmptyLines(contentLines(text, path, content, lang));
	const max = expanded ? lines.length : 10;
	const shown = lines.slice(0, max).map((line) => (lang ? line : t.fg("toolOutput", replaceTabs(line))));
	out += `\n\n${shown.join("\n")}`;
	if (lines.length > max) out += moreLinesHint(lines.length - max, ` ${lines.length} total,`);
	return out;
}

export const writeRenderers: ToolRenderers = {
	renderCall(args, _theme, context) {
		const text = context.lastComponent instanceof WriteCallText ? context.lastComponent : new WriteCallText();
		text.setText(formatCall(text, args as WriteArgs, context.expanded, context.cwd, theme()));
		return text;
	},
	renderResult(result, _options, _theme, context) {
		const output = context.isError ? errorText(result) : "";
		if (!output) {
			const empty = context.lastComponent instanceof Container ? context.lastComponent : new Container();
			empty.clear();
			return empty;
		}
		const text = context.lastComponent instanceof Text ? context.lastComponent : new Text("", 0, 0);
		text.setText(`\n${theme().fg("error", output)}`);
		return text;
	},
};
