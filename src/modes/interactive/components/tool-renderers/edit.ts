/**
 * The edit tool in the transcript (drawn without the tool box: `renderShell: "self"`): a box with "edit <path>" whose background says pending / done / failed, and
 * once the result arrives the coloured diff inside it. A failure's message is shown below the box.
 */
import { Box, Container, Spacer, Text } from "../../../../tui/index.ts";
import { renderDiff } from "../diff.ts";
import { type TranscriptTheme, theme } from "../style.ts";
import type { ToolRenderers } from "../tool-types.ts";
import { detailsOf, errorText, renderToolPath, str, type ToolResultLike } from "./common.ts";
import { computeEditPreview, type EditPreview as Preview } from "./edit-preview.ts";

type EditArgs = Record<string, unknown> | undefined;

/** The call's box, with the diff (or error) it currently shows. */
class EditCallBox extends Box {
	preview: Preview | undefined;
	previewKey: string | undefined;
	previewPending = false;
	settledError = false;
	constructor() {
		super(1, 1, (text) => text);
	}
}

interface EditState {
	callBox?: EditCallBox;
}

type EditInput = { path: string; edits: Array<{ oldText: string; newText: string }> };

/** The path and edits of complete arguments (either `edits: [...]` or one `oldText`/`newText`). */
function previewInput(args: EditArgs): EditInput | undefined {
	const path = typeof args?.path === "string" ? args.path : typeof args?.file_path === "string" ? args.file_path : null;
	if (!path) return undefined;
	const edits = args?.edits;
	if (
		Array.isArray(edits) &&
		edits.length > 0 &&
		edits.every((edit) => typeof edit?.oldText === "string" && typeof edit?.newText === "string")
	)
		return { path, edits };
	if (typeof args?.oldText === "string" && typeof args?.newText === "string")
		return { path, edits: [{ oldText: args.oldText, newText: args.newText }] };
	return undefined;
}

function previewKey(args: EditArgs): string | undefined {
	const input = previewInput(args);
	return input ? JSON.stringify(input) : undefined;
}

function headerBg(box: EditCallBox, t: TranscriptTheme): (text: string) => string {
	const failed = box.preview ? "error" in box.preview : box.settledError;
	if (failed) return (text) => t.bg("toolErrorBg", text);
	if (box.preview) return (text) => t.bg("toolSuccessBg", text);
	return (text) => t.bg("toolPendingBg", text);
}

function fillCall(box: EditCallBox, args: EditArgs, cwd: string): EditCallBox {
	const t = theme();
	box.setBgFn(headerBg(box, t));
	box.clear();
	box.addChild(
		new Text(
			`${t.fg("toolTitle", t.bold("edit"))} ${renderToolPath(str(args?.file_path ?? args?.path), t, cwd)}`,
			0,
			0,
		),
	);
	if (!box.preview) return box;
	const body = "error" in box.preview ? t.fg("error", box.preview.error) : renderDiff(box.preview.diff);
	box.addChild(new Spacer(1));
	box.addChild(new Text(body, 0, 0));
	return box;
}

function samePreview(a: Preview | undefined, b: Preview): boolean {
	if (!a) return false;
	if ("error" in a || "error" in b) return "error" in a && "error" in b && a.error === b.error;
	return a.diff === b.diff && a.firstChangedLine === b.firstChangedLine;
}

export const editRenderers: ToolRenderers = {
	// The call's own box carries the background; there is no outer box.
	renderShell: "self",
	renderCall(args, _theme, context) {
		const state = context.state as EditState;
		if (context.lastComponent instanceof EditCallBox) state.callBox = context.lastComponent;
		state.callBox ??= new EditCallBox();
		const box = state.callBox;
		const key = previewKey(args as EditArgs);
		if (box.previewKey !== key) {
			box.preview = undefined;
			box.previewKey = key;
			box.previewPending = false;
			box.settledError = false;
		}
		// Once the arguments are complete, the diff the edit would make is shown before it runs.
		const input = previewInput(args as EditArgs);
		if (context.argsComplete && input && !box.preview && !box.previewPending) {
			box.previewPending = true;
			void computeEditPreview(input.path, input.edits, context.cwd).then((preview) => {
				if (box.previewKey !== key) return;
				box.preview = preview;
				box.previewPending = false;
				context.invalidate();
			});
		}
		return fillCall(box, args as EditArgs, context.cwd);
	},
	renderResult(result, _options, _theme, context) {
		const t = theme();
		const box = (context.state as EditState).callBox;
		const args = context.args as EditArgs;
		const details = detailsOf(result);
		const diff = !context.isError ? details.diff : undefined;
		if (box) {
			let changed = false;
			if (typeof diff === "string") {
				const next: Preview = { diff, firstChangedLine: details.firstChangedLine as number | undefined };
				changed = !samePreview(box.preview, next);
				box.preview = next;
				box.previewKey = previewKey(args);
				box.previewPending = false;
			}
			if (box.settledError !== context.isError) {
				box.settledError = context.isError;
				changed = true;
			}
			if (changed) fillCall(box, args, context.cwd);
		}
		const container = context.lastComponent instanceof Container ? context.lastComponent : new Container();
		container.clear();
		const output = resultText(result as ToolResultLike, box?.preview, context.isError, args, t);
		if (output) {
			container.addChild(new Spacer(1));
			container.addChild(new Text(output, 1, 0));
		}
		return container;
	},
};

/** What shows under the box: an error the box does not already show, or a diff that differs from the box's. */
function resultText(
	result: ToolResultLike,
	preview: Preview | undefined,
	isError: boolean,
	args: EditArgs,
	t: TranscriptTheme,
): string | undefined {
	if (isError) {
		const text = errorText(result);
		const shown = preview && "error" in preview ? preview.error : undefined;
		return text && text !== shown ? t.fg("error", text) : undefined;
	}
	const diff = detailsOf(result).diff;
	const shownDiff = preview && !("error" in preview) ? preview.diff : undefined;
	if (typeof diff === "string" && diff && diff !== shownDiff)
		return renderDiff(diff, { filePath: str(args?.file_path ?? args?.path) ?? undefined });
	return undefined;
}
