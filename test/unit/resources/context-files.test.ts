import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { contextFileIn, loadContextFiles, loadSystemPromptFiles } from "../../../src/resources/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

function world() {
	const root = makeTempDir();
	const agentDir = join(root, "agent");
	const cwd = join(root, "a", "b", "c");
	mkdirSync(cwd, { recursive: true });
	mkdirSync(agentDir, { recursive: true });
	return { root, agentDir, cwd };
}

describe("context files", () => {
	test("agent dir first, then every folder from the root down to cwd", () => {
		const w = world();
		writeTree(w.agentDir, { "AGENTS.md": "global" });
		writeTree(w.root, { "a/AGENTS.md": "a", "a/b/c/AGENTS.md": "c", "AGENTS.md": "root" });
		const files = loadContextFiles({ cwd: w.cwd, agentDir: w.agentDir });
		expect(files.map((f) => f.content)).toEqual(["global", "root", "a", "c"]);
		expect(files[0]?.path).toBe(join(w.agentDir, "AGENTS.md"));
	});

	test("CLAUDE.md only where there is no AGENTS.md; AGENTS.override.md shadows both in its folder", () => {
		const w = world();
		writeTree(w.root, {
			"a/CLAUDE.md": "claude a",
			"a/b/AGENTS.md": "agents b",
			"a/b/CLAUDE.md": "claude b",
			"a/b/c/AGENTS.override.md": "override c",
			"a/b/c/AGENTS.md": "agents c",
		});
		const contents = loadContextFiles({ cwd: w.cwd, agentDir: w.agentDir }).map((f) => f.content);
		expect(contents).toEqual(["claude a", "agents b", "override c"]);
		expect(contextFileIn(join(w.root, "a"))).toBe(join(w.root, "a", "CLAUDE.md"));
		expect(contextFileIn(w.agentDir)).toBeUndefined();
	});

	test("a folder reached twice (agent dir inside the tree) is read once", () => {
		const w = world();
		writeTree(w.cwd, { "AGENTS.md": "here" });
		expect(loadContextFiles({ cwd: w.cwd, agentDir: w.cwd }).map((f) => f.content)).toEqual(["here"]);
	});

	test("noContextFiles returns none", () => {
		const w = world();
		writeTree(w.cwd, { "AGENTS.md": "here" });
		expect(loadContextFiles({ cwd: w.cwd, agentDir: w.agentDir, noContextFiles: true })).toEqual([]);
	});
});

describe("SYSTEM.md and APPEND_SYSTEM.md", () => {
	test("the project file wins over the agent-dir one when trusted", () => {
		const w = world();
		writeTree(w.agentDir, { "SYSTEM.md": "global system", "APPEND_SYSTEM.md": "global append" });
		writeTree(w.cwd, { ".pi/SYSTEM.md": "project system" });
		const files = loadSystemPromptFiles({ cwd: w.cwd, agentDir: w.agentDir, projectTrusted: true });
		expect(files).toEqual({
			systemPrompt: { path: join(w.cwd, ".pi/SYSTEM.md"), content: "project system" },
			appendSystemPrompt: { path: join(w.agentDir, "APPEND_SYSTEM.md"), content: "global append" },
		});
	});

	test("untrusted projects fall back to the agent-dir files", () => {
		const w = world();
		writeTree(w.agentDir, { "SYSTEM.md": "global system" });
		writeTree(w.cwd, { ".pi/SYSTEM.md": "project system", ".pi/APPEND_SYSTEM.md": "project append" });
		expect(loadSystemPromptFiles({ cwd: w.cwd, agentDir: w.agentDir, projectTrusted: false })).toEqual({
			systemPrompt: { path: join(w.agentDir, "SYSTEM.md"), content: "global system" },
		});
	});

	test("none present → empty", () => {
		const w = world();
		expect(loadSystemPromptFiles({ cwd: w.cwd, agentDir: w.agentDir, projectTrusted: true })).toEqual({});
	});
});
