/**
 * Settings values: legacy-key migration, per-key validation against the schema (a bad key is dropped and reported;
 * its siblings survive), project-over-global merge, and defaults.
 */
import type { TObject, TSchema } from "@sinclair/typebox";
import { TypeBoxKind as Kind, typebox } from "../util/index.ts";
import { SETTINGS_DEFAULT_VALUES, settingsSchema } from "./settings-schema.generated.ts";
import type { Settings } from "./settings-schema.ts";
import { PRECOMPILED } from "./settings-validators.generated.ts";

export interface SettingsProblem {
	/** Dotted key path, e.g. `compaction.reserveTokens`. */
	key: string;
	problem: string;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Renames keys older pi versions wrote (in memory only; the file is left as it is):
 * `queueMode` → `steeringMode`, boolean `websockets` → `transport`, object `skills` → `enableSkillCommands` +
 * `skills` list, `retry.maxDelayMs` → `retry.provider.maxRetryDelayMs`.
 */
export function migrateSettings(raw: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = { ...raw };
	if ("queueMode" in out && !("steeringMode" in out)) {
		out.steeringMode = out.queueMode;
		delete out.queueMode;
	}
	if (!("transport" in out) && typeof out.websockets === "boolean") {
		out.transport = out.websockets ? "websocket" : "sse";
		delete out.websockets;
	}
	const skills = out.skills;
	if (isPlainObject(skills)) {
		if (skills.enableSkillCommands !== undefined && out.enableSkillCommands === undefined) {
			out.enableSkillCommands = skills.enableSkillCommands;
		}
		const dirs = skills.customDirectories;
		if (Array.isArray(dirs) && dirs.length > 0) out.skills = dirs;
		else delete out.skills;
	}
	const retry = out.retry;
	if (isPlainObject(retry) && retry.maxDelayMs !== undefined) {
		const provider = isPlainObject(retry.provider) ? { ...retry.provider } : {};
		if (provider.maxRetryDelayMs === undefined) provider.maxRetryDelayMs = retry.maxDelayMs;
		const { maxDelayMs: _dropped, ...rest } = retry;
		out.retry = { ...rest, provider };
	}
	return out;
}

function isObjectSchema(schema: TSchema): schema is TObject {
	return schema[Kind] === "Object" && isPlainObject(schema.properties);
}

/** Plain words for what a schema accepts, for diagnostics. */
export function describeSchema(schema: TSchema): string {
	const kind = schema[Kind] as string;
	if (kind === "Boolean") return "true or false";
	if (kind === "String") return "a string";
	if (kind === "Literal") return JSON.stringify(schema.const);
	if (kind === "Integer" || kind === "Number") {
		const noun = kind === "Integer" ? "an integer" : "a number";
		const min = schema.minimum as number | undefined;
		const max = schema.maximum as number | undefined;
		if (min !== undefined && max !== undefined && max < Number.MAX_SAFE_INTEGER) return `${noun} from ${min} to ${max}`;
		if (min === 0) return `${kind === "Integer" ? "a non-negative integer" : "a non-negative number"}`;
		if (min !== undefined) return `${noun} of at least ${min}`;
		return noun;
	}
	if (kind === "Array") {
		const items = schema.items as TSchema;
		return items[Kind] === "String" ? "a list of strings" : "a list";
	}
	if (kind === "Union") {
		const options = (schema.anyOf as TSchema[]).flatMap((s) => (s[Kind] === "Union" ? (s.anyOf as TSchema[]) : [s]));
		const words = options.map((s) => (s[Kind] === "Boolean" ? "true, false" : describeSchema(s)));
		return `one of ${words.join(", ")}`;
	}
	if (kind === "Record") return "an object";
	if (kind === "Object") return "an object";
	return "a valid value";
}

function shortJson(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * Checks one value against its schema. Objects with known keys are checked key by key so that one bad entry does
 * not discard its siblings. Returns the value to keep (undefined: drop it) and appends problems.
 */
function passes(schema: TSchema, value: unknown): boolean {
	const check = precompiledChecks().get(schema);
	return check ? check(value) : typebox().Check(schema, value);
}

let precompiled: WeakMap<TSchema, (value: unknown) => boolean> | undefined;

/** Top-level keys are checked by code compiled ahead of time (scripts/gen-validators.ts); nested ones by TypeBox. */
function precompiledChecks(): WeakMap<TSchema, (value: unknown) => boolean> {
	if (precompiled) return precompiled;
	precompiled = new WeakMap();
	for (const [key, schema] of Object.entries(settingsSchema().properties)) {
		const check = PRECOMPILED[key];
		if (check) precompiled.set(schema, check);
	}
	return precompiled;
}

function checkValue(schema: TSchema, value: unknown, key: string, problems: SettingsProblem[]): unknown {
	if (passes(schema, value)) return value;
	if (isObjectSchema(schema) && isPlainObject(value)) {
		const out: Record<string, unknown> = { ...value };
		for (const [name, sub] of Object.entries(schema.properties)) {
			if (out[name] === undefined) continue;
			const kept = checkValue(sub, out[name], `${key}.${name}`, problems);
			if (kept === undefined) delete out[name];
			else out[name] = kept;
		}
		return out;
	}
	if (schema[Kind] === "Record" && isPlainObject(value)) {
		const entrySchema = Object.values(schema.patternProperties as object)[0] as TSchema;
		const out: Record<string, unknown> = {};
		for (const [name, entry] of Object.entries(value)) {
			const kept = checkValue(entrySchema, entry, `${key}.${name}`, problems);
			if (kept !== undefined) out[name] = kept;
		}
		return out;
	}
	if (schema[Kind] === "Array" && Array.isArray(value)) {
		const items = schema.items as TSchema;
		const bad = value.findIndex((item) => !passes(items, item));
		const problem = `item ${bad} should be ${describeSchema(items)}, got ${shortJson(value[bad])}`;
		problems.push({ key, problem: `expected ${describeSchema(schema)}; ${problem}` });
		return undefined;
	}
	problems.push({ key, problem: `expected ${describeSchema(schema)}, got ${shortJson(value)}` });
	return undefined;
}

/** Validates a parsed settings object key by key; unknown keys are kept as they are. */
export function validateSettings(raw: Record<string, unknown>): { settings: Settings; problems: SettingsProblem[] } {
	const problems: SettingsProblem[] = [];
	const settings: Record<string, unknown> = { ...raw };
	// PRECOMPILED has one check per top-level key, in the schema's order; the schema is built only for a failure.
	for (const [key, check] of Object.entries(PRECOMPILED)) {
		if (settings[key] === undefined || check(settings[key])) continue;
		const schema = settingsSchema().properties[key as keyof Settings] as TSchema;
		const kept = checkValue(schema, settings[key], key, problems);
		if (kept === undefined) delete settings[key];
		else settings[key] = kept;
	}
	return { settings: settings as Settings, problems };
}

/** Finds the schema for a key path (`["retry", "provider", "timeoutMs"]`), through objects and records. */
export function schemaAt(path: readonly string[]): TSchema | undefined {
	let schema: TSchema | undefined = settingsSchema();
	for (const part of path) {
		if (!schema) return undefined;
		if (isObjectSchema(schema)) schema = schema.properties[part];
		else if (schema[Kind] === "Record") schema = Object.values(schema.patternProperties as object)[0] as TSchema;
		else return undefined;
	}
	return schema;
}

/** Problem with storing `value` at `path`, or undefined when the schema accepts it (unknown keys are accepted). */
export function checkSettingValue(path: readonly string[], value: unknown): string | undefined {
	const schema = schemaAt(path);
	if (!schema || value === undefined) return undefined;
	const problems: SettingsProblem[] = [];
	if (passes(schema, value)) return undefined;
	checkValue(schema, value, path.join("."), problems);
	return problems[0]?.problem ?? `expected ${describeSchema(schema)}`;
}

/**
 * Project over global: plain objects merge key by key at every depth (pi 0.87.1 merges recursively); arrays and
 * other values from the later file replace earlier ones. Undefined values never override.
 */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(over)) {
		if (value === undefined) continue;
		const previous = out[key];
		out[key] = isPlainObject(previous) && isPlainObject(value) ? deepMerge(previous, value) : value;
	}
	return out;
}

