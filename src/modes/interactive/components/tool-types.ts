/** What the transcript hands a tool's renderers, and the renderers themselves (as extension tools define them). */
import type { ToolRenderContext as ExtensionToolRenderContext } from "../../../extensions/index.ts";
import type { Component } from "../../../tui/index.ts";
import type { TranscriptTheme } from "./style.ts";

/** The context extension tools' renderers receive (the extension API's own type), with untyped args and state. */
export type ToolRenderContext = ExtensionToolRenderContext<Record<string, unknown>, unknown>;

export interface ToolResultView {
	content: ReadonlyArray<{ type: string; text?: string; data?: string; mimeType?: string }>;
	details?: unknown;
}

export interface ToolRenderers {
	renderShell?: "default" | "self";
	renderCall?(args: unknown, theme: TranscriptTheme, context: ToolRenderContext): Component;
	renderResult?(
		result: ToolResultView,
		options: { expanded: boolean; isPartial: boolean },
		theme: TranscriptTheme,
		context: ToolRenderContext,
	): Component;
}
