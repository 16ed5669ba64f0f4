/**
 * `Image`: a component showing base64 image data inline where the terminal has an image protocol (Kitty or
 * iTerm2), and a one-line `[Image: …]` description in the theme's fallback colour elsewhere. It reports as many
 * lines as the image covers rows, so the layout below it stays right. Cached per width.
 */
import { getImageDimensions, type ImageDimensions } from "./image-dimensions.ts";
import { getCapabilities, getCellDimensions } from "./terminal-capabilities.ts";
import { allocateImageId, imageFallback, renderImage } from "./terminal-image.ts";
import type { Component } from "./types.ts";
import { truncateToWidth } from "./width.ts";

export interface ImageTheme {
	fallbackColor: (str: string) => string;
}

export interface ImageOptions {
	maxWidthCells?: number;
	maxHeightCells?: number;
	filename?: string;
	/** Kitty image id to use (an update under the same id replaces the picture); allocated on first render if absent. */
	imageId?: number;
}

/** Size assumed when the data's header cannot be read. */
const UNKNOWN_SIZE: ImageDimensions = { widthPx: 800, heightPx: 600 };

export class Image implements Component {
	private readonly base64Data: string;
	private readonly mimeType: string;
	private readonly dimensions: ImageDimensions;
	private readonly theme: ImageTheme;
	private readonly options: ImageOptions;
	private imageId?: number;
	private cachedLines?: string[];
	private cachedWidth?: number;

	constructor(
		base64Data: string,
		mimeType: string,
		theme: ImageTheme,
		options: ImageOptions = {},
		dimensions?: ImageDimensions,
	) {
		this.base64Data = base64Data;
		this.mimeType = mimeType;
		this.theme = theme;
		this.options = options;
		this.dimensions = dimensions || getImageDimensions(base64Data, mimeType) || UNKNOWN_SIZE;
		this.imageId = options.imageId;
	}

	/** The Kitty image id this image is drawn under (undefined until a Kitty render allocated one). */
	getImageId(): number | undefined {
		return this.imageId;
	}

	invalidate(): void {
		this.cachedLines = undefined;
		this.cachedWidth = undefined;
	}

	render(width: number): string[] {
		if (this.cachedLines && this.cachedWidth === width) return this.cachedLines;
		const lines = this.draw(width);
		this.cachedLines = lines;
		this.cachedWidth = width;
		return lines;
	}

	private draw(width: number): string[] {
		// Up to 60 columns, leaving a margin of two; by default no taller than a square of that width.
		const maxWidth = Math.max(1, Math.min(width - 2, this.options.maxWidthCells ?? 60));
		const cell = getCellDimensions();
		const squareRows = Math.max(1, Math.ceil((maxWidth * cell.widthPx) / cell.heightPx));
		const maxHeight = this.options.maxHeightCells ?? squareRows;
		const protocol = getCapabilities().images;
		if (!protocol) return this.fallback(width);
		if (protocol === "kitty" && this.imageId === undefined) this.imageId = allocateImageId();
		const result = renderImage(this.base64Data, this.dimensions, {
			maxWidthCells: maxWidth,
			maxHeightCells: maxHeight,
			imageId: this.imageId,
			moveCursor: false,
		});
		if (!result) return this.fallback(width);
		if (result.imageId) this.imageId = result.imageId;
		const blank = Array.from({ length: result.rows - 1 }, () => "");
		// Kitty places the image at the cursor without moving it (C=1): the sequence goes on the first row.
		if (protocol === "kitty") return [result.sequence, ...blank];
		// iTerm2 moves the cursor below the image: draw it from the last row after going up to the first, so the
		// cursor ends where the TUI expects it.
		const up = result.rows > 1 ? `\x1b[${result.rows - 1}A` : "";
		return [...blank, up + result.sequence];
	}

	private fallback(width: number): string[] {
		const text = imageFallback(this.mimeType, this.dimensions, this.options.filename);
		return [truncateToWidth(this.theme.fallbackColor(text), width)];
	}
}
