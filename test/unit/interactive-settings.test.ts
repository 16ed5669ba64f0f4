import { beforeAll, describe, expect, test } from "bun:test";
import type { Model } from "../../src/ai/index.ts";
import { resolveSettings } from "../../src/config/index.ts";
import { ThemeControl, type ThemeTerminal, themeForBackground } from "../../src/modes/interactive/app/theme-control.ts";
import { type CyclingSetting, settingRows } from "../../src/modes/interactive/selectors/settings-items.ts";
import { ModelThinkingSubmenu } from "../../src/modes/interactive/selectors/settings-submenus.ts";
import { ThemeSelector } from "../../src/modes/interactive/selectors/theme-selector.ts";
import { builtinThemes, currentTheme, initTheme, loadChalk, Theme } from "../../src/resources/index.ts";
import type { TerminalColorScheme } from "../../src/tui/index.ts";

beforeAll(async () => {
	await loadChalk();
});

const options = { supportsImages: false, followUpKey: "alt+enter", cycleThinkingKey: "shift+tab" };

describe("/settings rows", () => {
	test("pi 0.87.1's order, images rows only when the terminal can draw images", () => {
		const ids = settingRows(options).map((row) => row.id);
		expect(ids).toEqual([
			"autocompact",
			"auto-resize-images",
			"block-images",
			"skill-commands",
			"show-hardware-cursor",
			"editor-padding",
			"output-padding",
			"autocomplete-max-visible",
			"clear-on-shrink",
			"terminal-progress",
			"steering-mode",
			"follow-up-mode",
			"transport",
			"http-idle-timeout",
			"cache-warming-mode",
			"hide-thinking",
			"mermaid-rendering",
			"cache-miss-notices",
			"collapse-changelog",
			"quiet-startup",
			"install-telemetry",
			"default-project-trust",
			"double-escape-action",
			"tree-filter-mode",
			"warnings",
			"model-thinking",
			"tui-mode",
			"fullscreen-exit-output",
			"fullscreen-scrollbar",
			"fullscreen-copy-on-select",
			"theme",
		]);
		const withImages = settingRows({ ...options, supportsImages: true }).map((row) => row.id);
		expect(withImages.slice(0, 4)).toEqual(["autocompact", "show-images", "image-width-cells", "auto-resize-images"]);
	});

	test("values read from the settings and the JSON each shown value stores", () => {
		const rows = new Map(
			settingRows(options)
				.filter((row): row is CyclingSetting => row.kind === "cycle")
				.map((row) => [row.id, row]),
		);
		const row = (id: string) => rows.get(id) as CyclingSetting;
		const defaults = resolveSettings({});
		expect(row("autocompact").read(defaults)).toBe("true");
		expect(row("http-idle-timeout").read(defaults)).toBe("5 min");
		expect(row("http-idle-timeout").parse("disabled")).toBe(0);
		expect(row("default-project-trust").read(resolveSettings({ defaultProjectTrust: "always" }))).toBe("Always trust");
		expect(row("default-project-trust").parse("Never trust")).toBe("never");
		expect(row("editor-padding").parse("2")).toBe(2);
		expect(row("block-images").path).toEqual(["images", "blockImages"]);
		expect(row("block-images").parse("true")).toBe(true);
		expect(row("mermaid-rendering").read(resolveSettings({ markdown: { mermaid: "off" } }))).toBe("off");
		expect(row("follow-up-mode").description).toStartWith("alt+enter queues follow-up messages");
	});
});

const ESC = "\x1b";
const DOWN = "\x1b[B";
const ENTER = "\r";

describe("theme list", () => {
	test("moving previews each theme; Escape previews the original again and saves nothing", () => {
		const previews: string[] = [];
		const done: (string | undefined)[] = [];
		const selector = new ThemeSelector(
			"dark",
			"dark",
			["dark", "light", "neon"],
			{ preview: (s) => previews.push(s) },
			(s) => done.push(s),
		);
		expect(selector.render(80).join("\n")).toContain("→ ✓ dark");
		selector.handleInput(DOWN);
		selector.handleInput(DOWN);
		expect(previews).toEqual(["light", "neon"]);
		selector.handleInput(ESC);
		expect(previews.at(-1)).toBe("dark");
		expect(done).toEqual([undefined]);
	});

	test("Enter saves the highlighted theme; Automatic saves light/dark", () => {
		const done: (string | undefined)[] = [];
		const single = new ThemeSelector("dark", "dark", ["dark", "light"], { preview: () => {} }, (s) => done.push(s));
		single.handleInput(DOWN);
		single.handleInput(ENTER);
		expect(done).toEqual(["light"]);
		const auto = new ThemeSelector("light/dark", "light", ["dark", "light"], { preview: () => {} }, (s) =>
			done.push(s),
		);
		expect(auto.render(80).join("\n")).toContain("Automatic Theme");
		auto.handleInput(DOWN);
		auto.handleInput(DOWN);
		auto.handleInput(ENTER);
		expect(done.at(-1)).toBe("light/dark");
	});
});

