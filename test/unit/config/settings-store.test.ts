import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { agentPaths, projectPaths, SettingsStore } from "../../../src/config/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

function store(projectTrusted = true, global?: string, project?: string) {
	const agentDir = makeTempDir();
	const cwd = makeTempDir();
	if (global !== undefined) writeTree(agentDir, { "settings.json": global });
	if (project !== undefined) writeTree(cwd, { ".pi/settings.json": project });
	return { s: new SettingsStore({ agentDir, cwd, projectTrusted }), agentDir, cwd };
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("SettingsStore", () => {
	test("set creates the file and folder, and the store sees the new value", async () => {
		const { s, agentDir } = store();
		await s.set("global", "compaction.reserveTokens", 1000);
		expect(readJson(agentPaths.settings(agentDir))).toEqual({ compaction: { reserveTokens: 1000 } });
		expect(s.resolved.compaction).toEqual({ enabled: true, reserveTokens: 1000, keepRecentTokens: 20000 });
	});

	test("a write changes only the key written: unknown and invalid keys stay as they are", async () => {
		const original = { mine: [1, 2], quietStartup: "yes", compaction: { keepRecentTokens: "x", enabled: true } };
		const { s, agentDir } = store(true, JSON.stringify(original));
		expect(s.diagnostics).toHaveLength(2);
		await s.set("global", "compaction.reserveTokens", 5);
		expect(readJson(agentPaths.settings(agentDir))).toEqual({
			...original,
			compaction: { keepRecentTokens: "x", enabled: true, reserveTokens: 5 },
		});
	});

	test("the file is re-read under the lock: edits made since loading are kept", async () => {
		const { s, agentDir } = store(true, "{}");
		writeFileSync(agentPaths.settings(agentDir), JSON.stringify({ theme: "light" }));
		await s.set("global", "quietStartup", true);
		expect(readJson(agentPaths.settings(agentDir))).toEqual({ theme: "light", quietStartup: true });
	});

	test("a write to a file holding invalid JSON is refused and the file is left alone", async () => {
		const { s, agentDir } = store(true, "{ not json");
		expect(s.diagnostics[0]).toContain("invalid JSON");
		await expect(s.set("global", "theme", "dark")).rejects.toThrow(
			/settings\.json: invalid JSON at line 1, column 3 .*not writing/,
		);
		expect(readFileSync(agentPaths.settings(agentDir), "utf8")).toBe("{ not json");
	});

	test("a value of the wrong type is refused before anything is written", async () => {
		const { s, agentDir } = store();
		await expect(s.set("global", "retry.maxRetries", "three")).rejects.toThrow(
			'Cannot set "retry.maxRetries" in ' + agentPaths.settings(agentDir) + ": expected a non-negative integer",
		);
		expect(existsSync(agentPaths.settings(agentDir))).toBe(false);
	});

	test("undefined removes a key; array key paths allow dots inside keys", async () => {
		const { s, agentDir } = store(true, JSON.stringify({ theme: "dark" }));
		await s.set("global", ["modelThinkingLevels", "openai/gpt-4.1"], "high");
		await s.set("global", "theme", undefined);
		expect(readJson(agentPaths.settings(agentDir))).toEqual({ modelThinkingLevels: { "openai/gpt-4.1": "high" } });
	});

	test("project writes go to .pi/settings.json and win in the merge", async () => {
		const { s, cwd } = store(true, JSON.stringify({ theme: "dark" }));
		await s.set("project", "theme", "light");
		expect(readJson(projectPaths.settings(cwd))).toEqual({ theme: "light" });
		expect(s.merged.theme).toBe("light");
		expect(s.getScope("global").theme).toBe("dark");
	});

	test("project writes are refused while the project is untrusted, and global-only keys never go there", async () => {
		const untrusted = store(false);
		await expect(untrusted.s.set("project", "theme", "x")).rejects.toThrow("the project is not trusted");
		const trusted = store(true);
		await expect(trusted.s.set("project", "httpProxy", "http://p")).rejects.toThrow("agent-directory settings");
	});

	test("setProjectTrusted re-reads the project file", () => {
		const { s } = store(false, undefined, JSON.stringify({ theme: "light", sessionDir: "s" }));
		expect(s.merged).toEqual({ sessionDir: "s" });
		s.setProjectTrusted(true);
		expect(s.merged).toEqual({ theme: "light", sessionDir: "s" });
	});

	test("update edits the raw content; a change that breaks the schema aborts the write", async () => {
		const { s, agentDir } = store(true, JSON.stringify({ skills: ["a"], bad: 1, quietStartup: "yes" }));
		await s.update("global", (data) => {
			(data.skills as string[]).push("b");
		});
		expect(readJson(agentPaths.settings(agentDir))).toEqual({ skills: ["a", "b"], bad: 1, quietStartup: "yes" });
		await expect(
			s.update("global", (data) => {
				data.skills = "c";
			}),
		).rejects.toThrow('Cannot set "skills"');
		expect(readJson(agentPaths.settings(agentDir)).skills).toEqual(["a", "b"]);
	});

	test("concurrent writes from one process all land", async () => {
		const { s, agentDir } = store();
		await Promise.all(Array.from({ length: 20 }, (_, i) => s.set("global", `k${i}`, i)));
		expect(Object.keys(readJson(agentPaths.settings(agentDir)))).toHaveLength(20);
	});
});

describe("atomic writes", () => {
	test("the file's permissions survive a write and no temp files are left", async () => {
		const { s, agentDir } = store(true, "{}");
		chmodSync(agentPaths.settings(agentDir), 0o600);
		await s.set("global", "theme", "dark");
		expect(statSync(agentPaths.settings(agentDir)).mode & 0o777).toBe(0o600);
		expect(readdirSync(agentDir)).toEqual(["settings.json"]);
	});
});
