/** What the transcript hands a tool's renderers, and the renderers themselves (as extension tools define them). */
import type { Component } from "../../../tui/index.ts";
import type { TranscriptTheme } from "./style.ts";

export interface ToolRenderContext {
	args: unknown;
	toolCallId: string;
	/** Asks for the tool's block to be drawn again (after asynchronous work). */
	invalidate(): void;
	/** The component this renderer returned last time, to update in place. */
	lastComponent: Component | undefined;
	/** Per-call state shared by renderCall and renderResult. */
	state: Record<string, unknown>;
	cwd: string;
	executionStarted: boolean;
	argsComplete: boolean;
	isPartial: boolean;
	expanded: boolean;
	showImages: boolean;
	isError: boolean;
}

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
