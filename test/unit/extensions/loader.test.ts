/**
 * The loader with both module loaders: Bun's (what the binary uses) and jiti's (Node/SDK use), on the same
 * extensions, and the isolation of bad ones.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	createEventBus,
	createModuleLoader,
	discoverExtensions,
	loadExtensions,
} from "../../../src/extensions/index.ts";
import { HOST_PACKAGES, loadVirtualModules } from "../../../src/sdk/index.ts";
import {
	BAD_EXTENSIONS,
	EXPECTED_PROBES,
	writeBadExtensions,
	writeFeatureExtensions,
} from "../../helpers/extension-fixtures.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const probes = () => (globalThis as any).__piProbe as Record<string, unknown>;

function discover(dir: string) {
	return discoverExtensions({
		cwd: dir,
		globalDir: dir,
		settingsPaths: [],
		cliPaths: [],
		noDiscovery: false,
		isHostPackage: (name) => HOST_PACKAGES.has(name),
	});
}

beforeEach(() => {
	(globalThis as any).__piProbe = {};
});

for (const kind of ["bun", "jiti"] as const) {
	describe(`loader (${kind})`, () => {
		test("every loader feature works and host modules win over an extension's own copy", async () => {
			const dir = makeTempDir();
			writeFeatureExtensions(dir);
			const loader = await createModuleLoader(await loadVirtualModules(), join(dir, ".jiti-cache"), kind);
			const found = discover(dir);
			const result = await loadExtensions(found.entries, loader, createEventBus());
			expect(result.diagnostics).toEqual([]);
			expect(probes()).toEqual(EXPECTED_PROBES);
			expect(result.extensions).toHaveLength(4);
		});

		test("bad extensions are reported one line each and the others still load", async () => {
			const dir = makeTempDir();
			writeBadExtensions(dir);
			writeTree(dir, { "good.ts": "export default function (pi) { pi.registerCommand('ok', { handler() {} }); }\n" });
			const loader = await createModuleLoader(await loadVirtualModules(), join(dir, ".jiti-cache"), kind);
			const result = await loadExtensions(discover(dir).entries, loader, createEventBus());
			expect(result.extensions.map((e) => e.entry.path)).toEqual([join(dir, "good.ts")]);
			const byFile = new Map(result.diagnostics.map((d) => [d.path.slice(dir.length + 1), d.message]));
			expect([...byFile.keys()].sort()).toEqual(Object.keys(BAD_EXTENSIONS).sort());
			for (const [file, { reason }] of Object.entries(BAD_EXTENSIONS)) {
				const message = byFile.get(file) ?? "";
				expect(message.includes("\n")).toBe(false);
				if (kind === "bun") expect(message).toContain(reason);
				else expect(message.startsWith(reason.split(":")[0] as string)).toBe(true);
			}
		});

		test("reset() makes the next load see changed files, including local imports", async () => {
			const dir = makeTempDir();
			const write = (n: number) =>
				writeTree(dir, {
					"r.ts": `import { n } from "./dep.js";\nexport default function () { (globalThis as any).__piProbe.r = n; }\n`,
					"dep.ts": `export const n = ${n};\n`,
				});
			write(1);
			const loader = await createModuleLoader(await loadVirtualModules(), join(dir, ".jiti-cache"), kind);
			const entries = discover(dir).entries;
			await loadExtensions(entries, loader, createEventBus());
			expect(probes().r).toBe(1);
			write(2);
			loader.reset();
			await loadExtensions(entries, loader, createEventBus());
			expect(probes().r).toBe(2);
		});
	});
}

describe("loader (bun) specifics", () => {
	test("a syntax error names its line", async () => {
		const dir = makeTempDir();
		writeFileSync(join(dir, "s.ts"), "export default function () {\n  let x = ;\n}\n");
		const loader = await createModuleLoader(await loadVirtualModules(), dir, "bun");
		const result = await loadExtensions(discover(dir).entries, loader, createEventBus());
		expect(result.diagnostics[0]?.message).toMatch(/failed to load: Unexpected ; at line 2:\d+/);
	});
});
