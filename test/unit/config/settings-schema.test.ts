import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Check } from "@sinclair/typebox/value";
import { defaultsOf, renderSettingsSchemaModule } from "../../../scripts/gen-settings-schema.ts";
import {
	checkSettingValue,
	resolveSettings,
	SETTINGS_DEFAULTS,
	settingsSchema,
	validateSettings,
} from "../../../src/config/index.ts";
import {
	SettingsSchema as BuiltSettingsSchema,
	renderSettingsJsonSchema,
} from "../../../src/config/settings-schema.ts";
import { PRECOMPILED } from "../../../src/config/settings-validators.generated.ts";

/** Every row of pi 0.87.1's docs/settings.md: key, documented default (undefined: decided at run time), a valid
 * value and a value of the wrong type. */
const DOCUMENTED: [string, unknown, unknown, unknown][] = [
	["defaultProvider", undefined, "anthropic", 3],
	["defaultModel", undefined, "claude-sonnet-4", false],
	["defaultThinkingLevel", "medium", "max", "extreme"],
	["modelThinkingLevels", undefined, { "openai/gpt-4.1": "high" }, { "openai/gpt-4.1": "loud" }],
	["thinkingBudgets", undefined, { minimal: 1024, high: 32000 }, { low: "lots" }],
	["enabledModels", undefined, ["claude-*"], "claude-*"],
	["hideThinkingBlock", false, true, "yes"],
	["showCacheMissNotices", false, true, 1],
	["cacheWarming", "streaming", "idle", "always"],
	["steeringMode", "one-at-a-time", "all", "some"],
	["followUpMode", "one-at-a-time", "all", true],
	["externalEditor", undefined, "code --wait", ["code"]],
	["doubleEscapeAction", "tree", "fork", "undo"],
	["treeFilterMode", "default", "labeled-only", "labelled"],
	["defaultProjectTrust", "ask", "always", "sometimes"],
	["defaultTools", ["read", "bash", "edit", "write"], [], "read"],
	["sessionDir", undefined, "./sessions", 1],
	["compaction.enabled", true, false, "no"],
	["compaction.reserveTokens", 16384, 0, -1],
	["compaction.keepRecentTokens", 20000, 100, 1.5],
	["compaction.modelOverrides", undefined, { "a/b": { reserveTokens: 1 } }, { "a/b": { reserveTokens: -5 } }],
	["branchSummary.reserveTokens", 16384, 1, "1"],
	["branchSummary.skipPrompt", false, true, null],
	["theme", undefined, "light/dark", 7],
	["quietStartup", false, true, "true"],
	["tuiMode", "regular", "fullscreen", "full"],
	["fullscreenExitOutput", "transcript", "resume-hint", "none"],
	["fullscreenScrollbar", "auto", "hidden", "never"],
	["fullscreenCopyOnSelect", true, false, 0],
	["editorPaddingX", 0, 3, 4],
	["outputPad", 1, 0, 2],
	["autocompleteMaxVisible", 5, 20, 2],
	["showHardwareCursor", false, true, "on"],
	["terminal.showImages", true, false, "auto"],
	["terminal.imageWidthCells", 60, 80, 0],
	["terminal.clearOnShrink", false, true, 1],
	["terminal.showTerminalProgress", false, true, "yes"],
	["terminal.hyperlinks", "auto", false, "maybe"],
	["terminal.images", "auto", false, true],
	["terminal.trueColor", "auto", true, "24bit"],
	["images.autoResize", true, false, "no"],
	["images.blockImages", false, true, 0],
	["markdown.codeBlockIndent", "  ", "\t", 2],
	["markdown.mermaid", "streaming", "off", "on"],
	["transport", "auto", "websocket-cached", "http"],
	["httpProxy", undefined, "http://proxy:8080", 8080],
	["httpIdleTimeoutMs", 300000, 0, -1],
	["websocketConnectTimeoutMs", 15000, 0, "15s"],
	["retry.enabled", true, false, "true"],
	["retry.maxRetries", 3, 0, -2],
	["retry.baseDelayMs", 2000, 500, "2s"],
	["retry.maxAgentDelayMs", 60000, 1000, null],
	["retry.provider.timeoutMs", undefined, 30000, -1],
	["retry.provider.maxRetries", 0, 2, 0.5],
	["retry.provider.maxRetryDelayMs", 60000, 0, "none"],
	["shellPath", undefined, "~/bin/zsh", ["zsh"]],
	["shellCommandPrefix", undefined, "set -e", 1],
	["npmCommand", ["npm"], ["bun"], "bun"],
	["trustedPackageScripts", [], ["esbuild"], "esbuild"],
	["packages", [], ["npm:x", { source: "git:github.com/a/b", skills: [] }], [{ skills: [] }]],
	["extensions", [], ["./ext.ts"], "./ext.ts"],
	["skills", [], ["./skills"], [1]],
	["prompts", [], ["./prompts"], "x"],
	["themes", [], ["./themes"], {}],
	["enableSkillCommands", true, false, "no"],
	["collapseChangelog", false, true, 1],
	["enableInstallTelemetry", true, false, "off"],
	["enableAnalytics", false, true, "on"],
	["warnings.anthropicExtraUsage", true, false, "no"],
];