/** Every documented default, nested like the file (keys whose default is decided at run time are absent). */
export const SETTINGS_DEFAULTS: Readonly<Settings> = Object.freeze(SETTINGS_DEFAULT_VALUES);

type Req<T, K extends keyof T> = T & { [P in K]-?: NonNullable<T[P]> };
type Sub<K extends keyof Settings> = NonNullable<Settings[K]>;

/** Merged settings with every documented default filled in. */
export type ResolvedSettings = Omit<
	Req<
		Settings,
		| "defaultThinkingLevel"
		| "hideThinkingBlock"
		| "showCacheMissNotices"
		| "cacheWarming"
		| "steeringMode"
		| "followUpMode"
		| "doubleEscapeAction"
		| "treeFilterMode"
		| "defaultProjectTrust"
		| "defaultTools"
		| "quietStartup"
		| "tuiMode"
		| "fullscreenExitOutput"
		| "fullscreenScrollbar"
		| "fullscreenCopyOnSelect"
		| "editorPaddingX"
		| "outputPad"
		| "autocompleteMaxVisible"
		| "showHardwareCursor"
		| "transport"
		| "httpIdleTimeoutMs"
		| "websocketConnectTimeoutMs"
		| "npmCommand"
		| "trustedPackageScripts"
		| "packages"
		| "extensions"
		| "skills"
		| "prompts"
		| "themes"
		| "enableSkillCommands"
		| "collapseChangelog"
		| "enableInstallTelemetry"
		| "enableAnalytics"
	>,
	"compaction" | "branchSummary" | "terminal" | "images" | "markdown" | "retry" | "warnings"
> & {
	compaction: Req<Sub<"compaction">, "enabled" | "reserveTokens" | "keepRecentTokens">;
	branchSummary: Req<Sub<"branchSummary">, "reserveTokens" | "skipPrompt">;
	terminal: Req<Sub<"terminal">, keyof Sub<"terminal">>;
	images: Req<Sub<"images">, "autoResize" | "blockImages">;
	markdown: Req<Sub<"markdown">, "codeBlockIndent" | "mermaid">;
	retry: Req<Sub<"retry">, "enabled" | "maxRetries" | "baseDelayMs" | "maxAgentDelayMs"> & {
		provider: Req<NonNullable<Sub<"retry">["provider"]>, "maxRetries" | "maxRetryDelayMs">;
	};
	warnings: Req<Sub<"warnings">, "anthropicExtraUsage">;
};

/** Fills every documented default under the given (already merged and validated) settings. */
export function resolveSettings(settings: Settings): ResolvedSettings {
	return deepMerge(structuredClone(SETTINGS_DEFAULTS) as Record<string, unknown>, settings) as ResolvedSettings;
}
