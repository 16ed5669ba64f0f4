import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	getKeybindings,
	KeybindingsManager,
	readKeybindingsFile,
	setKeybindings,
	TUI_KEYBINDINGS,
} from "../../../src/tui/index.ts";

describe("KeybindingsManager", () => {
	test("the 47 tui.* ids with pi-tui 0.87.1's default keys", () => {
		expect(Object.keys(TUI_KEYBINDINGS)).toHaveLength(47);
		const manager = new KeybindingsManager(TUI_KEYBINDINGS);
		expect(manager.getKeys("tui.editor.cursorWordLeft")).toEqual(["alt+left", "ctrl+left", "alt+b"]);
		expect(manager.getKeys("tui.editor.undo")).toEqual(["ctrl+-"]);
		expect(manager.getKeys("tui.input.newLine")).toEqual(["shift+enter", "ctrl+j"]);
		expect(manager.getKeys("tui.altScreen.halfPageUp")).toEqual([]);
		expect(manager.getKeys("tui.altScreen.search")).toEqual(["ctrl+shift+f"]);
		expect(manager.matches("\x1b[D", "tui.editor.cursorLeft")).toBe(true);
		expect(manager.matches("\x02", "tui.editor.cursorLeft")).toBe(true);
		expect(manager.matches("\x1b", "tui.select.cancel")).toBe(true);
		expect(manager.matches("x", "tui.select.cancel")).toBe(false);
		expect(manager.matches("\r", "no.such.id")).toBe(false);
	});

	test("user bindings replace defaults, [] unbinds, repeats are dropped, conflicts are listed", () => {
		const manager = new KeybindingsManager(TUI_KEYBINDINGS, {
			"tui.select.up": ["ctrl+p", "ctrl+p", "up"],
			"tui.select.down": "ctrl+p",
			"tui.altScreen.pageUp": [],
			"app.unknown": "ctrl+x",
		});
		expect(manager.getKeys("tui.select.up")).toEqual(["ctrl+p", "up"]);
		expect(manager.getKeys("tui.altScreen.pageUp")).toEqual([]);
		expect(manager.matches("\x10", "tui.select.down")).toBe(true);
		expect(manager.getConflicts()).toEqual([{ key: "ctrl+p", keybindings: ["tui.select.up", "tui.select.down"] }]);
		const resolved = manager.getResolvedBindings();
		expect(resolved["tui.select.down"]).toBe("ctrl+p");
		expect(resolved["tui.altScreen.pageUp"]).toEqual([]);
		expect(resolved["tui.select.up"]).toEqual(["ctrl+p", "up"]);
		expect("app.unknown" in resolved).toBe(false);
		manager.setUserBindings({});
		expect(manager.getKeys("tui.select.up")).toEqual(["up"]);
		expect(manager.getConflicts()).toEqual([]);
	});

	test("getKeybindings is the TUI defaults until an application sets its own", () => {
		const before = getKeybindings();
		expect(before.getKeys("tui.input.submit")).toEqual(["enter"]);
		const custom = new KeybindingsManager(TUI_KEYBINDINGS, { "tui.input.submit": "ctrl+s" });
		setKeybindings(custom);
		try {
			expect(getKeybindings()).toBe(custom);
			expect(getKeybindings().matches("\x13", "tui.input.submit")).toBe(true);
		} finally {
			setKeybindings(before);
		}
	});
});

describe("readKeybindingsFile", () => {
	let dir: string | undefined;
	afterEach(() => {
		if (dir) rmSync(dir, { recursive: true, force: true });
		dir = undefined;
	});
	const write = (text: string) => {
		dir = mkdtempSync(join(tmpdir(), "pi-keybindings-"));
		const path = join(dir, "keybindings.json");
		writeFileSync(path, text);
		return path;
	};

	test("a missing file is no bindings and no warnings", () => {
		expect(readKeybindingsFile("/nonexistent/keybindings.json")).toEqual({ config: {}, warnings: [] });
	});

	test("reads keys and key lists, a BOM, legacy names (the new id wins over its old name)", () => {
		const path = write(
			`\uFEFF${JSON.stringify({
				"tui.select.up": "ctrl+k",
				"app.session.tree": ["ctrl+shift+t", "alt+shift+t"],
				selectDown: "ctrl+j",
				cursorUp: "alt+u",
				"tui.editor.cursorUp": "up",
				"tui.altScreen.pageUp": [],
			})}`,
		);
		const { config, warnings } = readKeybindingsFile(path);
		expect(warnings).toEqual([]);
		expect(config).toEqual({
			"tui.select.up": "ctrl+k",
			"app.session.tree": ["ctrl+shift+t", "alt+shift+t"],
			"tui.select.down": "ctrl+j",
			"tui.editor.cursorUp": "up",
			"tui.altScreen.pageUp": [],
		});
	});

	test("each problem is one line naming the file and the entry; good entries still load; the file is untouched", () => {
		const text = JSON.stringify({
			"tui.select.up": "ctlr+p",
			"tui.select.down": ["down", "hyper+x", 3],
			"tui.select.pageUp": ["pageUp", "Ctrl+PageUp", "ctrl+"],
			"tui.select.confirm": { key: "enter" },
			"tui.select.cancel": ["escape", "shift+ctrl+x"],
			"tui.input.copy": "ctrl+shift+x",
			"no.such.action": "ctrl+q",
		});
		const path = write(text);
		const { config, warnings } = readKeybindingsFile(path, {
			definitions: TUI_KEYBINDINGS,
			label: "keybindings.json",
		});
		expect(warnings).toEqual([
			'keybindings.json: "tui.select.up": unknown key "ctlr+p"',
			'keybindings.json: "tui.select.down": expected a key or a list of keys, got ["down","hyper+x",3]',
			'keybindings.json: "tui.select.pageUp": unknown key "ctrl+"',
			'keybindings.json: "tui.select.confirm": expected a key or a list of keys, got {"key":"enter"}',
			'keybindings.json: "no.such.action": unknown keybinding id',
			'keybindings.json: "shift+ctrl+x" is bound to "tui.select.cancel" and "tui.input.copy"',
		]);
		expect(config as Record<string, unknown>).toEqual({
			"tui.select.pageUp": ["pageUp", "Ctrl+PageUp"],
			"tui.select.cancel": ["escape", "shift+ctrl+x"],
			"tui.input.copy": "ctrl+shift+x",
		});
		expect(readFileSync(path, "utf8")).toBe(text);
	});

	test("invalid JSON and a non-object are one warning each, never a throw", () => {
		const broken = write('{ "tui.select.up": "ctrl+p", }');
		const result = readKeybindingsFile(broken);
		expect(result.config).toEqual({});
		expect(result.warnings).toHaveLength(1);
		expect(result.warnings[0]).toStartWith(`${broken}: not valid JSON (`);
		rmSync(dir as string, { recursive: true, force: true });
		const list = write('["ctrl+p"]');
		expect(readKeybindingsFile(list).warnings).toEqual([
			`${list}: expected an object mapping keybinding ids to keys; keybindings from it are ignored`,
		]);
	});
});
