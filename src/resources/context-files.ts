/**
 * Context files and system-prompt files.
 *
 * Context files (`AGENTS.md`, or `CLAUDE.md` where a folder has no AGENTS file; `AGENTS.override.md` shadows both
 * in its own folder) come from the agent dir first, then from every folder from the filesystem root down to cwd.
 * They are not trust-gated (docs/security.md). `SYSTEM.md` replaces the default system prompt and
 * `APPEND_SYSTEM.md` is appended to it; for each, the project `.pi/` file wins over the agent-dir one, but only
 * when the project is trusted. The runtime builds the prompt; this module only returns `{ path, content }`.
 */

import { join, resolve } from "node:path";
import { agentPaths, CONTEXT_FILE_NAMES, projectPaths } from "../config/index.ts";
import { errorMessage, readFileSync } from "../util/index.ts";
import { ancestorsUpTo, canonicalPath, kindOf } from "./collect.ts";
import type { ContextFile, ResourceDiagnostic } from "./types.ts";

export interface ContextFilesOptions {
	cwd: string;
	agentDir: string;
	/** `--no-context-files`: return none. */
	noContextFiles?: boolean;
}

function readText(path: string, diagnostics: ResourceDiagnostic[]): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch (error) {
		diagnostics.push({ type: "warning", message: `cannot read: ${errorMessage(error)}`, path });
		return undefined;
	}
}

/** The context file used for one folder, if any. */
export function contextFileIn(dir: string): string | undefined {
	for (const name of CONTEXT_FILE_NAMES) {
		const path = join(dir, name);
		if (kindOf(path) === "file") return path;
	}
	return undefined;
}

export function loadContextFiles(options: ContextFilesOptions, diagnostics: ResourceDiagnostic[] = []): ContextFile[] {
	if (options.noContextFiles) return [];
	const dirs = [resolve(options.agentDir), ...ancestorsUpTo(options.cwd).reverse()];
	const seen = new Set<string>();
	const files: ContextFile[] = [];
	for (const dir of dirs) {
		const path = contextFileIn(dir);
		if (!path) continue;
		const key = canonicalPath(path);
		if (seen.has(key)) continue;
		seen.add(key);
		const content = readText(path, diagnostics);
		if (content !== undefined) files.push({ path, content });
	}
	return files;
}

export interface SystemPromptFiles {
	/** Replaces the default system prompt. */
	systemPrompt?: ContextFile;
	/** Appended to the system prompt. */
	appendSystemPrompt?: ContextFile;
}

export interface SystemPromptFilesOptions {
	cwd: string;
	agentDir: string;
	projectTrusted: boolean;
}

export function loadSystemPromptFiles(
	options: SystemPromptFilesOptions,
	diagnostics: ResourceDiagnostic[] = [],
): SystemPromptFiles {
	const pick = (project: string, global: string): ContextFile | undefined => {
		for (const path of options.projectTrusted ? [project, global] : [global]) {
			if (kindOf(path) !== "file") continue;
			const content = readText(path, diagnostics);
			if (content !== undefined) return { path, content };
		}
		return undefined;
	};
	const out: SystemPromptFiles = {};
	const system = pick(projectPaths.systemPrompt(options.cwd), agentPaths.systemPrompt(options.agentDir));
	if (system) out.systemPrompt = system;
	const append = pick(projectPaths.appendSystemPrompt(options.cwd), agentPaths.appendSystemPrompt(options.agentDir));
	if (append) out.appendSystemPrompt = append;
	return out;
}
