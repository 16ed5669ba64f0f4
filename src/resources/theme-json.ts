/**
 * Theme files: JSON with `name`, optional `vars`, `colors` and optional `export`. Every colour token is checked on
 * its own; a missing or unusable colour (bad format, unknown variable, variable cycle) is reported and takes the
 * built-in theme's value, so one mistake never makes the whole theme unusable. A file that is not JSON, has no
 * `colors` object, or has a name containing `/` is not loaded.
 */
import { errorMessage, readFileSync } from "../util/index.ts";
import { stem } from "./collect.ts";
import {
	BUILTIN_THEME_JSON,
	type ColorValue,
	OPTIONAL_TOKEN_FALLBACK,
	THEME_BG_TOKENS,
	THEME_EXPORT_KEYS,
	THEME_FG_TOKENS,
	type ThemeExportKey,
	type ThemeToken,
} from "./theme-tokens.ts";
import type { ResourceCandidate, ResourceDiagnostic, SourceInfo } from "./types.ts";

/** A theme with every token resolved to "#rrggbb", a 0-255 index, or "" (terminal default). */
export interface ThemeDefinition {
	name: string;
	sourcePath?: string;
	sourceInfo?: SourceInfo;
	colors: Record<ThemeToken, ColorValue>;
	export: Partial<Record<ThemeExportKey, ColorValue>>;
}

const ALL_TOKENS: readonly ThemeToken[] = [...THEME_FG_TOKENS, ...THEME_BG_TOKENS];
const HEX = /^#[0-9a-fA-F]{6}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Resolves a colour (following `vars` names) or returns the problem with it. */
export function resolveColor(
	value: unknown,
	vars: Record<string, unknown>,
	seen: string[] = [],
): { color: ColorValue } | { problem: string } {
	if (typeof value === "number") {
		return Number.isInteger(value) && value >= 0 && value <= 255
			? { color: value }
			: { problem: `${value} is not a 256-colour index (0-255)` };
	}
	if (typeof value !== "string") return { problem: `${JSON.stringify(value)} is not a colour` };
	if (value === "" || HEX.test(value)) return { color: value.toLowerCase() };
	if (value.startsWith("#")) return { problem: `"${value}" is not a "#rrggbb" colour` };
	if (!Object.hasOwn(vars, value)) return { problem: `refers to unknown variable "${value}"` };
	if (seen.includes(value)) return { problem: `variable cycle ${[...seen, value].join(" -> ")}` };
	return resolveColor(vars[value], vars, [...seen, value]);
}

/** The built-in themes' names (known without parsing them). */
export const BUILTIN_THEME_NAMES = ["dark", "light"] as const;

let builtins: Readonly<Record<"dark" | "light", ThemeDefinition>> | undefined;

/** The built-in definitions (resolved on first use). */
export function builtinThemes(): Readonly<Record<"dark" | "light", ThemeDefinition>> {
	builtins ??= {
		dark: parseThemeJson(BUILTIN_THEME_JSON.dark, { fallback: null }).definition as ThemeDefinition,
		light: parseThemeJson(BUILTIN_THEME_JSON.light, { fallback: null }).definition as ThemeDefinition,
	};
	return builtins;
}

export interface ThemeParseOptions {
	path?: string;
	sourceInfo?: SourceInfo;
	/** Values for missing or bad tokens; default: the built-in dark theme; null: none (the theme is then dropped). */
	fallback?: ThemeDefinition | null;
}

export function parseThemeJson(
	json: unknown,
	options: ThemeParseOptions,
): { definition?: ThemeDefinition; diagnostics: ResourceDiagnostic[] } {
	const diagnostics: ResourceDiagnostic[] = [];
	const path = options.path;
	const report = (type: "warning" | "error", message: string) =>
		diagnostics.push({ type, message, ...(path ? { path } : {}) });
	if (!isRecord(json)) {
		report("error", "theme not loaded: expected a JSON object");
		return { diagnostics };
	}
	let name = typeof json.name === "string" ? json.name.trim() : "";
	if (name === "") {
		if (!path) {
			report("error", 'theme not loaded: "name" is required');
			return { diagnostics };
		}
		name = stem(path);
		report("warning", `theme has no "name"; using "${name}"`);
	}
	if (name.includes("/")) {
		report("error", `theme "${name}" not loaded: a theme name may not contain "/"`);
		return { diagnostics };
	}
	if (!isRecord(json.colors)) {
		report("error", `theme "${name}" not loaded: "colors" must be an object`);
		return { diagnostics };
	}
	const vars = isRecord(json.vars) ? json.vars : {};
	if (json.vars !== undefined && !isRecord(json.vars)) report("warning", `theme "${name}": "vars" must be an object`);
	const fallback = options.fallback === null ? undefined : (options.fallback ?? builtinThemes().dark);
	const colors = {} as Record<ThemeToken, ColorValue>;
	const given = json.colors;
	for (const token of ALL_TOKENS) {
		const inherit = OPTIONAL_TOKEN_FALLBACK[token];
		if (given[token] === undefined) {
			if (inherit) continue;
			report("warning", `theme "${name}": missing colour "${token}"; using the built-in value`);
		} else {
			const resolved = resolveColor(given[token], vars);
			if ("color" in resolved) {
				colors[token] = resolved.color;
				continue;
			}
			report("warning", `theme "${name}": colour "${token}" ${resolved.problem}; using the built-in value`);
		}
		if (fallback) colors[token] = fallback.colors[token];
		else if (!inherit) return { diagnostics };
	}
	for (const [token, from] of Object.entries(OPTIONAL_TOKEN_FALLBACK) as [ThemeToken, ThemeToken][]) {
		if (colors[token] === undefined) colors[token] = colors[from];
	}
	for (const key of Object.keys(given)) {
		if (!(ALL_TOKENS as readonly string[]).includes(key))
			report("warning", `theme "${name}": unknown colour "${key}"; ignored`);
	}
	const exportColors: Partial<Record<ThemeExportKey, ColorValue>> = {};
	if (isRecord(json.export)) {
		for (const key of THEME_EXPORT_KEYS) {
			if (json.export[key] === undefined) continue;
			const resolved = resolveColor(json.export[key], vars);
			if ("color" in resolved) exportColors[key] = resolved.color;
			else report("warning", `theme "${name}": export colour "${key}" ${resolved.problem}; ignored`);
		}
	}
	const definition: ThemeDefinition = { name, colors, export: exportColors };
	if (path) definition.sourcePath = path;
	if (options.sourceInfo) definition.sourceInfo = options.sourceInfo;
	return { definition, diagnostics };
}

export function loadThemeFile(
	candidate: ResourceCandidate,
	fallback?: ThemeDefinition,
): { definition?: ThemeDefinition; diagnostics: ResourceDiagnostic[] } {
	const { path } = candidate;
	let json: unknown;
	try {
		json = JSON.parse(readFileSync(path, "utf8"));
	} catch (error) {
		return { diagnostics: [{ type: "error", message: `theme not loaded: ${errorMessage(error)}`, path }] };
	}
	return parseThemeJson(json, { path, sourceInfo: candidate.sourceInfo, ...(fallback ? { fallback } : {}) });
}
