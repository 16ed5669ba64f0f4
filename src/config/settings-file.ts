/**
 * Reading settings files. This first cut reads only what start-up needs (resource paths);
 * the full schema, merge and locked writes arrive with the settings issue.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { errorMessage, expandHome } from "../util/index.ts";
import { agentPaths, projectPaths } from "./paths.ts";

const ResourceList = Type.Array(Type.String());

const ThinkingLevel = Type.Union(
	["off", "minimal", "low", "medium", "high", "xhigh", "max"].map((level) => Type.Literal(level)),
);

/** The keys this module validates; any other key is kept untouched for later readers. */
export const StartupSettings = Type.Object(
	{
		extensions: Type.Optional(ResourceList),
		skills: Type.Optional(ResourceList),
		prompts: Type.Optional(ResourceList),
		themes: Type.Optional(ResourceList),
		defaultProvider: Type.Optional(Type.String()),
		defaultModel: Type.Optional(Type.String()),
		defaultThinkingLevel: Type.Optional(ThinkingLevel),
		shellPath: Type.Optional(Type.String()),
		shellCommandPrefix: Type.Optional(Type.String()),
		retry: Type.Optional(
			Type.Object({
				enabled: Type.Optional(Type.Boolean()),
				maxRetries: Type.Optional(Type.Integer({ minimum: 0 })),
				baseDelayMs: Type.Optional(Type.Number({ minimum: 0 })),
				maxAgentDelayMs: Type.Optional(Type.Number({ minimum: 0 })),
			}),
		),
	},
	{ additionalProperties: true },
);
export type StartupSettings = Static<typeof StartupSettings>;

export type SettingsScope = "global" | "project";

export interface SettingsFile {
	scope: SettingsScope;
	path: string;
	/** Directory that relative resource paths in this file resolve from. */
	baseDir: string;
	settings: StartupSettings;
}

export interface SettingsLoad {
	files: SettingsFile[];
	/** One line each, naming file, key and problem. */
	diagnostics: string[];
}

export function loadStartupSettings(agentDir: string, cwd: string): SettingsLoad {
	const diagnostics: string[] = [];
	const files: SettingsFile[] = [];
	const global = readSettingsFile("global", agentPaths.settings(agentDir), agentDir, diagnostics);
	if (global) files.push(global);
	const projectFile = projectPaths.settings(cwd);
	const project = readSettingsFile("project", projectFile, dirname(projectFile), diagnostics);
	if (project) files.push(project);
	return { files, diagnostics };
}

function readSettingsFile(
	scope: SettingsScope,
	path: string,
	baseDir: string,
	diagnostics: string[],
): SettingsFile | undefined {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		diagnostics.push(`settings ${path}: cannot read: ${errorMessage(error)}`);
		return undefined;
	}
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch (error) {
		diagnostics.push(`settings ${path}: invalid JSON: ${errorMessage(error)}; using defaults`);
		return undefined;
	}
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
		diagnostics.push(`settings ${path}: expected a JSON object; using defaults`);
		return undefined;
	}
	const settings: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
	for (const [key, schema] of Object.entries(StartupSettings.properties)) {
		if (settings[key] !== undefined && !Value.Check(schema, settings[key])) {
			const first = Value.Errors(schema, settings[key]).First();
			const where = first?.path ? `${key}${first.path.replace(/\//g, ".")}` : key;
			diagnostics.push(`settings ${path}: "${where}": ${first?.message ?? "invalid value"}; using the default`);
			delete settings[key];
		}
	}
	return { scope, path, baseDir, settings: settings as StartupSettings };
}

/** Resolves a resource path from a settings file: `~` expanded, relative to the file's base dir. */
export function resolveSettingsPath(entry: string, baseDir: string): string {
	const expanded = expandHome(entry);
	return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}

/** Project settings over global ones; objects one level deep are merged key by key (pi's merge depth). */
export function mergeSettings(files: SettingsFile[]): StartupSettings {
	const merged: Record<string, unknown> = {};
	for (const file of files) {
		for (const [key, value] of Object.entries(file.settings)) {
			const previous = merged[key];
			const bothObjects = isPlainObject(previous) && isPlainObject(value);
			merged[key] = bothObjects ? { ...(previous as object), ...(value as object) } : value;
		}
	}
	return merged as StartupSettings;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
