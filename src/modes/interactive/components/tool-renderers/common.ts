/** Helpers shared by the built-in tools' renderers: argument text, paths, tool output as display text. */
import { pathToFileURL } from "node:url";
import { sanitizeOutput } from "../../../../tools/index.ts";
import { getCapabilities, getImageDimensions, hyperlink, imageFallback } from "../../../../tui/index.ts";
import { homeDir } from "../../../../util/index.ts";
import type { TranscriptTheme } from "../style.ts";

/** A tool result as the renderers read it. */
export interface ToolResultLike {
	content: ReadonlyArray<{ type: string; text?: string; data?: string; mimeType?: string }>;
	details?: unknown;
	isError?: boolean;
}

/** A string argument as text: missing is "", anything else not a string is null (shown as invalid). */
export function str(value: unknown): string | null {
	if (typeof value === "string") return value;
	return value == null ? "" : null;
}

export const replaceTabs = (text: string): string => text.replace(/\t/g, "   ");
export const dropCarriageReturns = (text: string): string => text.replace(/\r/g, "");

export function shortenPath(path: unknown): string {
	if (typeof path !== "string") return "";
	const home = homeDir();
	return home && path.startsWith(home) ? `~${path.slice(home.length)}` : path;
}

export const invalidArgText = (theme: TranscriptTheme): string => theme.fg("error", "[invalid arg]");

function absolute(path: string, cwd: string): string {
	const expanded = path.startsWith("~") ? homeDir() + path.slice(1) : path;
	return expanded.startsWith("/") ? expanded : `${cwd.replace(/\/$/, "")}/${expanded}`;
}

/** A path argument in the accent colour, home shortened to ~, linked to the file where the terminal supports it. */
export function renderToolPath(
	rawPath: string | null,
	theme: TranscriptTheme,
	cwd: string,
	emptyFallback?: string,
): string {
	if (rawPath === null) return invalidArgText(theme);
	const value = rawPath || emptyFallback;
	if (!value) return theme.fg("toolOutput", "...");
	const styled = theme.fg("accent", shortenPath(value));
	return getCapabilities().hyperlinks ? hyperlink(styled, pathToFileURL(absolute(value, cwd)).href) : styled;
}

/** The result's text blocks joined (escapes and control characters removed), plus image placeholders when images are not shown. */
export function getTextOutput(result: ToolResultLike | undefined, showImages: boolean): string {
	if (!result) return "";
	let output = result.content
		.filter((block) => block.type === "text")
		.map((block) => sanitizeOutput(block.text ?? ""))
		.join("\n");
	const images = result.content.filter((block) => block.type === "image");
	if (images.length > 0 && (!getCapabilities().images || !showImages)) {
		const placeholders = images
			.map((image) => {
				const dims =
					image.data && image.mimeType ? (getImageDimensions(image.data, image.mimeType) ?? undefined) : undefined;
				return imageFallback(image.mimeType ?? "image/unknown", dims);
			})
			.join("\n");
		output = output ? `${output}\n${placeholders}` : placeholders;
	}
	return output;
}

export function trimTrailingEmptyLines(lines: string[]): string[] {
	let end = lines.length;
	while (end > 0 && lines[end - 1] === "") end--;
	return lines.slice(0, end);
}

/** Text of the result's text blocks, as an error shows it. */
export const errorText = (result: ToolResultLike): string =>
	result.content
		.filter((block) => block.type === "text")
		.map((block) => block.text || "")
		.join("\n");

export interface TruncationLike {
	truncated?: boolean;
	truncatedBy?: "lines" | "bytes" | null;
	outputLines?: number;
	totalLines?: number;
	maxLines?: number;
	maxBytes?: number;
	firstLineExceedsLimit?: boolean;
}

export const detailsOf = (result: ToolResultLike): Record<string, unknown> =>
	(result.details && typeof result.details === "object" ? result.details : {}) as Record<string, unknown>;
