import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { type DiscoveryOptions, discoverExtensions } from "../../../src/extensions/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const F = "export default function () {}\n";

function setup() {
	const root = makeTempDir();
	const options = (over: Partial<DiscoveryOptions> = {}): DiscoveryOptions => ({
		cwd: join(root, "cwd"),
		globalDir: join(root, "agent/extensions"),
		projectDir: join(root, "cwd/.pi/extensions"),
		settingsPaths: [],
		cliPaths: [],
		noDiscovery: false,
		isHostPackage: (name) => name === "typebox",
		...over,
	});
	mkdirSync(join(root, "cwd"), { recursive: true });
	return { root, options, rel: (p: string) => p.slice(root.length + 1) };
}

describe("extension discovery", () => {
	test("one level deep: files, index folders, manifest folders; sorted; .d.ts and other files skipped", () => {
		const { root, options, rel } = setup();
		writeTree(root, {
			"agent/extensions/b.ts": F,
			"agent/extensions/a.js": F,
			"agent/extensions/types.d.ts": "",
			"agent/extensions/notes.md": "",
			"agent/extensions/.hidden.ts": F,
			"agent/extensions/dir/index.ts": F,
			"agent/extensions/dir/other.ts": F,
			"agent/extensions/pkg/package.json": JSON.stringify({ pi: { extensions: ["./src/main.ts", "./src/more/*.ts"] } }),
			"agent/extensions/pkg/src/main.ts": F,
			"agent/extensions/pkg/src/more/x.ts": F,
			"agent/extensions/pkg/index.ts": F,
			"agent/extensions/empty/readme.md": "",
			"agent/extensions/deep/nested/index.ts": F,
		});
		const { entries, diagnostics } = discoverExtensions(options());
		expect(entries.map((e) => rel(e.path))).toEqual([
			"agent/extensions/a.js",
			"agent/extensions/b.ts",
			"agent/extensions/dir/index.ts",
			"agent/extensions/pkg/src/main.ts",
			"agent/extensions/pkg/src/more/x.ts",
		]);
		expect(entries.every((e) => e.scope === "global")).toBe(true);
		expect(diagnostics).toEqual([]);
	});

	test("order is global → project → settings → cli, and duplicates keep their first place", () => {
		const { root, options, rel } = setup();
		writeTree(root, {
			"agent/extensions/g.ts": F,
			"cwd/.pi/extensions/p.ts": F,
			"elsewhere/s.ts": F,
			"cwd/c.ts": F,
		});
		symlinkSync(join(root, "agent/extensions/g.ts"), join(root, "cwd/link-to-g.ts"));
		const { entries } = discoverExtensions(
			options({
				settingsPaths: [join(root, "elsewhere/s.ts"), join(root, "agent/extensions/g.ts")],
				cliPaths: ["./c.ts", "link-to-g.ts", "./c.ts"],
			}),
		);
		expect(entries.map((e) => [rel(e.path), e.scope])).toEqual([
			["agent/extensions/g.ts", "global"],
			["cwd/.pi/extensions/p.ts", "project"],
			["elsewhere/s.ts", "settings"],
			["cwd/c.ts", "cli"],
		]);
	});

	test("--no-extensions keeps only -e paths", () => {
		const { root, options, rel } = setup();
		writeTree(root, { "agent/extensions/g.ts": F, "cwd/.pi/extensions/p.ts": F, "s.ts": F, "cwd/c.ts": F });
		const { entries } = discoverExtensions(
			options({ noDiscovery: true, settingsPaths: [join(root, "s.ts")], cliPaths: ["c.ts"] }),
		);
		expect(entries.map((e) => rel(e.path))).toEqual(["cwd/c.ts"]);
	});

	test("~ in -e paths expands to HOME", () => {
		const { root, options, rel } = setup();
		writeTree(root, { "home/x.ts": F });
		const saved = process.env.HOME;
		process.env.HOME = join(root, "home");
		try {
			expect(discoverExtensions(options({ cliPaths: ["~/x.ts"] })).entries.map((e) => rel(e.path))).toEqual([
				"home/x.ts",
			]);
		} finally {
			process.env.HOME = saved;
		}
	});

	test("-e <folder> follows pi's package rules: manifest, else conventional folders, else the folder itself", () => {
		const { root, options, rel } = setup();
		writeTree(root, {
			"one/index.ts": F,
			"conv/extensions/a.ts": F,
			"conv/extensions/b/index.ts": F,
			"conv/extensions/types.d.ts": "",
			"conv/index.ts": F,
			"conv/prompts/p1.md": "x",
			"conv/prompts/deep/p2.md": "x",
			"conv/skills/s1/SKILL.md": "x",
			"conv/skills/loose.md": "x",
			"conv/skills/s2/notes.md": "x",
			"conv/themes/t.json": "{}",
			// pi's subagent example: an index.ts, but also a prompts/ folder, so only the prompts load
			"sub/index.ts": F,
			"sub/agents/scout.md": "x",
			"sub/prompts/implement.md": "x",
			"man/package.json": JSON.stringify({
				pi: { extensions: ["./src/main.ts"], prompts: ["./res/prompts"], skills: ["res/skills/*", "!res/skills/old"] },
			}),
			"man/src/main.ts": F,
			"man/index.ts": F,
			"man/res/prompts/r.md": "x",
			"man/res/skills/new/SKILL.md": "x",
			"man/res/skills/old/SKILL.md": "x",
			"man/extensions/ignored.ts": F,
			"empty-manifest/package.json": JSON.stringify({ name: "x", pi: {} }),
			"empty-manifest/index.ts": F,
			"main-field/package.json": JSON.stringify({ main: "lib/start.js" }),
			"main-field/lib/start.js": F,
			"flat/x.ts": F,
		});
		const dirs = ["one", "conv", "sub", "man", "empty-manifest", "main-field", "flat"];
		const { entries, resources, diagnostics } = discoverExtensions(
			options({ cliPaths: dirs.map((d) => join(root, d)) }),
		);
		expect(entries.map((e) => [rel(e.path), e.file ? rel(e.file) : undefined])).toEqual([
			["one", "one/index.ts"],
			["conv/extensions/a.ts", undefined],
			["conv/extensions/b/index.ts", undefined],
			["man/src/main.ts", undefined],
			["main-field", "main-field/lib/start.js"],
		]);
		expect(entries.every((e) => e.scope === "cli")).toBe(true);
		const files = (list: { path: string; source: string; baseDir: string }[]) =>
			list.map((r) => `${rel(r.path)} from ${rel(r.source)} in ${rel(r.baseDir)}`);
		expect(files(resources.prompts)).toEqual([
			"conv/prompts/deep/p2.md from conv in conv",
			"conv/prompts/p1.md from conv in conv",
			"sub/prompts/implement.md from sub in sub",
			"man/res/prompts/r.md from man in man",
		]);
		expect(files(resources.skills)).toEqual([
			"conv/skills/loose.md from conv in conv",
			"conv/skills/s1/SKILL.md from conv in conv",
			"man/res/skills/new/SKILL.md from man in man",
		]);
		expect(files(resources.themes)).toEqual(["conv/themes/t.json from conv in conv"]);
		expect(diagnostics.map((d) => `${rel(d.path)}: ${d.message}`)).toEqual([
			"flat: is not an extension package: no package.json `pi` manifest, no extensions/, skills/, prompts/ or themes/ folder, and no index.ts or index.js",
		]);
	});

	test("a folder named in settings is a folder of extensions (no conventional extensions/ lookup)", () => {
		const { root, options, rel } = setup();
		writeTree(root, { "s/a.ts": F, "s/b/index.ts": F, "s/extensions/c.ts": F, "s/prompts/p.md": "x" });
		const { entries, resources } = discoverExtensions(options({ settingsPaths: [join(root, "s")] }));
		expect(entries.map((e) => rel(e.path))).toEqual(["s/a.ts", "s/b/index.ts"]);
		expect(resources.prompts).toEqual([]);
	});

	test("a folder of extensions that is itself an extension folder yields only its own entry", () => {
		const { root, options, rel } = setup();
		writeTree(root, { "agent/extensions/index.ts": F, "agent/extensions/other.ts": F });
		expect(discoverExtensions(options()).entries.map((e) => rel(e.path))).toEqual(["agent/extensions/index.ts"]);
	});

	test("paths are reported as given; a symlink is not resolved", () => {
		const { root, options, rel } = setup();
		writeTree(root, { "real/x.ts": F });
		symlinkSync(join(root, "real"), join(root, "cwd/link"));
		expect(discoverExtensions(options({ cliPaths: ["link/x.ts"] })).entries.map((e) => rel(e.path))).toEqual([
			"cwd/link/x.ts",
		]);
	});

	test("problems become diagnostics naming the path", () => {
		const { root, options } = setup();
		writeTree(root, {
			"agent/extensions/broken/package.json": "{ not json",
			"agent/extensions/wrong/package.json": JSON.stringify({ pi: { extensions: "index.ts" } }),
			"agent/extensions/gone/package.json": JSON.stringify({ pi: { extensions: ["./missing.ts"] } }),
			"agent/extensions/host/package.json": JSON.stringify({
				dependencies: { typebox: "1" },
				pi: { extensions: ["i.ts"] },
			}),
			"agent/extensions/host/i.ts": F,
			"readme.md": "",
		});
		const { entries, diagnostics } = discoverExtensions(
			options({ cliPaths: [join(root, "nope.ts"), join(root, "readme.md"), "npm:some-pkg"] }),
		);
		const rel = (p: string) => (p.startsWith(root) ? p.slice(root.length + 1) : p);
		const text = diagnostics.map((d) => `${d.level} ${rel(d.path)}: ${d.message}`);
		expect(text).toEqual([
			expect.stringMatching(/^error agent\/extensions\/broken\/package.json: invalid JSON/),
			'warning agent/extensions/gone/package.json: pi.extensions names "./missing.ts", which does not exist',
			'warning agent/extensions/host/package.json: "typebox" is provided by pi; list it in peerDependencies (the bundled copy is used)',
			"warning agent/extensions/wrong/package.json: pi.extensions is not a list of paths; ignored",
			"error nope.ts: not found",
			"error readme.md: not a .ts or .js file",
			expect.stringMatching(/^error npm:some-pkg: package sources are loaded by the package manager/),
		]);
		expect(entries.map((e) => e.path.slice(root.length + 1))).toEqual(["agent/extensions/host/i.ts"]);
	});

	test("manifest globs honour ! exclusions", () => {
		const { root, options, rel } = setup();
		writeTree(root, {
			"agent/extensions/p/package.json": JSON.stringify({ pi: { extensions: ["ext/*.ts", "!ext/legacy.ts"] } }),
			"agent/extensions/p/ext/a.ts": F,
			"agent/extensions/p/ext/legacy.ts": F,
		});
		expect(discoverExtensions(options()).entries.map((e) => rel(e.path))).toEqual(["agent/extensions/p/ext/a.ts"]);
	});
});
