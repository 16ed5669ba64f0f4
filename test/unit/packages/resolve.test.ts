import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { SettingsFile } from "../../../src/config/index.ts";
import {
	type ConfiguredPackage,
	configuredPackages,
	dedupePackages,
	installedPath,
	type PackageInstaller,
	type PackageScope,
	type PackageSource,
	packageResourcesOf,
	resolvePackages,
} from "../../../src/packages/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const EXT = "export default function () {}\n";
const SKILL = (name: string) => `---\nname: ${name}\ndescription: d\n---\nbody\n`;

/** A package with conventional folders: two extensions, two skills, two prompts, one theme. */
function conventional(root: string): void {
	writeTree(root, {
		"extensions/a.ts": EXT,
		"extensions/legacy.ts": EXT,
		"skills/pdf/SKILL.md": SKILL("pdf"),
		"skills/web/SKILL.md": SKILL("web"),
		"prompts/review.md": "review",
		"prompts/fix.md": "fix",
		"themes/dark.json": "{}",
	});
}

function settingsFile(scope: "global" | "project", baseDir: string, packages: unknown[]): SettingsFile {
	return { scope, path: join(baseDir, "settings.json"), baseDir, settings: { packages } as never };
}

function dirs() {
	const root = makeTempDir("pi-pkg-resolve-");
	const agentDir = join(root, "agent");
	const cwd = join(root, "project");
	mkdirSync(join(cwd, ".pi"), { recursive: true });
	mkdirSync(agentDir, { recursive: true });
	return { root, agentDir, cwd, projectBase: join(cwd, ".pi") };
}

const names = (files: { path: string }[], root: string) => files.map((f) => f.path.slice(root.length + 1));

describe("configuredPackages", () => {
	test("reads string and object forms, user file first, restricted project files hold none", () => {
		const d = dirs();
		const files = [
			settingsFile("project", d.projectBase, ["./p", { source: "npm:x", skills: [], autoload: false, extra: 1 }]),
			settingsFile("global", d.agentDir, ["npm:a", { source: "git:h/o/r", prompts: ["p/*.md"] }, 7]),
		];
		expect(configuredPackages(files)).toEqual([
			{ source: "npm:a", scope: "user", baseDir: d.agentDir },
			{ source: "git:h/o/r", scope: "user", filters: { prompts: ["p/*.md"] }, baseDir: d.agentDir },
			{ source: "./p", scope: "project", baseDir: d.projectBase },
			{ source: "npm:x", scope: "project", filters: { skills: [] }, autoload: false, baseDir: d.projectBase },
		]);
		expect(configuredPackages([{ ...files[0], restricted: true } as SettingsFile])).toEqual([]);
	});
});

describe("dedupePackages", () => {
	const user = (source: string): ConfiguredPackage => ({ source, scope: "user", baseDir: "/agent" });
	const project = (source: string, more: Partial<ConfiguredPackage> = {}): ConfiguredPackage => ({
		source,
		scope: "project",
		baseDir: "/cwd/.pi",
		...more,
	});
	test("project replaces user for one identity (any spelling); order is project first", () => {
		const { entries } = dedupePackages([
			user("npm:a@1"),
			user("https://github.com/o/r"),
			user("npm:b"),
			project("npm:a@2"),
			project("git@github.com:o/r@v3"),
		]);
		expect(entries.map((e) => `${e.scope}:${e.source}`)).toEqual([
			"project:npm:a@2",
			"project:git@github.com:o/r@v3",
			"user:npm:b",
		]);
	});
	test("an autoload:false project entry is a delta kept in front of the user entry", () => {
		const { entries } = dedupePackages([user("npm:a"), project("npm:a", { autoload: false, skills: [] } as never)]);
		expect(entries.map((e) => e.scope)).toEqual(["project", "user"]);
	});
	test("duplicates within one scope: the first user entry stays, a later project entry wins", () => {
		const { entries } = dedupePackages([user("npm:a@1"), user("npm:a@2"), project("npm:a@3"), project("npm:a@4")]);
		expect(entries.map((e) => e.source)).toEqual(["npm:a@4"]);
	});
	test("local identities resolve against each file's folder; bad sources are one line each", () => {
		const { entries, diagnostics } = dedupePackages([
			{ source: "./pkg", scope: "user", baseDir: "/x" },
			{ source: "../pkg", scope: "project", baseDir: "/x/.pi" },
			user("npm:foo;rm"),
		]);
		expect(entries.map((e) => e.scope)).toEqual(["project"]);
		expect(diagnostics).toHaveLength(1);
		expect(diagnostics[0]).toContain('user settings "packages": Invalid package source "npm:foo;rm"');
	});
});

