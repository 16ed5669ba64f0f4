/**
 * What start-up loaded, under the header: `[Context]`, `[Skills]`, `[Prompts]`, `[Extensions]`, `[Themes]`, each a
 * heading and a compact comma-separated list (one entry per line with full paths when expanded), and warnings
 * such as `[Skill conflicts]` or `[Extension issues]`. quietStartup hides the lists but keeps the warnings.
 */
import { type Component, Text } from "../../../tui/index.ts";
import type { Expandable } from "./header.ts";
import { type ChromeTheme, themeOf } from "./theme.ts";

export interface LoadedSection {
	/** Heading without brackets: "Context", "Skills", "Prompts", "Extensions", "Themes". */
	name: string;
	/** Short labels for the collapsed list (names, `/prompt`, relative paths). */
	labels: string[];
	/** One line each when expanded (full paths, grouped by scope). */
	details: string[];
	/** Collapsed labels sorted by name (default); context files keep their load order. */
	sort?: boolean;
}

export interface DiagnosticSection {
	/** Heading without brackets: "Skill conflicts", "Prompt conflicts", "Extension issues", "Theme conflicts". */
	name: string;
	/** The warning lines, already formatted. */
	lines: string[];
}

export interface StartupSummaryData {
	loaded: LoadedSection[];
	diagnostics: DiagnosticSection[];
}

export interface StartupSummaryOptions {
	theme?: ChromeTheme;
	/** quietStartup from settings. */
	quiet?: boolean;
	/** --verbose, or an explicit request (the lists show even when quiet). */
	force?: boolean;
	expanded?: boolean;
}

export class StartupSummary implements Component, Expandable {
	private cache: { width: number; lines: string[] } | undefined;

	constructor(
		private data: StartupSummaryData,
		private readonly options: StartupSummaryOptions = {},
	) {}

	setData(data: StartupSummaryData): void {
		this.data = data;
		this.invalidate();
	}

	setExpanded(expanded: boolean): void {
		if (this.options.expanded === expanded) return;
		this.options.expanded = expanded;
		this.invalidate();
	}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const lines: string[] = [];
		for (const block of this.blocks()) {
			if (block === "") lines.push("");
			else lines.push(...new Text(block, 0, 0).render(width), "");
		}
		this.cache = { width, lines };
		return lines;
	}

	/** The text of each block (each followed by a blank row); "" is a lone blank row. */
	private blocks(): string[] {
		const theme = themeOf(this.options.theme);
		const blocks: string[] = [];
		if (this.options.force || !this.options.quiet) {
			for (const section of this.data.loaded) {
				const body = this.options.expanded
					? section.details.map((line) => theme.fg("dim", `  ${line}`)).join("\n")
					: compactList(section, theme);
				// The context files' list sits one blank row below the header block.
				if (section.name === "Context") blocks.push("");
				blocks.push(`${theme.fg("mdHeading", `[${section.name}]`)}\n${body}`);
			}
		}
		for (const diagnostic of this.data.diagnostics) {
			if (diagnostic.lines.length === 0) continue;
			blocks.push(`${theme.fg("warning", `[${diagnostic.name}]`)}\n${diagnostic.lines.join("\n")}`);
		}
		return blocks;
	}
}

function compactList(section: LoadedSection, theme: ChromeTheme): string {
	const labels = section.labels.map((label) => label.trim()).filter((label) => label.length > 0);
	if (section.sort !== false) labels.sort((a, b) => a.localeCompare(b));
	return theme.fg("dim", `  ${labels.join(", ")}`);
}