function at(object: unknown, path: string): unknown {
	return path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], object);
}

describe("settings schema", () => {
	test.each(
		DOCUMENTED,
	)("%s: documented default, accepts the right type, rejects the wrong one", (key, def, good, bad) => {
		const path = key.split(".");
		expect(at(SETTINGS_DEFAULTS, key)).toEqual(def);
		expect(at(resolveSettings({}), key)).toEqual(def);
		expect(checkSettingValue(path, good)).toBeUndefined();
		expect(checkSettingValue(path, bad)).toMatch(/^expected /);
	});

	test("every top-level schema key is documented (apart from $schema and pi's own bookkeeping)", () => {
		const documented = new Set(DOCUMENTED.map(([key]) => key.split(".")[0]));
		const internal = new Set(["$schema", "lastChangelogVersion", "trackingId"]);
		const keys = Object.keys(settingsSchema().properties).filter((k) => !internal.has(k));
		expect(keys.filter((k) => !documented.has(k))).toEqual([]);
		expect([...documented].filter((k) => !keys.includes(k as string))).toEqual([]);
	});

	test("docs/settings.schema.json is up to date (regenerate: bun scripts/gen-settings-schema.ts)", () => {
		const file = join(import.meta.dir, "..", "..", "..", "docs", "settings.schema.json");
		expect(readFileSync(file, "utf8")).toBe(renderSettingsJsonSchema());
	});

	test("the JSON schema carries types, defaults and enums for editors", () => {
		const doc = JSON.parse(renderSettingsJsonSchema());
		expect(doc.$schema).toContain("json-schema.org");
		expect(doc.properties.compaction.properties.reserveTokens).toMatchObject({ type: "integer", default: 16384 });
		expect(doc.properties.steeringMode.anyOf.map((o: { const: string }) => o.const)).toEqual(["all", "one-at-a-time"]);
		expect(doc.additionalProperties).toBe(true);
	});

	test("settings-schema.generated.ts is up to date, and its literal checks values as the built schema does", () => {
		const file = join(import.meta.dir, "..", "..", "..", "src", "config", "settings-schema.generated.ts");
		expect(readFileSync(file, "utf8")).toBe(renderSettingsSchemaModule());
		const SettingsSchema = settingsSchema();
		expect(SettingsSchema).not.toBe(BuiltSettingsSchema);
		expect(settingsSchema()).toBe(SettingsSchema);
		expect(JSON.stringify(SettingsSchema)).toBe(JSON.stringify(BuiltSettingsSchema));
		expect(SETTINGS_DEFAULTS).toEqual(defaultsOf(BuiltSettingsSchema) as never);
		const samples: unknown[] = [
			{},
			{ defaultThinkingLevel: "high", compaction: { reserveTokens: 100 } },
			{ defaultThinkingLevel: "loud" },
			{ compaction: { reserveTokens: -1 } },
			{ packages: ["npm:x", { source: "git:y", autoload: false }] },
			{ packages: [3] },
			{ defaultProvider: 7 },
			[],
		];
		for (const sample of samples) expect(Check(SettingsSchema, sample)).toBe(Check(BuiltSettingsSchema, sample));
	});

	test("the precompiled check of every top-level key agrees with TypeBox on valid and invalid values", () => {
		const probes: unknown[] = [
			undefined,
			null,
			true,
			0,
			-1,
			1.5,
			16384,
			"",
			"high",
			"all",
			[],
			["x"],
			[3],
			{},
			{ a: 1 },
		];
		for (const [key, schema] of Object.entries(BuiltSettingsSchema.properties)) {
			const check = PRECOMPILED[key];
			expect([key, typeof check]).toEqual([key, "function"]);
			const samples = [...probes, SETTINGS_DEFAULTS[key as keyof typeof SETTINGS_DEFAULTS]];
			for (const sample of samples)
				expect([key, sample, check?.(sample)]).toEqual([key, sample, Check(schema, sample)]);
		}
		const { settings, problems } = validateSettings({
			compaction: { reserveTokens: -1, enabled: false },
			theme: "dark",
		});
		expect(settings).toEqual({ compaction: { enabled: false }, theme: "dark" } as never);
		expect(problems.map((p) => p.key)).toEqual(["compaction.reserveTokens"]);
	});
});
