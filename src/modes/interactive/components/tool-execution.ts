/**
 * One tool call in the transcript. With a tool definition, its `renderCall`/`renderResult` draw the call and the
 * result inside a box whose background says pending, done or failed (or, with `renderShell: "self"`, without the
 * box); a renderer that is missing or throws gets the plain fallback (the tool's name; the first 10 output lines).
 * Without a definition the call is shown as its name, its arguments as JSON and its output. Images in the result
 * follow below when the terminal can show them.
 */
import { Box, type Component, Container, getCapabilities, Image, Spacer, Text } from "../../../tui/index.ts";
import { moreLinesHint } from "./keybinding-hints.ts";
import { theme } from "./style.ts";
import { getTextOutput, type ToolResultLike } from "./tool-renderers/common.ts";
import type { ToolRenderContext, ToolRenderers } from "./tool-types.ts";

const FALLBACK_PREVIEW_LINES = 10;

export interface ToolExecutionOptions {
	showImages?: boolean;
	/** Widest an image may be drawn, in cells (default 60). */
	imageWidthCells?: number;
}

/** Whoever draws the screen: asked to draw again after asynchronous changes. */
export interface RenderRequest {
	requestRender(): void;
}

export class ToolExecutionComponent extends Container {
	private readonly contentBox: Box;
	private readonly contentText: Text;
	private readonly selfRenderContainer = new Container();
	private callComponent: Component | undefined;
	private resultComponent: Component | undefined;
	private readonly rendererState: Record<string, unknown> = {};
	private images: Component[] = [];
	private readonly toolName: string;
	private readonly toolCallId: string;
	private args: unknown;
	private expanded = false;
	private showImages: boolean;
	private imageWidthCells: number;
	private isPartial = true;
	private readonly toolDefinition: ToolRenderers | undefined;
	private readonly ui: RenderRequest | undefined;
	private readonly cwd: string;
	private executionStarted = false;
	private argsComplete = false;
	private result: (ToolResultLike & { isError?: boolean }) | undefined;
	private hidden = false;
	/**
	 * The lines of a finished call (result in, not partial) by width. A finished call changes only through this
	 * component's methods or its renderers' `invalidate()`, which drop the cache; until then a frame costs nothing
	 * here, however long the transcript.
	 */
	private settled: { width: number; lines: string[] } | undefined;
	/** Set by the transcript while it keeps this call's lines frozen: told when a renderer invalidates them. */
	onSettledChange: (() => void) | undefined;

	constructor(
		toolName: string,
		toolCallId: string,
		args: unknown,
		options: ToolExecutionOptions = {},
		toolDefinition?: ToolRenderers,
		ui?: RenderRequest,
		cwd: string = process.cwd(),
	) {
		super();
		this.toolName = toolName;
		this.toolCallId = toolCallId;
		this.args = args;
		this.toolDefinition = toolDefinition;
		this.showImages = options.showImages ?? true;
		this.imageWidthCells = options.imageWidthCells ?? 60;
		this.ui = ui;
		this.cwd = cwd;
		this.addChild(new Spacer(1));
		this.contentBox = new Box(1, 1, (text) => theme().bg("toolPendingBg", text));
		this.contentText = new Text("", 1, 1, (text) => theme().bg("toolPendingBg", text));
		if (!toolDefinition) this.addChild(this.contentText);
		else this.addChild(this.selfRendered() ? this.selfRenderContainer : this.contentBox);
		this.updateDisplay();
	}

	private selfRendered(): boolean {
		return this.toolDefinition?.renderShell === "self";
	}

	private context(lastComponent: Component | undefined): ToolRenderContext {
		return {
			args: this.args,
			toolCallId: this.toolCallId,
			invalidate: () => {
				this.invalidate();
				this.onSettledChange?.();
				this.ui?.requestRender();
			},
			lastComponent,
			state: this.rendererState,
			cwd: this.cwd,
			executionStarted: this.executionStarted,
			argsComplete: this.argsComplete,
			isPartial: this.isPartial,
			expanded: this.expanded,
			showImages: this.showImages,
			isError: this.result?.isError ?? false,
		};
	}

	/** Finished (result in, not partial): it changes only through its methods or its renderers' `invalidate()`. */
	isSettled(): boolean {
		return this.result !== undefined && !this.isPartial;
	}

	updateArgs(args: unknown): void {
		this.args = args;
		this.updateDisplay();
	}

	markExecutionStarted(): void {
		this.executionStarted = true;
		this.updateDisplay();
		this.ui?.requestRender();
	}

	setArgsComplete(): void {
		this.argsComplete = true;
		this.updateDisplay();
		this.ui?.requestRender();
	}

	updateResult(result: ToolResultLike & { isError?: boolean }, isPartial = false): void {
		this.result = result;
		this.isPartial = isPartial;
		this.updateDisplay();
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.updateDisplay();
	}

