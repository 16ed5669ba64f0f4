/** `SettingsManager`: the same script against ours and pi 0.87.1's, on copies of the same settings files. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";

const pi = piReference("settings-manager-vs-pi");

/** Runs with `pi` (the module) and `args.dir` (an empty folder); returns what it observed. */
const SCRIPT = `
const fs = await import("node:fs");
const path = await import("node:path");
const { SettingsManager } = pi;
const agentDir = path.join(args.dir, "agent");
const cwd = path.join(args.dir, "project");
fs.mkdirSync(agentDir, { recursive: true });
fs.mkdirSync(path.join(cwd, ".pi"), { recursive: true });
const globalFile = path.join(agentDir, "settings.json");
const projectFile = path.join(cwd, ".pi", "settings.json");
fs.writeFileSync(globalFile, JSON.stringify({
	queueMode: "all", defaultProvider: "anthropic", defaultModel: "claude", theme: "./themes/x.json",
	compaction: { reserveTokens: 1000, modelOverrides: { "p/m": { keepRecentTokens: 5 } } },
	retry: { maxDelayMs: 1234, maxRetries: 7 }, terminal: { images: false, imageWidthCells: 12.7 },
	httpIdleTimeoutMs: "disabled", websocketConnectTimeoutMs: " 2500 ", cacheWarming: "idle",
	defaultProjectTrust: "always", skills: { enableSkillCommands: false, customDirectories: ["~/sk"] },
	modelThinkingLevels: { "a/b": "high" }, markdown: { mermaid: "final" }, unknownKey: { keep: true },
	treeFilterMode: "bogus", outputPad: 0, warnings: { anthropicExtraUsage: false },
}, null, 2));
fs.writeFileSync(projectFile, JSON.stringify({ defaultModel: "project-model", compaction: { enabled: false },
	cacheWarming: "off", defaultProjectTrust: "never", terminal: { showImages: false }, extensions: ["./e.ts"] }));
const sm = SettingsManager.create(cwd, agentDir);
const get = (m) => {
	const out = {};
	for (const name of ["getLastChangelogVersion", "getDefaultProvider", "getDefaultModel", "getSteeringMode",
		"getFollowUpMode", "getThemeSetting", "getTheme", "getDefaultThinkingLevel", "getAllModelThinkingLevels",
		"getTransport", "getCompactionEnabled", "getCompactionReserveTokens", "getCompactionKeepRecentTokens",
		"getCompactionSettings", "getBranchSummarySettings", "getBranchSummarySkipPrompt", "getRetryEnabled",
		"getRetrySettings", "getHttpIdleTimeoutMs", "getCacheWarmingMode", "getProviderRetrySettings",
		"getWebSocketConnectTimeoutMs", "getHideThinkingBlock", "getShowCacheMissNotices", "getShellPath",
		"getQuietStartup", "getDefaultProjectTrust", "getShellCommandPrefix", "getNpmCommand", "getCollapseChangelog",
		"getEnableInstallTelemetry", "getEnableAnalytics", "getPackages", "getExtensionPaths", "getSkillPaths",
		"getPromptTemplatePaths", "getThemePaths", "getEnableSkillCommands", "getThinkingBudgets",
		"getTerminalCapabilityOverrides", "getShowImages", "getImageWidthCells", "getClearOnShrink",
		"getShowTerminalProgress", "getTuiMode", "getFullscreenExitOutput", "getFullscreenScrollbar",
		"getFullscreenCopyOnSelect", "getImageAutoResize", "getBlockImages", "getEnabledModels", "getDefaultTools",
		"getDoubleEscapeAction", "getTreeFilterMode", "getShowHardwareCursor", "getEditorPaddingX", "getOutputPad",
		"getAutocompleteMaxVisible", "getCodeBlockIndent", "getMermaidRenderingMode", "getWarnings",
		"getGlobalSettings", "getProjectSettings", "isProjectTrusted", "getSessionDir"]) out[name] = m[name]() ?? null;
	out.modelCompaction = m.getCompactionSettings({ provider: "p", id: "m" });
	out.modelLevel = m.getModelThinkingLevel("a", "b") ?? null;
	return out;
};
const before = get(sm);
sm.setDefaultModelAndProvider("openai", "gpt");
sm.setCompactionEnabled(true);
sm.setShowImages(true);
sm.setImageWidthCells(3.9);
sm.setModelThinkingLevel("c", "d", "low");
sm.removeModelThinkingLevel("a", "b");
sm.setProjectSkillPaths(["./skills"]);
sm.setEditorPaddingX(9);
sm.setAutocompleteMaxVisible(1);
sm.setMermaidRenderingMode("off");
// Someone else edits the file meanwhile: keys we did not change survive.
const onDisk = JSON.parse(fs.readFileSync(globalFile, "utf8"));
fs.writeFileSync(globalFile, JSON.stringify({ ...onDisk, addedElsewhere: 1, terminal: { ...onDisk.terminal, trueColor: true } }));
await sm.flush();
const after = get(sm);
const files = { global: JSON.parse(fs.readFileSync(globalFile, "utf8")), project: JSON.parse(fs.readFileSync(projectFile, "utf8")) };
sm.applyOverrides({ defaultModel: "override", compaction: { reserveTokens: 1 } });
const overridden = [sm.getDefaultModel(), sm.getCompactionSettings()];
await sm.reload();
const reloaded = [sm.getDefaultModel(), sm.getCompactionSettings(), sm.drainErrors().length];
const untrusted = SettingsManager.create(cwd, agentDir, { projectTrusted: false });
let refusal = null;
try { untrusted.setProjectThemePaths(["x"]); } catch (e) { refusal = e.message; }
const untrustedModel = untrusted.getDefaultModel();
untrusted.setProjectTrusted(true);
const trustedModel = untrusted.getDefaultModel();
fs.writeFileSync(projectFile, "{ not json");
const broken = SettingsManager.create(cwd, agentDir);
const errors = broken.drainErrors().map((e) => ({ scope: e.scope, path: e.path?.slice(args.dir.length), name: e.error.name }));
broken.setProjectSkillPaths(["y"]);
await broken.flush();
const stillBroken = fs.readFileSync(projectFile, "utf8");
const mem = SettingsManager.inMemory({ queueMode: "all", retry: { enabled: false }, defaultThinkingLevel: "low" });
mem.setTheme("dark");
await mem.flush();
const memory = [mem.getSteeringMode(), mem.getRetryEnabled(), mem.getTheme(), mem.getDefaultThinkingLevel(), mem.getGlobalSettings()];
let invalid = null;
try { SettingsManager.inMemory({ compaction: { reserveTokens: -1 } }).getCompactionSettings(); } catch (e) { invalid = e.message; }
let invalidTimeout = null;
try { SettingsManager.inMemory({ httpIdleTimeoutMs: "soon" }).getHttpIdleTimeoutMs(); } catch (e) { invalidTimeout = e.message; }
return { before, after, files, overridden, reloaded, refusal, untrustedModel, trustedModel, errors, stillBroken, memory, invalid, invalidTimeout };
`;