describe("packageResourcesOf", () => {
	test("no filters: everything declared; [] none; globs, !, +, -", () => {
		const root = join(makeTempDir("pi-pkg-res-"), "pkg");
		conventional(root);
		const all = packageResourcesOf(root);
		expect(names(all.resources.extensions, root)).toEqual(["extensions/a.ts", "extensions/legacy.ts"]);
		expect(
			names(
				all.resources.skills.map((path) => ({ path })),
				root,
			),
		).toEqual(["skills/pdf/SKILL.md", "skills/web/SKILL.md"]);
		const filtered = packageResourcesOf(root, {
			extensions: ["extensions/*.ts", "!extensions/legacy.ts"],
			skills: [],
			prompts: ["prompts/review.md"],
			themes: ["!**/*.json", "+themes/dark.json"],
		});
		expect(names(filtered.resources.extensions, root)).toEqual(["extensions/a.ts"]);
		expect(filtered.resources.skills).toEqual([]);
		expect(filtered.resources.prompts).toEqual([join(root, "prompts/review.md")]);
		expect(filtered.resources.themes).toEqual([join(root, "themes/dark.json")]);
		// The listing keeps what is disabled, for pi list / pi config.
		expect(filtered.listing.skills.map((s) => s.enabled)).toEqual([false, false]);
		expect(filtered.listing.extensions.map((s) => s.enabled)).toEqual([true, false]);
		const minus = packageResourcesOf(root, { skills: ["-skills/pdf"], prompts: ["-prompts/fix.md"] });
		expect(minus.resources.skills).toEqual([join(root, "skills/web/SKILL.md")]);
		expect(minus.resources.prompts).toEqual([join(root, "prompts/review.md")]);
	});
	test("filters never expose what the package did not declare", () => {
		const root = join(makeTempDir("pi-pkg-res-"), "pkg");
		conventional(root);
		writeTree(root, {
			"package.json": JSON.stringify({ pi: { extensions: ["./extensions/a.ts"], prompts: ["./prompts/review.md"] } }),
			"other/hidden.md": "x",
		});
		const read = packageResourcesOf(root, {
			extensions: ["extensions/*.ts", "+extensions/legacy.ts"],
			prompts: ["**/*.md", "+other/hidden.md", "+prompts/fix.md"],
			skills: ["skills/*"],
		});
		expect(names(read.resources.extensions, root)).toEqual(["extensions/a.ts"]);
		expect(read.resources.prompts).toEqual([join(root, "prompts/review.md")]);
		// The manifest lists no skills: as in pi, the object form reads them from the conventional skills/ folder.
		expect(read.resources.skills).toEqual([join(root, "skills/pdf/SKILL.md"), join(root, "skills/web/SKILL.md")]);
	});
	test("a delta gives a state only to what its patterns name", () => {
		const root = join(makeTempDir("pi-pkg-res-"), "pkg");
		conventional(root);
		const delta = packageResourcesOf(root, { prompts: ["-prompts/fix.md"], skills: ["skills/web"] }, { delta: true });
		expect(delta.listing.prompts).toEqual([{ path: join(root, "prompts/fix.md"), enabled: false }]);
		expect(delta.listing.skills).toEqual([{ path: join(root, "skills/web/SKILL.md"), enabled: true }]);
		expect(delta.listing.extensions).toEqual([]);
	});
	test("a local folder without manifest or folders is one extension; an installed one is not", () => {
		const root = join(makeTempDir("pi-pkg-res-"), "pkg");
		writeTree(root, { "index.ts": EXT });
		expect(packageResourcesOf(root, undefined, { local: true }).resources.extensions).toEqual([
			{ path: root, file: join(root, "index.ts") },
		]);
		const installed = packageResourcesOf(root);
		expect(installed.resources.extensions).toEqual([]);
		expect(installed.diagnostics).toEqual([]);
	});
	test("a corrupt package.json or a manifest naming missing files is one line; the rest loads", () => {
		const root = join(makeTempDir("pi-pkg-res-"), "pkg");
		conventional(root);
		writeTree(root, { "package.json": "{ not json" });
		const corrupt = packageResourcesOf(root);
		expect(corrupt.diagnostics).toHaveLength(1);
		expect(corrupt.diagnostics[0]?.message).toContain("invalid JSON");
		expect(corrupt.resources.prompts).toHaveLength(2);
		writeTree(root, {
			"package.json": JSON.stringify({ pi: { extensions: ["./missing.ts"], prompts: ["./prompts"] } }),
		});
		const missing = packageResourcesOf(root);
		expect(missing.resources.prompts).toHaveLength(2);
		expect(missing.diagnostics.map((d) => d.message)).toEqual([
			'pi.extensions names "./missing.ts", which does not exist',
		]);
	});
	test("a dependency on a host package warns", () => {
		const root = join(makeTempDir("pi-pkg-res-"), "pkg");
		conventional(root);
		writeTree(root, { "package.json": JSON.stringify({ dependencies: { typebox: "1", chalk: "5" } }) });
		const read = packageResourcesOf(root, undefined, { isHostPackage: (n) => n === "typebox" });
		expect(read.diagnostics).toHaveLength(1);
		expect(read.diagnostics[0]?.message).toContain('"typebox" is provided by pi');
	});
});

