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

	test("an explicit folder: extension folder, else its extensions/ folder, else its files", () => {
		const { root, options, rel } = setup();
		writeTree(root, {
			"one/index.ts": F,
			"pkg/extensions/a.ts": F,
			"pkg/extensions/b/index.ts": F,
			"flat/x.ts": F,
			"flat/y.js": F,
		});
		const { entries } = discoverExtensions(
			options({ cliPaths: [join(root, "one"), join(root, "pkg"), join(root, "flat")] }),
		);
		expect(entries.map((e) => rel(e.path))).toEqual([
			"one/index.ts",
			"pkg/extensions/a.ts",
			"pkg/extensions/b/index.ts",
			"flat/x.ts",
			"flat/y.js",
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
			"error agent/extensions/gone/missing.ts: declared in package.json but not found",
			'warning agent/extensions/host/package.json: "typebox" is provided by pi; list it in peerDependencies (the bundled copy is used)',
			expect.stringMatching(/^error agent\/extensions\/wrong\/package.json: invalid manifest at \/pi\/extensions/),
			"error nope.ts: not found",
			"error readme.md: not a .ts or .js file",
			expect.stringMatching(/^error npm:some-pkg: package sources need `pi install`/),
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