async function runOurs(dir: string): Promise<unknown> {
	const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
	return new AsyncFunction("pi", "args", SCRIPT)(ours, { dir });
}

describe("SettingsManager", () => {
	(pi ? test : test.skip)(
		"getters, setters, merged writes, overrides, reload, trust and errors behave as pi 0.87.1's",
		async () => {
			const mine = mkdtempSync(join(tmpdir(), "pi-sm-ours-"));
			const theirs = mkdtempSync(join(tmpdir(), "pi-sm-theirs-"));
			try {
				const expected = pi?.run(SCRIPT, { dir: theirs }, { HOME: theirs });
				const saved = process.env.HOME;
				process.env.HOME = mine;
				let actual: unknown;
				try {
					actual = await runOurs(mine);
				} finally {
					process.env.HOME = saved;
				}
				const normalise = (value: unknown, dir: string) => JSON.parse(JSON.stringify(value).replaceAll(dir, "<dir>"));
				if (process.env.SHOW) console.log(JSON.stringify(normalise(actual, mine)).slice(0, 3000));
				expect(normalise(actual, mine)).toEqual(normalise(expected, theirs));
			} finally {
				rmSync(mine, { recursive: true, force: true });
				rmSync(theirs, { recursive: true, force: true });
			}
		},
		60_000,
	);
});
