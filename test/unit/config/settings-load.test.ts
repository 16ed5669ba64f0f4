import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
	agentPaths,
	loadSettingsFiles,
	loadStartupSettings,
	mergeSettings,
	migrateSettings,
	projectPaths,
	resolveSettings,
	resolveSettingsPath,
	type SettingsFile,
} from "../../../src/config/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

function setup(global?: unknown, project?: unknown) {
	const agentDir = makeTempDir();
	const cwd = makeTempDir();
	if (global !== undefined) {
		writeTree(agentDir, { "settings.json": typeof global === "string" ? global : JSON.stringify(global) });
	}
	if (project !== undefined) {
		writeTree(cwd, { ".pi/settings.json": typeof project === "string" ? project : JSON.stringify(project) });
	}
	return { agentDir, cwd };
}

const file = (scope: "global" | "project", settings: object): SettingsFile => ({
	scope,
	path: `/${scope}.json`,
	baseDir: "/",
	settings,
});

describe("settings files", () => {
	test("global from <agentDir>/settings.json, project from <cwd>/.pi/settings.json, project resolving from .pi", () => {
		const { agentDir, cwd } = setup({ theme: "dark" }, { theme: "light" });
		const load = loadSettingsFiles({ agentDir, cwd, projectTrusted: true });
		expect(load.diagnostics).toEqual([]);
		expect(load.files.map((f) => [f.scope, f.path, f.baseDir])).toEqual([
			["global", agentPaths.settings(agentDir), agentDir],
			["project", projectPaths.settings(cwd), join(cwd, ".pi")],
		]);
		expect(mergeSettings(load.files).theme).toBe("light");
	});

	test("missing files are simply absent", () => {
		const { agentDir, cwd } = setup();
		expect(loadSettingsFiles({ agentDir, cwd, projectTrusted: true })).toEqual({ files: [], diagnostics: [] });
	});

	test("invalid JSON: one line naming the file; the file counts as empty", () => {
		const { agentDir, cwd } = setup("{ theme: dark", { theme: "light" });
		const load = loadSettingsFiles({ agentDir, cwd, projectTrusted: true });
		expect(load.diagnostics).toHaveLength(1);
		expect(load.diagnostics[0]).toStartWith(
			`settings ${agentPaths.settings(agentDir)}: invalid JSON at line 1, column 3 `,
		);
		expect(load.diagnostics[0]).toEndWith("; using defaults");
		expect(load.diagnostics[0]).not.toContain("\n");
		expect(load.files.map((f) => f.scope)).toEqual(["project"]);
	});

	test("a JSON value that is not an object is reported", () => {
		const { agentDir, cwd } = setup("[1, 2]");
		const load = loadSettingsFiles({ agentDir, cwd, projectTrusted: true });
		expect(load.diagnostics[0]).toContain("expected a JSON object");
	});

	test("a wrong-typed key: one line naming file, key and problem; that key falls back to its default", () => {
		const { agentDir, cwd } = setup({ quietStartup: "yes", theme: "light" });
		const load = loadSettingsFiles({ agentDir, cwd, projectTrusted: true });
		expect(load.diagnostics).toEqual([
			`settings ${agentPaths.settings(agentDir)}: "quietStartup": expected true or false, got "yes"; using the default`,
		]);
		const resolved = resolveSettings(mergeSettings(load.files));
		expect(resolved.quietStartup).toBe(false);
		expect(resolved.theme).toBe("light");
	});

	test("a bad nested key is dropped alone; its siblings and unknown keys survive", () => {
		const { agentDir, cwd } = setup({
			compaction: { reserveTokens: -1, keepRecentTokens: 5, extra: 1 },
			mine: { x: 1 },
		});
		const load = loadSettingsFiles({ agentDir, cwd, projectTrusted: true });
		expect(load.diagnostics).toEqual([
			`settings ${agentPaths.settings(agentDir)}: "compaction.reserveTokens": expected a non-negative integer, got -1; using the default`,
		]);
		const merged = mergeSettings(load.files) as Record<string, unknown>;
		expect(merged.compaction).toEqual({ keepRecentTokens: 5, extra: 1 });
		expect(merged.mine).toEqual({ x: 1 });
		expect(resolveSettings(mergeSettings(load.files)).compaction.reserveTokens).toBe(16384);
	});

	test("range and enum problems say what is allowed", () => {
		const { agentDir, cwd } = setup({ editorPaddingX: 9, steeringMode: "some", terminal: { images: "sixel" } });
		const lines = loadSettingsFiles({ agentDir, cwd, projectTrusted: true }).diagnostics.join("\n");
		expect(lines).toContain('"editorPaddingX": expected an integer from 0 to 3, got 9');
		expect(lines).toContain('"steeringMode": expected one of "all", "one-at-a-time", got "some"');
		expect(lines).toContain('"terminal.images": expected one of "kitty", "iterm2", "auto", false, got "sixel"');
	});

	test("map entries are checked one by one; a bad list item names its position", () => {
		const { agentDir, cwd } = setup({
			modelThinkingLevels: { "a/b": "loud", "c/d": "high" },
			packages: ["npm:x", 3],
		});
		const load = loadSettingsFiles({ agentDir, cwd, projectTrusted: true });
		expect(load.diagnostics.map((l) => l.slice(l.indexOf(": ") + 2))).toEqual([
			'"modelThinkingLevels.a/b": expected one of "off", "minimal", "low", "medium", "high", "xhigh", "max", got "loud"; using the default',
			'"packages": expected a list; item 1 should be one of a string, an object, got 3; using the default',
		]);
		const merged = mergeSettings(load.files);
		expect(merged.modelThinkingLevels).toEqual({ "c/d": "high" });
		expect(resolveSettings(merged).packages).toEqual([]);
	});

	test("global-only keys are ignored (and reported) in project settings", () => {
		const { agentDir, cwd } = setup(
			{ defaultProjectTrust: "never" },
			{ defaultProjectTrust: "always", httpProxy: "http://x", cacheWarming: "idle" },
		);
		const load = loadSettingsFiles({ agentDir, cwd, projectTrusted: true });
		expect(load.diagnostics).toHaveLength(3);
		expect(load.diagnostics[0]).toContain('"defaultProjectTrust": can only be set in the agent-directory settings');
		const merged = mergeSettings(load.files);
		expect(merged.defaultProjectTrust).toBe("never");
		expect(merged.httpProxy).toBeUndefined();
	});

	test("an untrusted project contributes only sessionDir", () => {
		const { agentDir, cwd } = setup({ theme: "dark" }, { theme: "light", sessionDir: "./s", skills: ["./x"] });
		const load = loadSettingsFiles({ agentDir, cwd, projectTrusted: false });
		const project = load.files.find((f) => f.scope === "project");
		expect(project?.restricted).toBe(true);
		expect(project?.settings).toEqual({ sessionDir: "./s" });
		expect(mergeSettings(load.files)).toEqual({ theme: "dark", sessionDir: "./s" });
	});

	test("loadStartupSettings keeps its two-argument form (project loaded) and takes a trust option", () => {
		const { agentDir, cwd } = setup(undefined, { theme: "light" });
		expect(mergeSettings(loadStartupSettings(agentDir, cwd).files).theme).toBe("light");
		expect(mergeSettings(loadStartupSettings(agentDir, cwd, { projectTrusted: false }).files).theme).toBeUndefined();
	});

	test("legacy keys are migrated in memory", () => {
		expect(
			migrateSettings({
				queueMode: "all",
				websockets: true,
				skills: { enableSkillCommands: false, customDirectories: ["./s"] },
				retry: { maxDelayMs: 5, enabled: true },
			}),
		).toEqual({
			steeringMode: "all",
			transport: "websocket",
			enableSkillCommands: false,
			skills: ["./s"],
			retry: { enabled: true, provider: { maxRetryDelayMs: 5 } },
		});
		expect(migrateSettings({ websockets: false })).toEqual({ transport: "sse" });
		expect(migrateSettings({ skills: { customDirectories: [] } })).toEqual({});
	});
});

