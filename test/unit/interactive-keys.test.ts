/**
 * The app's key table against pi 0.87.1: every id of docs/keybindings.md's tables with the doc's default keys on
 * Linux, WSL, Windows and macOS; the same ids and defaults as pi's own table (dist/core/keybindings.js, run under
 * Node with each platform); and every old flat name pi migrates read as its new id. Without the conformance cache
 * the pi-side checks skip, saying why.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import { appKeybindingDefinitions, migrateKeybindingsFile } from "../../src/modes/interactive/app/keybindings.ts";
import { readKeybindingsFile } from "../../src/tui/index.ts";

type Platform = "linux" | "wsl" | "win32" | "darwin";
const PLATFORMS: Platform[] = ["linux", "wsl", "win32", "darwin"];

function ours(platform: Platform): Record<string, string[]> {
	const table =
		platform === "wsl"
			? appKeybindingDefinitions("linux", { WSL_DISTRO_NAME: "Ubuntu" })
			: appKeybindingDefinitions(platform, {});
	return Object.fromEntries(
		Object.entries(table).map(([id, d]) => [id, Array.isArray(d.defaultKeys) ? d.defaultKeys : [d.defaultKeys]]),
	);
}

let cached: { modules: string; node: string; agent: string } | { skip: string } | undefined;

/** pi 0.87.1 from the conformance cache (found or fetched once per file; a failed fetch is a skip reason). */
function pi(): { modules: string; node: string; agent: string } | { skip: string } {
	cached ??= findPi();
	return cached;
}

function findPi(): { modules: string; node: string; agent: string } | { skip: string } {
	const found = ensureRunnablePi();
	if ("error" in found) return { skip: found.error };
	const agent = join(found.modules, "@earendil-works", "pi-coding-agent");
	if (!existsSync(join(agent, "docs", "keybindings.md"))) return { skip: `no docs/keybindings.md under ${agent}` };
	return { ...found, agent };
}

