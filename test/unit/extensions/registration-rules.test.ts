import { describe, expect, test } from "bun:test";
import { checkRegistrations, normalizeKey } from "../../../src/extensions/index.ts";

const command = (description: string) => ({ description, handler: async () => {} });

describe("registration rules", () => {
	test("a command named like a built-in is skipped with a diagnostic", () => {
		const check = checkRegistrations([
			{
				path: "/a.ts",
				commands: new Map([
					["reload", command("mine")],
					["mine", command("ok")],
				]),
				shortcuts: new Map(),
			},
		]);
		expect([...check.commands.keys()]).toEqual(["mine"]);
		expect(check.diagnostics).toEqual(["extension /a.ts: command /reload clashes with a built-in command; skipped"]);
	});

	test("duplicate command names: the first keeps the name, all answer to name:N", () => {
		const check = checkRegistrations([
			{ path: "/a.ts", commands: new Map([["deploy", command("a")]]), shortcuts: new Map() },
			{ path: "/b.ts", commands: new Map([["deploy", command("b")]]), shortcuts: new Map() },
		]);
		expect(check.commands.get("deploy")?.extensionPath).toBe("/a.ts");
		expect(check.commands.get("deploy:1")?.extensionPath).toBe("/a.ts");
		expect(check.commands.get("deploy:2")?.extensionPath).toBe("/b.ts");
		expect(check.diagnostics[0]).toContain("/deploy:1");
	});

	test("reserved keys are refused, built-in keys overridden with a warning, duplicates keep the first", () => {
		const check = checkRegistrations([
			{
				path: "/a.ts",
				commands: new Map(),
				shortcuts: new Map<string, unknown>([
					["Ctrl+C", {}],
					["ctrl+v", {}],
					["ctrl+shift+x", { first: true }],
				]),
			},
			{ path: "/b.ts", commands: new Map(), shortcuts: new Map<string, unknown>([["shift+ctrl+x", {}]]) },
		]);
		expect([...check.shortcuts.keys()]).toEqual(["ctrl+v", "shift+ctrl+x"]);
		expect(check.shortcuts.get("shift+ctrl+x")?.extensionPath).toBe("/a.ts");
		expect(check.diagnostics).toEqual([
			"extension /a.ts: shortcut Ctrl+C is reserved by pi; skipped",
			'extension /a.ts: shortcut ctrl+v replaces the built-in "paste image"',
			"extension /b.ts: shortcut shift+ctrl+x is already registered by /a.ts; ignored",
		]);
	});

	test("key ids compare without case or modifier order", () => {
		expect(normalizeKey("Ctrl+Shift+P")).toBe("shift+ctrl+p");
		expect(normalizeKey("alt+ctrl+x")).toBe("ctrl+alt+x");
	});
});