describe("merge", () => {
	test("project over global; plain objects merge at every depth; arrays and scalars replace", () => {
		const merged = mergeSettings([
			file("global", {
				theme: "dark",
				skills: ["a"],
				retry: { enabled: false, provider: { timeoutMs: 5, maxRetries: 1 } },
			}),
			file("project", { skills: ["b"], retry: { maxRetries: 9, provider: { maxRetries: 2 } } }),
		]);
		expect(merged).toEqual({
			theme: "dark",
			skills: ["b"],
			retry: { enabled: false, maxRetries: 9, provider: { timeoutMs: 5, maxRetries: 2 } },
		});
	});

	test("an object replaces a scalar and the other way round", () => {
		expect(mergeSettings([file("global", { a: 1 }), file("project", { a: { b: 1 } })]) as object).toEqual({
			a: { b: 1 },
		});
		expect(mergeSettings([file("global", { a: { b: 1 } }), file("project", { a: 2 })]) as object).toEqual({ a: 2 });
	});

	test("defaults fill what neither file sets, nested included", () => {
		const resolved = resolveSettings({ retry: { provider: { timeoutMs: 10 } } });
		expect(resolved.retry).toEqual({
			enabled: true,
			maxRetries: 3,
			baseDelayMs: 2000,
			maxAgentDelayMs: 60000,
			provider: { timeoutMs: 10, maxRetries: 0, maxRetryDelayMs: 60000 },
		});
		expect(resolved.defaultThinkingLevel).toBe("medium");
		expect(resolved.defaultModel).toBeUndefined();
	});

	test("resource paths resolve against the file's base dir, with ~ expanded", () => {
		expect(resolveSettingsPath("./x", "/base")).toBe("/base/x");
		expect(resolveSettingsPath("/abs", "/base")).toBe("/abs");
		expect(resolveSettingsPath("~/y", "/base")).toBe(join(process.env.HOME ?? "", "y"));
	});
});
