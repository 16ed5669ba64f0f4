/**
 * pi-agent-core's prompt-template loader over an execution environment: a directory gives its direct `.md`
 * children (sorted by name), a file path gives itself when it ends in `.md`; missing paths are skipped and read
 * or parse failures come back as warnings. Symlinks count as what they point to.
 */
import type { Context, ExecutionEnv, FileInfo, PromptTemplate } from "../agent/index.ts";
import { parseEnvFrontmatter } from "./env-frontmatter.ts";

export type PromptTemplateDiagnosticCode = "file_info_failed" | "list_failed" | "read_failed" | "parse_failed";
export interface PromptTemplateDiagnostic {
	type: "warning";
	code: PromptTemplateDiagnosticCode;
	message: string;
	path: string;
}

type Warn = (code: PromptTemplateDiagnosticCode | "invalid_metadata", message: string, path: string) => void;

/** File or directory, following a symlink; undefined when it dangles or is something else. */
export async function resolveEnvKind(
	env: ExecutionEnv,
	info: FileInfo,
	warn: Warn,
	context: Context,
): Promise<"file" | "directory" | undefined> {
	if (info.kind !== "symlink") return info.kind;
	const target = await env.canonicalPath(info.path, context);
	if (!target.ok) {
		if (target.error.code !== "not_found") warn("file_info_failed", target.error.message, info.path);
		return undefined;
	}
	const targetInfo = await env.fileInfo(target.value, context);
	if (!targetInfo.ok) {
		if (targetInfo.error.code !== "not_found") warn("file_info_failed", targetInfo.error.message, info.path);
		return undefined;
	}
	return targetInfo.value.kind === "symlink" ? undefined : targetInfo.value.kind;
}

async function loadTemplate(
	env: ExecutionEnv,
	path: string,
	fileName: string,
	warn: Warn,
	context: Context,
): Promise<PromptTemplate | undefined> {
	const raw = await env.readTextFile(path, context);
	if (!raw.ok) {
		warn("read_failed", raw.error.message, path);
		return undefined;
	}
	const parsed = parseEnvFrontmatter(raw.value);
	if (!parsed.ok) {
		warn("parse_failed", parsed.error.message, path);
		return undefined;
	}
	const { frontmatter, body } = parsed.value;
	let description = typeof frontmatter.description === "string" ? frontmatter.description : "";
	const firstLine = body.split("\n").find((line) => line.trim());
	if (!description && firstLine) description = firstLine.length > 60 ? `${firstLine.slice(0, 60)}...` : firstLine;
	return { name: fileName.replace(/\.md$/i, ""), description, content: body };
}

export async function loadPromptTemplates(
	env: ExecutionEnv,
	paths: string | string[],
	context: Context,
): Promise<{ promptTemplates: PromptTemplate[]; diagnostics: PromptTemplateDiagnostic[] }> {
	const promptTemplates: PromptTemplate[] = [];
	const diagnostics: PromptTemplateDiagnostic[] = [];
	const warn: Warn = (code, message, path) =>
		diagnostics.push({ type: "warning", code: code as PromptTemplateDiagnosticCode, message, path });
	for (const path of Array.isArray(paths) ? paths : [paths]) {
		const info = await env.fileInfo(path, context);
		if (!info.ok) {
			if (info.error.code !== "not_found") warn("file_info_failed", info.error.message, path);
			continue;
		}
		const kind = await resolveEnvKind(env, info.value, warn, context);
		if (kind === "file") {
			if (!info.value.name.endsWith(".md")) continue;
			const template = await loadTemplate(env, info.value.path, info.value.name, warn, context);
			if (template) promptTemplates.push(template);
			continue;
		}
		if (kind !== "directory") continue;
		const entries = await env.listDir(info.value.path, context);
		if (!entries.ok) {
			warn("list_failed", entries.error.message, info.value.path);
			continue;
		}
		for (const entry of entries.value.sort((a, b) => a.name.localeCompare(b.name))) {
			if ((await resolveEnvKind(env, entry, warn, context)) !== "file" || !entry.name.endsWith(".md")) continue;
			const template = await loadTemplate(env, entry.path, entry.name, warn, context);
			if (template) promptTemplates.push(template);
		}
	}
	return { promptTemplates, diagnostics };
}

/** `loadPromptTemplates` per input, with each input's `source` attached to its templates and warnings. */
export async function loadSourcedPromptTemplates<TSource, TPromptTemplate extends PromptTemplate = PromptTemplate>(
	env: ExecutionEnv,
	inputs: Array<{ path: string; source: TSource }>,
	mapPromptTemplate: ((template: PromptTemplate, source: TSource, context: Context) => TPromptTemplate) | undefined,
	context: Context,
): Promise<{
	promptTemplates: Array<{ promptTemplate: TPromptTemplate; source: TSource }>;
	diagnostics: Array<PromptTemplateDiagnostic & { source: TSource }>;
}> {
	const promptTemplates: Array<{ promptTemplate: TPromptTemplate; source: TSource }> = [];
	const diagnostics: Array<PromptTemplateDiagnostic & { source: TSource }> = [];
	for (const { path, source } of inputs) {
		const loaded = await loadPromptTemplates(env, path, context);
		for (const template of loaded.promptTemplates) {
			const mapped = mapPromptTemplate ? mapPromptTemplate(template, source, context) : (template as TPromptTemplate);
			promptTemplates.push({ promptTemplate: mapped, source });
		}
		for (const diagnostic of loaded.diagnostics) diagnostics.push({ ...diagnostic, source });
	}
	return { promptTemplates, diagnostics };
}