/** Keys written in backticks, or none for "None". */
function keysOf(text: string): string[] {
	return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

/**
 * The default keys of a doc table cell on each platform: "`a`, `b` (`c` on Windows; `d` on WSL)", "(`x` only on
 * Windows and WSL)", "(None on Windows)".
 */
function cellDefaults(cell: string): Record<Platform, string[]> {
	const open = cell.indexOf("(");
	const base = keysOf(open < 0 ? cell : cell.slice(0, open));
	const result: Record<Platform, string[]> = { linux: base, wsl: base, win32: base, darwin: base };
	if (open < 0) return result;
	for (const part of cell.slice(open + 1, cell.lastIndexOf(")")).split(";")) {
		const keys = /\bNone\b/.test(part.split(" on ")[0] ?? "") ? [] : keysOf(part);
		const where = part.slice(part.lastIndexOf(" on ") + 4);
		if (/Windows/.test(where)) result.win32 = keys;
		if (/WSL/.test(where)) result.wsl = keys;
	}
	return result;
}

function docTables(markdown: string): Map<string, Record<Platform, string[]>> {
	const rows = new Map<string, Record<Platform, string[]>>();
	for (const line of markdown.split("\n")) {
		const match = /^\|\s*`([a-z]+\.[\w.]+)`\s*\|([^|]*)\|/.exec(line);
		if (match) rows.set(match[1] as string, cellDefaults(match[2] as string));
	}
	return rows;
}

const sorted = (keys: string[]) => [...keys].sort();

describe("app keybindings against pi 0.87.1", () => {
	test("every id of docs/keybindings.md is defined with the doc's defaults on each platform", () => {
		const found = pi();
		if ("skip" in found) {
			console.warn(`keybindings doc check skipped: ${found.skip}`);
			return;
		}
		const rows = docTables(readFileSync(join(found.agent, "docs", "keybindings.md"), "utf8"));
		expect(rows.size).toBeGreaterThan(80);
		for (const platform of PLATFORMS) {
			const table = ours(platform);
			for (const [id, defaults] of rows) {
				expect({ id, platform, keys: table[id] ? sorted(table[id]) : "missing" }).toEqual({
					id,
					platform,
					keys: sorted(defaults[platform]),
				});
			}
			// Our table has no id the doc does not list.
			expect(Object.keys(table).filter((id) => !rows.has(id))).toEqual([]);
		}
		// The order of the keys (the first is what hints show) on Linux, as written in the doc.
		const linux = ours("linux");
		for (const [id, defaults] of rows) expect({ id, keys: linux[id] }).toEqual({ id, keys: defaults.linux });
	}, 60_000);

	test("the same ids and default keys, in order, as pi's own table on Linux, WSL, Windows and macOS", () => {
		const found = pi();
		if ("skip" in found) {
			console.warn(`pi keybindings table check skipped: ${found.skip}`);
			return;
		}
		const module = join(found.agent, "dist", "core", "keybindings.js");
		for (const platform of PLATFORMS) {
			const script = `
				Object.defineProperty(process, "platform", { value: ${JSON.stringify(platform === "wsl" ? "linux" : platform)} });
				const { KEYBINDINGS } = await import(${JSON.stringify(module)});
				const out = {};
				for (const [id, d] of Object.entries(KEYBINDINGS)) out[id] = Array.isArray(d.defaultKeys) ? d.defaultKeys : [d.defaultKeys];
				process.stdout.write(JSON.stringify(out));`;
			const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: tmpdir() };
			if (platform === "wsl") env.WSL_DISTRO_NAME = "Ubuntu";
			const run = Bun.spawnSync([found.node, "--input-type=module", "-e", script], { env, stderr: "pipe" });
			expect(run.stderr.toString()).toBe("");
			const theirs = JSON.parse(run.stdout.toString()) as Record<string, string[]>;
			const mine = ours(platform);
			expect(Object.keys(mine)).toEqual(Object.keys(theirs));
			for (const id of Object.keys(theirs)) {
				expect({ id, platform, keys: mine[id] }).toEqual({ id, platform, keys: theirs[id] });
			}
		}
	}, 60_000);

	test("every old name pi migrates is read as its new id", () => {
		const found = pi();
		if ("skip" in found) {
			console.warn(`keybinding migration check skipped: ${found.skip}`);
			return;
		}
		const source = readFileSync(join(found.agent, "dist", "core", "keybindings.js"), "utf8");
		const block = /KEYBINDING_NAME_MIGRATIONS = \{([^}]*)\}/.exec(source)?.[1] ?? "";
		const migrations: [string, string][] = [...block.matchAll(/(\w+): "([\w.]+)"/g)].map((m) => [
			m[1] as string,
			m[2] as string,
		]);
		expect(migrations.length).toBeGreaterThan(50);
		const dir = mkdtempSync(join(tmpdir(), "pi-keys-"));
		try {
			const path = join(dir, "keybindings.json");
			writeFileSync(path, JSON.stringify(Object.fromEntries(migrations.map(([old]) => [old, "f5"]))));
			const { config, warnings } = readKeybindingsFile(path, { definitions: appKeybindingDefinitions() });
			expect(warnings.filter((w) => !w.includes("is bound to"))).toEqual([]);
			expect(Object.keys(config).sort()).toEqual(migrations.map(([, id]) => id).sort());
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, 60_000);

	test("a keybindings.json with old names is rewritten with their ids, in pi's order, as pi's migration does", () => {
		const input = {
			"zz.extension": "f9",
			selectModel: "ctrl+m",
			"tui.select.up": "f2",
			selectUp: "f3",
			cursorUp: ["f1", "up"],
			"app.exit": "ctrl+q",
		};
		const expected = {
			"tui.editor.cursorUp": ["f1", "up"],
			"tui.select.up": "f2",
			"app.exit": "ctrl+q",
			"app.model.select": "ctrl+m",
			"zz.extension": "f9",
		};
		const dir = mkdtempSync(join(tmpdir(), "pi-keys-"));
		try {
			const path = join(dir, "keybindings.json");
			writeFileSync(path, JSON.stringify(input));
			expect(migrateKeybindingsFile(path)).toBe(true);
			const written = readFileSync(path, "utf8");
			expect(JSON.parse(written)).toEqual(expected);
			expect(Object.keys(JSON.parse(written))).toEqual(Object.keys(expected));
			expect(written.endsWith("}\n")).toBe(true);
			// Once migrated (or never old), the file is left alone; so is one that is not an object.
			expect(migrateKeybindingsFile(path)).toBe(false);
			writeFileSync(path, "[1]");
			expect(migrateKeybindingsFile(path)).toBe(false);
			expect(readFileSync(path, "utf8")).toBe("[1]");
			const found = pi();
			if ("skip" in found) {
				console.warn(`keybindings migration comparison skipped: ${found.skip}`);
				return;
			}
			const module = join(found.agent, "dist", "core", "keybindings.js");
			const script = `const { migrateKeybindingsConfig } = await import(${JSON.stringify(module)});
				process.stdout.write(JSON.stringify(migrateKeybindingsConfig(${JSON.stringify(input)}).config));`;
			const run = Bun.spawnSync([found.node, "--input-type=module", "-e", script], {
				env: { PATH: process.env.PATH ?? "", HOME: tmpdir() },
			});
			expect(run.stdout.toString()).toBe(JSON.stringify(expected));
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, 30_000);
});
