/**
 * What the start-up summary lists: context files (system prompt files first, in load order), skills, prompt
 * templates (`/name`), extensions (short labels, full paths when expanded) and user themes; then the warnings
 * about skills, prompts, extensions and themes.
 */
import { relative } from "node:path";
import { formatResourceDiagnostic, type ResourceLoader } from "../../../resources/index.ts";
import type { ExtensionHost } from "../../../runtime/index.ts";
import {
	compactExtensionLabels,
	type DiagnosticSection,
	displayPath,
	type LoadedSection,
	type StartupSummaryData,
} from "../chrome/index.ts";

export function startupData(
	resources: ResourceLoader,
	extensions: ExtensionHost,
	cwd: string,
	home: string | undefined,
): StartupSummaryData {
	const loaded: LoadedSection[] = [];
	const shown = (path: string) => displayPath(path, home);
	const system = resources.getSystemPromptFiles();
	const contextFiles = [
		...(system.systemPrompt ? [system.systemPrompt] : []),
		...(system.appendSystemPrompt ? [system.appendSystemPrompt] : []),
		...resources.getContextFiles(),
	];
	if (contextFiles.length > 0) {
		loaded.push({
			name: "Context",
			labels: contextFiles.map((f) => contextLabel(f.path, cwd, home)),
			details: contextFiles.map((f) => shown(f.path)),
			sort: false,
		});
	}
	const skills = resources.getSkills();
	if (skills.skills.length > 0) {
		loaded.push({
			name: "Skills",
			labels: skills.skills.map((s) => s.name),
			details: skills.skills.map((s) => shown(s.filePath)),
		});
	}
	const prompts = resources.getPrompts();
	if (prompts.prompts.length > 0) {
		loaded.push({
			name: "Prompts",
			labels: prompts.prompts.map((p) => `/${p.name}`),
			details: prompts.prompts.map((p) => `/${p.name}`),
		});
	}
	const loadedExtensions = extensions.extensions.map((e) => e.entry);
	if (loadedExtensions.length > 0) {
		loaded.push({
			name: "Extensions",
			labels: compactExtensionLabels(
				loadedExtensions.map((e) => ({ path: e.path })),
				home,
			),
			details: loadedExtensions.map((e) => shown(e.path)),
		});
	}
	const themes = resources.getThemes();
	const custom = themes.themes.filter((t) => t.sourcePath);
	if (custom.length > 0) {
		loaded.push({
			name: "Themes",
			labels: custom.map((t) => t.name ?? shown(t.sourcePath ?? "")),
			details: custom.map((t) => shown(t.sourcePath ?? "")),
		});
	}
	const diagnostics: DiagnosticSection[] = [];
	const section = (name: string, lines: string[]) => {
		if (lines.length > 0) diagnostics.push({ name, lines: lines.map((line) => `  ${line}`) });
	};
	section("Skill conflicts", skills.diagnostics.map(formatResourceDiagnostic));
	section("Prompt conflicts", prompts.diagnostics.map(formatResourceDiagnostic));
	section("Extension issues", extensions.diagnostics);
	section("Theme conflicts", themes.diagnostics.map(formatResourceDiagnostic));
	return { loaded, diagnostics };
}

/** A context file relative to the working folder when inside or above it, else with `~`. */
function contextLabel(path: string, cwd: string, home: string | undefined): string {
	const rel = relative(cwd, path);
	if (!rel.startsWith("..") || /^(\.\.[/\\])+[^/\\]+$/.test(rel)) return rel || path;
	return displayPath(path, home);
}