	setShowImages(show: boolean): void {
		this.showImages = show;
		this.updateDisplay();
	}

	setImageWidthCells(width: number): void {
		this.imageWidthCells = Math.max(1, Math.floor(width));
		this.updateDisplay();
	}

	override invalidate(): void {
		super.invalidate();
		this.updateDisplay();
	}

	override render(width: number): string[] {
		if (this.settled?.width === width) return this.settled.lines;
		const lines = this.draw(width);
		if (this.result && !this.isPartial) this.settled = { width, lines };
		return lines;
	}

	private draw(width: number): string[] {
		if (this.hidden) return [];
		if (!this.toolDefinition || !this.selfRendered()) return super.render(width);
		// A self-rendered tool draws no blank line of its own when it draws nothing.
		const content = this.selfRenderContainer.render(width);
		const lines = content.length > 0 ? ["", ...content] : [];
		for (const image of this.images) lines.push(...image.render(width));
		return lines;
	}

	private updateDisplay(): void {
		this.settled = undefined;
		const t = theme();
		const bg = this.isPartial ? "toolPendingBg" : this.result?.isError ? "toolErrorBg" : "toolSuccessBg";
		const bgFn = (text: string) => t.bg(bg, text);
		this.hidden = false;
		let hasContent = false;
		if (this.toolDefinition) {
			const target = this.selfRendered() ? this.selfRenderContainer : this.contentBox;
			if (target instanceof Box) target.setBgFn(bgFn);
			target.clear();
			this.callComponent = this.drawCall();
			target.addChild(this.callComponent);
			hasContent = true;
			if (this.result) {
				const component = this.drawResult();
				if (component) target.addChild(component);
				hasContent ||= component !== undefined;
			}
		} else {
			this.contentText.setCustomBgFn(bgFn);
			this.contentText.setText(this.plainText());
			hasContent = true;
		}
		this.placeImages();
		if (this.toolDefinition && !hasContent && this.images.length === 0) this.hidden = true;
	}

	private drawCall(): Component {
		const renderCall = this.toolDefinition?.renderCall;
		if (renderCall) {
			try {
				return renderCall(this.args, theme(), this.context(this.callComponent));
			} catch {
				// fall back to the tool's name
			}
		}
		return new Text(theme().fg("toolTitle", theme().bold(this.toolName)), 0, 0);
	}

	private drawResult(): Component | undefined {
		const renderResult = this.toolDefinition?.renderResult;
		const result = this.result;
		if (renderResult && result) {
			try {
				// Read on use: a renderer that shows nothing of the output (a collapsed read) leaves a large
				// content from a resumed session on disk.
				const view = {
					get content() {
						return result.content;
					},
					details: result.details,
				};
				const options = { expanded: this.expanded, isPartial: this.isPartial };
				this.resultComponent = renderResult(view, options, theme(), this.context(this.resultComponent));
				return this.resultComponent;
			} catch {
				this.resultComponent = undefined;
			}
		}
		return this.fallbackResult();
	}

	private fallbackResult(): Component | undefined {
		const output = getTextOutput(this.result, this.showImages);
		if (!output) return undefined;
		const lines = output.split("\n");
		const shown = this.expanded ? lines : lines.slice(0, FALLBACK_PREVIEW_LINES);
		let text = shown.map((line) => theme().fg("toolOutput", line)).join("\n");
		if (lines.length > shown.length) text += moreLinesHint(lines.length - shown.length);
		return new Text(text, 0, 0);
	}

	private plainText(): string {
		let text = theme().fg("toolTitle", theme().bold(this.toolName));
		const json = JSON.stringify(this.args, null, 2);
		if (json) text += `\n\n${json}`;
		const output = getTextOutput(this.result, this.showImages);
		if (output) text += `\n${output}`;
		return text;
	}

	/** Result images below the call (a blank line before each), when shown and the terminal draws images. */
	private placeImages(): void {
		for (const image of this.images) this.removeChild(image);
		this.images = [];
		const protocol = getCapabilities().images;
		if (!this.result || !this.showImages || !protocol) return;
		for (const block of this.result.content) {
			if (block.type !== "image" || !block.data || !block.mimeType) continue;
			// Kitty is sent PNG only; other formats stay as the text placeholder.
			if (protocol === "kitty" && block.mimeType !== "image/png") continue;
			const spacer = new Spacer(1);
			const image = new Image(
				block.data,
				block.mimeType,
				{ fallbackColor: (text: string) => theme().fg("toolOutput", text) },
				{ maxWidthCells: this.imageWidthCells },
			);
			this.images.push(spacer, image);
			this.addChild(spacer);
			this.addChild(image);
		}
	}
}
