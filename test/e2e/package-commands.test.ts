/**
 * The package commands in the compiled binary, in a temp HOME, on local-path packages (no registry, no network):
 * they run before the usual argument parsing, print pi 0.87.1's messages and exit codes, and `pi install`,
 * `pi list` and `pi remove` go through the real package manager and the real settings file.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runPi } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";

const OFFLINE = {
	HTTP_PROXY: "http://127.0.0.1:9",
	HTTPS_PROXY: "http://127.0.0.1:9",
	NO_PROXY: "127.0.0.1,localhost",
};

function home(): { home: string; project: string } {
	const dir = makeTempDir("pi-e2e-pkg-");
	writeTree(dir, {
		"project/.keep": "",
		"tools/extensions/hello.ts": "export default function () {}",
		"tools/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: PDF things\n---\nUse it.",
		"tools/prompts/fix.md": "Fix it",
	});
	return { home: dir, project: join(dir, "project") };
}

describe("package commands in the binary", () => {
	test("command-line mistakes: pi's lines on stderr, exit 1, nothing written", () => {
		const { home: dir, project } = home();
		const missing = runPi(["install"], { home: dir, cwd: project, env: OFFLINE });
		expect(missing.exitCode).toBe(1);
		expect(missing.stderr.split("\n").slice(0, 2)).toEqual([
			"Missing install source.",
			"Usage: pi install <source> [-l] [--trust] [--approve|--no-approve]",
		]);
		const conflict = runPi(["update", "--all", "npm:x"], { home: dir, cwd: project, env: OFFLINE });
		expect(conflict.exitCode).toBe(1);
		expect(conflict.stderr).toContain("--all cannot be combined with a positional source");
		const help = runPi(["list", "--help"], { home: dir, cwd: project, env: OFFLINE });
		expect(help.exitCode).toBe(0);
		expect(help.stdout).toContain("pi list [--approve|--no-approve]");
		writeTree(project, { ".pi/settings.json": "{}" });
		const untrusted = runPi(["install", "../tools", "-l"], { home: dir, cwd: project, env: OFFLINE });
		expect(untrusted.exitCode).toBe(1);
		expect(untrusted.stderr.trim()).toBe("Project is not trusted. Use --approve to modify local package config.");
		expect(readFileSync(join(project, ".pi", "settings.json"), "utf8")).toBe("{}");
	});

	test("install, list and remove a local package", () => {
		const { home: dir, project } = home();
		const run = (args: string[]) => runPi(args, { home: dir, cwd: project, env: OFFLINE });
		const installed = run(["install", "../tools"]);
		expect(installed.stderr).toBe("");
		expect(installed.stdout.trim().split("\n").at(-1)).toBe("Installed ../tools");
		expect(installed.exitCode).toBe(0);
		const settings = JSON.parse(readFileSync(join(dir, ".pi", "agent", "settings.json"), "utf8"));
		expect(settings.packages).toHaveLength(1);
		const source = settings.packages[0] as string;
		const listed = run(["list"]);
		expect(listed.exitCode).toBe(0);
		expect(listed.stdout.split("\n")).toEqual([
			"User packages:",
			`  ${source}`,
			`    ${join(dir, "tools")}`,
			"    provides 1 extension (hello), 1 skill (pdf), 1 prompt template (fix)",
			"",
		]);
		const removed = run(["remove", "../tools"]);
		expect(removed.stdout.trim()).toBe("Removed ../tools");
		expect(removed.exitCode).toBe(0);
		expect(run(["list"]).stdout).toBe("No packages installed.\n");
		const again = run(["uninstall", "../tools"]);
		expect(again.exitCode).toBe(1);
		expect(again.stderr.trim()).toBe("No matching package found for ../tools");
		// A plain word that is not a command is still a prompt, not a package command.
		expect(run(["--help"]).stdout).toContain("Usage");
	});
});