describe("default thinking level per model", () => {
	test("the current model first; a level sets an override, clear removes it; Escape closes with the summary", () => {
		const models = [
			{ provider: "zeta", id: "z-1", reasoning: true },
			{ provider: "alpha", id: "a-1", reasoning: false },
			{ provider: "mock", id: "mock-1", reasoning: true },
		] as unknown as Model[];
		const calls: [string, string | undefined][] = [];
		const closed: string[] = [];
		const overrides: Record<string, string> = {};
		const menu = new ModelThinkingSubmenu({
			models,
			currentModel: models[2] as Model,
			globalLevel: "medium",
			overrides,
			set: (model, level) => calls.push([`${model.provider}/${model.id}`, level]),
			close: (summary) => closed.push(summary),
		});
		const text = menu.render(80).join("\n");
		expect(text.indexOf("mock-1")).toBeLessThan(text.indexOf("a-1"));
		expect(text.indexOf("a-1")).toBeLessThan(text.indexOf("z-1"));
		menu.handleInput(ENTER);
		expect(menu.render(80).join("\n")).toContain("Thinking Level for mock-1 [mock]");
		menu.handleInput(DOWN);
		menu.handleInput(DOWN);
		menu.handleInput(ENTER);
		expect(calls).toEqual([["mock/mock-1", "low"]]);
		expect(overrides).toEqual({ "mock/mock-1": "low" });
		menu.handleInput(ENTER);
		expect(menu.render(80).join("\n")).toContain("(clear override)");
		for (let i = 0; i < 3; i++) menu.handleInput(DOWN);
		menu.handleInput(ENTER);
		expect(calls.at(-1)).toEqual(["mock/mock-1", undefined]);
		menu.handleInput(ESC);
		expect(closed).toEqual(["none"]);
	});
});

interface FakeTerminal extends ThemeTerminal {
	notifications: boolean;
	report(scheme: TerminalColorScheme): void;
}

function fakeTerminal(answers: {
	rgb?: { r: number; g: number; b: number };
	scheme?: TerminalColorScheme;
}): FakeTerminal {
	const listeners = new Set<(scheme: TerminalColorScheme) => void>();
	return {
		notifications: false,
		queryTerminalBackgroundColor: async () => answers.rgb,
		queryTerminalColorScheme: async () => answers.scheme,
		onTerminalColorSchemeChange(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		setTerminalColorSchemeNotifications(enabled) {
			this.notifications = enabled;
		},
		report(scheme) {
			for (const listener of listeners) listener(scheme);
		},
	};
}

function control(terminal: ThemeTerminal, setting: string | undefined, env: NodeJS.ProcessEnv = {}) {
	const themes = builtinThemes();
	const lookup = (name: string) =>
		name === "dark" || name === "light" ? new Theme(themes[name], "256color") : undefined;
	const saved: string[] = [];
	const errors: string[] = [];
	initTheme("dark", { support: "256color" as never, env: {} });
	const c = new ThemeControl(
		{
			terminal,
			lookup,
			redraw: () => {},
			save: async (s) => void saved.push(s),
			showError: (l) => errors.push(l),
			env,
		},
		setting,
	);
	return { c, saved, errors };
}

describe("theme detection (pi 0.87.1's rule)", () => {
	test("no setting: the OSC 11 background decides and, being sure, is saved", async () => {
		const { c, saved } = control(fakeTerminal({ rgb: { r: 250, g: 250, b: 245 } }), undefined);
		await c.start();
		expect(currentTheme().name).toBe("light");
		expect(saved).toEqual(["light"]);
	});

	test("no setting and no answer: COLORFGBG decides and is saved; nothing at all: dark, not saved", async () => {
		const a = control(fakeTerminal({}), undefined, { COLORFGBG: "0;15" });
		await a.c.start();
		expect(a.saved).toEqual(["light"]);
		const b = control(fakeTerminal({}), undefined, {});
		await b.c.start();
		expect(currentTheme().name).toBe("dark");
		expect(b.saved).toEqual([]);
	});

	test("light/dark: the colour-scheme report decides, and later reports switch the theme", async () => {
		const terminal = fakeTerminal({ scheme: "light", rgb: { r: 0, g: 0, b: 0 } });
		const { c, saved } = control(terminal, "light/dark");
		await c.start();
		expect(currentTheme().name).toBe("light");
		expect(terminal.notifications).toBe(true);
		terminal.report("dark");
		expect(currentTheme().name).toBe("dark");
		expect(saved).toEqual([]);
		c.dispose();
		expect(terminal.notifications).toBe(false);
	});

	test("an unknown theme name falls back to dark with one error", async () => {
		const { c, errors } = control(fakeTerminal({}), "nope");
		await c.start();
		expect(currentTheme().name).toBe("dark");
		expect(errors).toEqual(['Failed to load theme "nope": Theme not found: nope\nFell back to dark theme.']);
	});

	test("luminance threshold", () => {
		expect(themeForBackground({ r: 255, g: 255, b: 255 })).toBe("light");
		expect(themeForBackground({ r: 30, g: 30, b: 30 })).toBe("dark");
	});
});