/** A fake installer that "installs" by writing a prepared package where the real one would put it. */
function fakeInstaller(d: { agentDir: string; cwd: string }, calls: string[], fail?: string): PackageInstaller {
	return {
		async ensureInstalled(source: PackageSource, scope: PackageScope) {
			calls.push(`${scope}:${source.raw}`);
			if (fail) throw new Error(fail);
			const path = installedPath(source, scope, d);
			conventional(path);
			writeTree(path, { "package.json": JSON.stringify({ name: "x", version: "1.0.0" }) });
			return path;
		},
	};
}

describe("resolvePackages", () => {
	test("local packages: relative to their settings file, a file is one extension, project entries first", async () => {
		const d = dirs();
		conventional(join(d.agentDir, "pkgs", "u"));
		conventional(join(d.cwd, "p"));
		writeTree(d.root, { "one.ts": EXT });
		const entries = configuredPackages([
			settingsFile("global", d.agentDir, ["./pkgs/u", "../one.ts"]),
			settingsFile("project", d.projectBase, [{ source: "../p", extensions: [], skills: ["skills/pdf"] }]),
		]);
		const result = await resolvePackages(entries, { agentDir: d.agentDir, cwd: d.cwd });
		expect(result.diagnostics).toEqual([]);
		expect(result.extensions.map((e) => [e.path, e.scope, e.source, e.baseDir])).toEqual([
			[join(d.agentDir, "pkgs/u/extensions/a.ts"), "user", "./pkgs/u", join(d.agentDir, "pkgs/u")],
			[join(d.agentDir, "pkgs/u/extensions/legacy.ts"), "user", "./pkgs/u", join(d.agentDir, "pkgs/u")],
			[join(d.root, "one.ts"), "user", "../one.ts", d.root],
		]);
		expect(result.skills.map((s) => [s.path, s.scope])).toEqual([
			[join(d.cwd, "p/skills/pdf/SKILL.md"), "project"],
			[join(d.agentDir, "pkgs/u/skills/pdf/SKILL.md"), "user"],
			[join(d.agentDir, "pkgs/u/skills/web/SKILL.md"), "user"],
		]);
		expect(result.packages.map((p) => p.identity)).toEqual([
			`local:${join(d.cwd, "p")}`,
			`local:${join(d.agentDir, "pkgs/u")}`,
			`local:${join(d.root, "one.ts")}`,
		]);
	});
	test("installed npm packages load without the installer; missing ones install once, then are found", async () => {
		const d = dirs();
		const calls: string[] = [];
		const entries = configuredPackages([settingsFile("global", d.agentDir, ["npm:tools", "git:github.com/o/r@v1"])]);
		const options = { agentDir: d.agentDir, cwd: d.cwd, installer: async () => fakeInstaller(d, calls) };
		const first = await resolvePackages(entries, options);
		expect(calls).toEqual(["user:npm:tools", "user:git:github.com/o/r@v1"]);
		expect(first.prompts.map((p) => p.baseDir)).toEqual([
			join(d.agentDir, "npm/node_modules/tools"),
			join(d.agentDir, "npm/node_modules/tools"),
			join(d.agentDir, "git/github.com/o/r"),
			join(d.agentDir, "git/github.com/o/r"),
		]);
		const second = await resolvePackages(entries, options);
		expect(calls).toHaveLength(2);
		expect(second.prompts).toEqual(first.prompts);
	});
	test("a pinned npm version that differs from the installed one is installed again", async () => {
		const d = dirs();
		const calls: string[] = [];
		const path = join(d.agentDir, "npm/node_modules/tools");
		conventional(path);
		writeTree(path, { "package.json": JSON.stringify({ name: "tools", version: "0.9.0" }) });
		const entries = configuredPackages([settingsFile("global", d.agentDir, ["npm:tools@1.0.0"])]);
		await resolvePackages(entries, {
			agentDir: d.agentDir,
			cwd: d.cwd,
			installer: async () => fakeInstaller(d, calls),
		});
		expect(calls).toEqual(["user:npm:tools@1.0.0"]);
	});
	test("offline: a missing package is skipped with one line, nothing is installed", async () => {
		const d = dirs();
		const calls: string[] = [];
		const entries = configuredPackages([settingsFile("global", d.agentDir, ["npm:tools", "./nope"])]);
		const result = await resolvePackages(entries, {
			agentDir: d.agentDir,
			cwd: d.cwd,
			installer: async () => fakeInstaller(d, calls),
			env: { PI_OFFLINE: "1" },
		});
		expect(calls).toEqual([]);
		expect(result.diagnostics).toEqual([
			"package npm:tools: not installed and PI_OFFLINE is set; skipped",
			`package ./nope: ${join(d.agentDir, "nope")} does not exist`,
		]);
	});
	test("an install failure is one line and the other packages load", async () => {
		const d = dirs();
		conventional(join(d.agentDir, "local"));
		const entries = configuredPackages([settingsFile("global", d.agentDir, ["npm:tools", "./local"])]);
		const result = await resolvePackages(entries, {
			agentDir: d.agentDir,
			cwd: d.cwd,
			installer: async () => fakeInstaller(d, [], "npm:tools: not found in the registry"),
		});
		expect(result.diagnostics).toEqual(["package npm:tools: npm:tools: not found in the registry"]);
		expect(result.prompts).toHaveLength(2);
	});
	test("a second pass with the same memo neither installs nor reports a package again", async () => {
		const d = dirs();
		const calls: string[] = [];
		const entries = configuredPackages([settingsFile("global", d.agentDir, ["npm:tools"])]);
		const options = {
			agentDir: d.agentDir,
			cwd: d.cwd,
			installer: async () => fakeInstaller(d, calls, "registry down"),
			located: new Map<string, string | undefined>(),
		};
		const first = await resolvePackages(entries, options);
		const second = await resolvePackages(entries, options);
		expect(calls).toEqual(["user:npm:tools"]);
		expect(first.diagnostics).toEqual(["package npm:tools: registry down"]);
		expect(second.diagnostics).toEqual([]);
	});
	test("a project entry replaces the user entry (its filters, its scope, its installation)", async () => {
		const d = dirs();
		const calls: string[] = [];
		const entries = configuredPackages([
			settingsFile("global", d.agentDir, ["npm:tools"]),
			settingsFile("project", d.projectBase, [{ source: "npm:tools", prompts: ["prompts/fix.md"] }]),
		]);
		const result = await resolvePackages(entries, {
			agentDir: d.agentDir,
			cwd: d.cwd,
			installer: async () => fakeInstaller(d, calls),
		});
		expect(calls).toEqual(["project:npm:tools"]);
		expect(result.prompts.map((p) => [p.path.endsWith("fix.md"), p.scope])).toEqual([[true, "project"]]);
		expect(result.extensions).toHaveLength(2);
	});
	test("an autoload:false project entry filters the user's installation", async () => {
		const d = dirs();
		const calls: string[] = [];
		const entries = configuredPackages([
			settingsFile("global", d.agentDir, [{ source: "npm:tools", skills: [] }]),
			settingsFile("project", d.projectBase, [
				{ source: "npm:tools@2", autoload: false, prompts: ["-prompts/fix.md"], skills: ["skills/web"] },
			]),
		]);
		const result = await resolvePackages(entries, {
			agentDir: d.agentDir,
			cwd: d.cwd,
			installer: async () => fakeInstaller(d, calls),
		});
		expect(calls).toEqual(["user:npm:tools"]);
		const user = join(d.agentDir, "npm/node_modules/tools");
		expect(result.prompts.map((p) => [p.path, p.scope])).toEqual([[join(user, "prompts/review.md"), "user"]]);
		expect(result.skills.map((p) => [p.path, p.scope, p.source])).toEqual([
			[join(user, "skills/web/SKILL.md"), "project", "npm:tools@2"],
		]);
		expect(result.extensions.map((e) => e.scope)).toEqual(["user", "user"]);
	});
	test("an autoload:false project entry without a user entry loads only what it names", async () => {
		const d = dirs();
		conventional(join(d.cwd, "p"));
		const entries = configuredPackages([
			settingsFile("project", d.projectBase, [{ source: "../p", autoload: false, prompts: ["prompts/fix.md"] }]),
		]);
		const result = await resolvePackages(entries, { agentDir: d.agentDir, cwd: d.cwd });
		expect(result.prompts.map((p) => p.path)).toEqual([join(d.cwd, "p/prompts/fix.md")]);
		expect(result.extensions).toEqual([]);
		expect(result.skills).toEqual([]);
	});
	test("temporary packages install into the cache scope", async () => {
		const d = dirs();
		const calls: string[] = [];
		const result = await resolvePackages([{ source: "npm:tools", scope: "temporary", baseDir: d.cwd }], {
			agentDir: d.agentDir,
			cwd: d.cwd,
			installer: async () => fakeInstaller(d, calls),
		});
		expect(calls).toEqual(["temporary:npm:tools"]);
		expect(result.extensions[0]?.baseDir).toBe(join(d.agentDir, "cache/packages/npm/node_modules/tools"));
	});
	test("50 installed packages resolve without installing anything", async () => {
		const d = dirs();
		const sources: string[] = [];
		for (let i = 0; i < 50; i++) {
			const path = join(d.agentDir, "npm/node_modules", `p${i}`);
			conventional(path);
			writeTree(path, {
				"package.json": JSON.stringify({
					name: `p${i}`,
					version: "1.0.0",
					pi: { extensions: ["./extensions"], prompts: ["./prompts"] },
				}),
			});
			sources.push(`npm:p${i}@1.0.0`);
		}
		const entries = configuredPackages([settingsFile("global", d.agentDir, sources)]);
		const options = {
			agentDir: d.agentDir,
			cwd: d.cwd,
			installer: async () => {
				throw new Error("no install expected");
			},
		};
		// The speed is measured side by side in scripts/bench/packages.ts; here only the outcome counts.
		const result = await resolvePackages(entries, options);
		expect(result.diagnostics).toEqual([]);
		expect(result.extensions).toHaveLength(100);
	});
});
