import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSettingsFiles } from "../../../src/config/index.ts";
import {
	BUILTIN_THEME_JSON,
	builtinThemes,
	detectColorSupport,
	hexToAnsi256,
	parseThemeJson,
	ResourceLoader,
	THEME_BG_TOKENS,
	THEME_FG_TOKENS,
	Theme,
} from "../../../src/resources/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const TRUE = { mode: "truecolor" as const, enabled: true };
const C256 = { mode: "256color" as const, enabled: true };
const OFF = { mode: "truecolor" as const, enabled: false };

function fullColors(value: string | number = "#102030"): Record<string, string | number> {
	return Object.fromEntries([...THEME_FG_TOKENS, ...THEME_BG_TOKENS].map((t) => [t, value]));
}

describe("built-in themes", () => {
	test("dark and light give every token a valid colour", () => {
		for (const name of ["dark", "light"] as const) {
			const json = BUILTIN_THEME_JSON[name];
			for (const token of [...THEME_FG_TOKENS, ...THEME_BG_TOKENS]) expect(json.colors[token]).toBeDefined();
			const parsed = parseThemeJson(json, { fallback: null });
			expect(parsed.diagnostics).toEqual([]);
			expect(parsed.definition?.export.pageBg).toMatch(/^#[0-9a-f]{6}$/);
		}
		expect(builtinThemes().dark.colors.accent).toBe("#6cb6ff");
	});
});

describe("theme validation", () => {
	const dark = () => builtinThemes().dark;

	test("a complete theme with vars (chained), 256 indexes and terminal defaults", () => {
		const colors = { ...fullColors(), accent: "primary", text: "", muted: 244 };
		const { definition, diagnostics } = parseThemeJson(
			{ name: "mine", vars: { primary: "base", base: "#AABBCC" }, colors, export: { pageBg: "base" } },
			{},
		);
		expect(diagnostics).toEqual([]);
		expect(definition?.colors.accent).toBe("#aabbcc");
		expect(definition?.colors.text).toBe("");
		expect(definition?.colors.muted).toBe(244);
		expect(definition?.export).toEqual({ pageBg: "#aabbcc" });
	});

	test("each missing or bad colour is reported and takes the built-in value", () => {
		const colors: Record<string, unknown> = {
			...fullColors(),
			accent: "#12345",
			border: 300,
			success: "nope",
			error: "a",
			warning: true,
		};
		delete colors.muted;
		const { definition, diagnostics } = parseThemeJson(
			{ name: "broken", vars: { a: "b", b: "a" }, colors },
			{ path: "/t/broken.json" },
		);
		expect(diagnostics.map((d) => d.message)).toEqual([
			'theme "broken": colour "accent" "#12345" is not a "#rrggbb" colour; using the built-in value',
			'theme "broken": colour "border" 300 is not a 256-colour index (0-255); using the built-in value',
			'theme "broken": colour "success" refers to unknown variable "nope"; using the built-in value',
			'theme "broken": colour "error" variable cycle a -> b -> a; using the built-in value',
			'theme "broken": colour "warning" true is not a colour; using the built-in value',
			'theme "broken": missing colour "muted"; using the built-in value',
		]);
		for (const token of ["accent", "border", "success", "error", "warning", "muted"] as const) {
			expect(definition?.colors[token]).toBe(dark().colors[token]);
		}
		expect(diagnostics.every((d) => d.path === "/t/broken.json" && d.type === "warning")).toBe(true);
	});

	test("optional tokens inherit silently; unknown tokens warn", () => {
		const colors: Record<string, unknown> = {
			...fullColors(),
			text: "#111111",
			thinkingXhigh: "#222222",
			extra: "#333333",
		};
		for (const t of ["scrollbarTrack", "scrollbarThumb", "searchMatchBg", "searchMatchText", "thinkingMax"])
			delete colors[t];
		const { definition, diagnostics } = parseThemeJson({ name: "opt", colors }, {});
		expect(diagnostics.map((d) => d.message)).toEqual(['theme "opt": unknown colour "extra"; ignored']);
		expect(definition?.colors.thinkingMax).toBe("#222222");
		expect(definition?.colors.scrollbarThumb).toBe("#111111");
	});

	test("unusable files are not loaded; a missing name falls back to the file name", () => {
		expect(parseThemeJson([], {}).diagnostics[0]?.type).toBe("error");
		expect(parseThemeJson({ name: "x" }, {}).diagnostics[0]?.message).toBe(
			'theme "x" not loaded: "colors" must be an object',
		);
		expect(parseThemeJson({ name: "a/b", colors: {} }, {}).diagnostics[0]?.message).toContain('may not contain "/"');
		const unnamed = parseThemeJson({ colors: fullColors() }, { path: "/t/nameless.json" });
		expect(unnamed.definition?.name).toBe("nameless");
	});
});

describe("Theme", () => {
	const def = () => {
		const d = structuredClone(builtinThemes().dark);
		d.colors.accent = "#ff8000";
		d.colors.text = "";
		d.colors.muted = 244;
		d.colors.selectedBg = "#000080";
		return d;
	};

	test("truecolor uses 24-bit sequences", () => {
		const t = new Theme(def(), TRUE);
		expect(t.fg("accent", "x")).toBe("\x1b[38;2;255;128;0mx\x1b[39m");
		expect(t.bg("selectedBg", "x")).toBe("\x1b[48;2;0;0;128mx\x1b[49m");
		expect(t.getFgAnsi("accent")).toBe("\x1b[38;2;255;128;0m");
		expect(t.getBgAnsi("selectedBg")).toBe("\x1b[48;2;0;0;128m");
		expect(t.getColorMode()).toBe("truecolor");
	});

	test("256-colour terminals get the nearest palette entry; indexes pass through; '' is the default colour", () => {
		const t = new Theme(def(), C256);
		expect(t.fg("accent", "x")).toBe(`\x1b[38;5;${hexToAnsi256("#ff8000")}mx\x1b[39m`);
		expect(t.fg("muted", "x")).toBe("\x1b[38;5;244mx\x1b[39m");
		expect(t.fg("text", "x")).toBe("x");
		expect(t.getFgAnsi("text")).toBe("\x1b[39m");
		expect(t.getColorMode()).toBe("256color");
	});

	test("attributes and border helpers", () => {
		const t = new Theme(def(), TRUE);
		expect(t.bold("b")).toBe("\x1b[1mb\x1b[22m");
		expect(t.italic("i")).toBe("\x1b[3mi\x1b[23m");
		expect(t.underline("u")).toBe("\x1b[4mu\x1b[24m");
		expect(t.inverse("v")).toBe("\x1b[7mv\x1b[27m");
		expect(t.strikethrough("s")).toBe("\x1b[9ms\x1b[29m");
		expect(t.getThinkingBorderColor("high")("x")).toBe(t.fg("thinkingHigh", "x"));
		expect(t.getThinkingBorderColor("max")("x")).toBe(t.fg("thinkingMax", "x"));
		expect(t.getBashModeBorderColor()("x")).toBe(t.fg("bashMode", "x"));
	});

	test("nested spans reopen the outer style, and every line carries its own style", () => {
		const t = new Theme(def(), TRUE);
		const accent = "\x1b[38;2;255;128;0m";
		const inner = t.fg("muted", "in");
		expect(t.fg("accent", `a${inner}b`)).toBe(`${accent}a\x1b[38;5;244min\x1b[39m${accent}b\x1b[39m`);
		expect(t.bold(`x${t.bold("y")}z`)).toBe("\x1b[1mx\x1b[1my\x1b[22m\x1b[1mz\x1b[22m");
		expect(t.bold("one\ntwo\r\nthree")).toBe("\x1b[1mone\x1b[22m\n\x1b[1mtwo\x1b[22m\r\n\x1b[1mthree\x1b[22m");
		expect(t.bold("")).toBe("");
		expect(t.fg("accent", "")).toBe("");
	});

	test("with colour off everything is plain", () => {
		const t = new Theme(def(), OFF);
		expect(t.fg("accent", "x")).toBe("x");
		expect(t.bg("selectedBg", "x")).toBe("x");
		expect(t.bold("x")).toBe("x");
		expect(t.getFgAnsi("accent")).toBe("");
	});

	test("colour support follows NO_COLOR, FORCE_COLOR=0, COLORTERM and the trueColor setting", () => {
		expect(detectColorSupport({ COLORTERM: "truecolor" })).toEqual({ mode: "truecolor", enabled: true });
		expect(detectColorSupport({ COLORTERM: "24bit" }).mode).toBe("truecolor");
		expect(detectColorSupport({ TERM: "xterm-256color" })).toEqual({ mode: "256color", enabled: true });
		expect(detectColorSupport({ NO_COLOR: "1", COLORTERM: "truecolor" }).enabled).toBe(false);
		expect(detectColorSupport({ FORCE_COLOR: "0" }).enabled).toBe(false);
		expect(detectColorSupport({}, true).mode).toBe("truecolor");
		expect(detectColorSupport({ COLORTERM: "truecolor" }, false).mode).toBe("256color");
	});

	test("256-colour approximation picks cube or grey entries", () => {
		expect(hexToAnsi256("#000000")).toBe(16);
		expect(hexToAnsi256("#ffffff")).toBe(231);
		expect(hexToAnsi256("#ff0000")).toBe(196);
		expect(hexToAnsi256("#808080")).toBe(244);
		expect(hexToAnsi256("#5f87af")).toBe(67);
	});
});

describe("theme discovery", () => {
	test("agent dir, .pi/themes, settings and --theme; built-ins first; duplicates of a name collide", () => {
		const home = makeTempDir();
		const agentDir = join(home, "agent");
		const cwd = join(home, "project");
		const theme = (name: string) => JSON.stringify({ name, colors: fullColors() });
		writeTree(agentDir, { "themes/g.json": theme("g"), "themes/dup.json": theme("dark") });
		writeTree(cwd, { ".pi/themes/p.json": theme("p"), "cli/c.json": theme("c"), "cli/bad.json": "{" });
		const loader = new ResourceLoader({
			cwd,
			agentDir,
			projectTrusted: true,
			settingsFiles: loadSettingsFiles({ agentDir, cwd, projectTrusted: true }).files,
			themePaths: ["cli"],
			env: { HOME: home },
			colorSupport: TRUE,
		});
		const { themes, diagnostics } = loader.getThemes();
		expect(themes.map((t) => t.name)).toEqual(["dark", "light", "p", "g", "c"]);
		expect(loader.getTheme("p")?.sourcePath).toBe(join(cwd, ".pi/themes/p.json"));
		expect(diagnostics.map((d) => d.type).sort()).toEqual(["collision", "error"]);
		const noThemes = new ResourceLoader({
			cwd,
			agentDir,
			projectTrusted: true,
			settingsFiles: [],
			noThemes: true,
			env: { HOME: home },
		});
		expect(noThemes.getThemes().themes.map((t) => t.name)).toEqual(["dark", "light"]);
	});
});
