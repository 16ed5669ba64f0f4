import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import chalk, { Chalk } from "chalk";
import { loadSettingsFiles } from "../../../src/config/index.ts";
import {
	adjustChalkLevel,
	BUILTIN_THEME_JSON,
	builtinThemes,
	chooseThemeName,
	currentTheme,
	detectColorSupport,
	hexToAnsi256,
	initTheme,
	loadChalk,
	parseThemeJson,
	ResourceLoader,
	THEME_BG_TOKENS,
	THEME_FG_TOKENS,
	Theme,
	terminalBackground,
} from "../../../src/resources/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const TRUE = { mode: "truecolor" as const };
const C256 = { mode: "256color" as const };

beforeAll(() => loadChalk());

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
		expect(builtinThemes().dark.colors.accent).toBe("#8abeb7");
		expect(builtinThemes().light.colors.accent).toBe("#5a8080");
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
		expect(t.fg("text", "x")).toBe("\x1b[39mx\x1b[39m");
		expect(t.getFgAnsi("text")).toBe("\x1b[39m");
		expect(t.getColorMode()).toBe("256color");
	});

	test("colours are written whatever the output (as pi does); spans are plain concatenation", () => {
		const t = new Theme(def(), C256);
		expect(t.fg("muted", `a${t.fg("accent", "b")}c`)).toBe(`\x1b[38;5;244ma${t.getFgAnsi("accent")}b\x1b[39mc\x1b[39m`);
		expect(t.fg("muted", "")).toBe("\x1b[38;5;244m\x1b[39m");
		expect(() => t.fg("nope" as never, "x")).toThrow("Unknown theme color: nope");
		expect(() => t.bg("accent" as never, "x")).toThrow("Unknown theme background color: accent");
	});

	test("text attributes go through chalk at its colour level", () => {
		const t = new Theme(def(), TRUE);
		const saved = chalk.level;
		try {
			chalk.level = 1;
			expect(t.bold("b")).toBe("\x1b[1mb\x1b[22m");
			expect(t.italic("i")).toBe("\x1b[3mi\x1b[23m");
			expect(t.underline("u")).toBe("\x1b[4mu\x1b[24m");
			expect(t.inverse("v")).toBe("\x1b[7mv\x1b[27m");
			expect(t.strikethrough("s")).toBe("\x1b[9ms\x1b[29m");
			expect(t.bold("one\ntwo")).toBe(chalk.bold("one\ntwo"));
			chalk.level = 0;
			expect(t.bold("b")).toBe("b");
			expect(t.fg("accent", "x")).toBe("\x1b[38;2;255;128;0mx\x1b[39m");
		} finally {
			chalk.level = saved;
		}
		expect(t.getThinkingBorderColor("high")("x")).toBe(t.fg("thinkingHigh", "x"));
		expect(t.getThinkingBorderColor("max")("x")).toBe(t.fg("thinkingMax", "x"));
		expect(t.getThinkingBorderColor("toString")("x")).toBe(t.fg("thinkingOff", "x"));
		expect(t.getBashModeBorderColor()("x")).toBe(t.fg("bashMode", "x"));
	});

	test("NO_COLOR turns chalk's level to 0 unless FORCE_COLOR is set", () => {
		const instance = new Chalk({ level: 3 });
		adjustChalkLevel(instance, { NO_COLOR: "" });
		expect(instance.level).toBe(3);
		adjustChalkLevel(instance, { NO_COLOR: "1", FORCE_COLOR: "2" });
		expect(instance.level).toBe(3);
		adjustChalkLevel(instance, { NO_COLOR: "1" });
		expect(instance.level).toBe(0);
	});

	test("colour mode: the trueColor setting, PI_TRUE_COLOR, known terminals, then COLORTERM", () => {
		const linux = (env: NodeJS.ProcessEnv, setting: boolean | "auto" = "auto") =>
			detectColorSupport(env, setting, "linux").mode;
		expect(linux({ COLORTERM: "truecolor" })).toBe("truecolor");
		expect(linux({ COLORTERM: "24bit" })).toBe("truecolor");
		expect(linux({ TERM: "xterm-256color" })).toBe("256color");
		expect(linux({ TERM_PROGRAM: "vscode" })).toBe("truecolor");
		expect(linux({ KITTY_WINDOW_ID: "1" })).toBe("truecolor");
		expect(linux({ TMUX: "/tmp/t", TERM_PROGRAM: "vscode" })).toBe("256color");
		expect(linux({ TMUX: "/tmp/t", COLORTERM: "truecolor" })).toBe("truecolor");
		expect(linux({ PI_TRUE_COLOR: "0", COLORTERM: "truecolor" })).toBe("256color");
		expect(linux({ PI_TRUE_COLOR: "1" })).toBe("truecolor");
		expect(linux({}, true)).toBe("truecolor");
		expect(linux({ COLORTERM: "truecolor" }, false)).toBe("256color");
		expect(detectColorSupport({}, "auto", "win32").mode).toBe("truecolor");
	});

	test("256-colour approximation: the cube, or the grey ramp for nearly neutral colours", () => {
		expect(hexToAnsi256("#000000")).toBe(16);
		expect(hexToAnsi256("#ffffff")).toBe(231);
		expect(hexToAnsi256("#ff0000")).toBe(196);
		expect(hexToAnsi256("#808080")).toBe(244);
		expect(hexToAnsi256("#5f87af")).toBe(67);
		// pi 0.87.1 sends these for its dark theme's dim, accent and success colours.
		expect(hexToAnsi256("#666666")).toBe(241);
		expect(hexToAnsi256("#8abeb7")).toBe(109);
		expect(hexToAnsi256("#b5bd68")).toBe(143);
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

describe("the run's theme", () => {
	test("a setting names it; 'light/dark' follows the terminal background (COLORFGBG)", () => {
		expect(chooseThemeName(undefined, "light")).toBe("light");
		expect(chooseThemeName("mine", "light")).toBe("mine");
		expect(chooseThemeName("solar / night", "light")).toBe("solar");
		expect(chooseThemeName("solar/night", "dark")).toBe("night");
		expect(chooseThemeName("a/b/c", "dark")).toBeUndefined();
		expect(terminalBackground({ COLORFGBG: "0;15" })).toBe("light");
		expect(terminalBackground({ COLORFGBG: "15;0" })).toBe("dark");
		expect(terminalBackground({ COLORFGBG: "15;default;0" })).toBe("dark");
		expect(terminalBackground({})).toBe("dark");
	});

	test("looked up in the source, then built-ins and <agentDir>/themes; unknown names fall back to dark", () => {
		const home = makeTempDir();
		const agentDir = join(home, "agent");
		writeTree(agentDir, { "themes/file.json": JSON.stringify({ name: "file", colors: fullColors("#010203") }) });
		const saved = process.env.PI_CODING_AGENT_DIR;
		process.env.PI_CODING_AGENT_DIR = agentDir;
		try {
			const mine = new Theme({ ...builtinThemes().light, name: "mine" }, C256);
			const source = { getTheme: (name: string) => (name === "mine" ? mine : undefined) };
			initTheme("mine", { source, support: C256, env: {} });
			expect(currentTheme()).toBe(mine);
			initTheme("light", { source, support: C256, env: {} });
			expect(currentTheme().name).toBe("light");
			initTheme("file", { support: TRUE, env: {} });
			expect(currentTheme().fg("accent", "x")).toBe("\x1b[38;2;1;2;3mx\x1b[39m");
			initTheme("missing", { support: C256, env: {} });
			expect(currentTheme().name).toBe("dark");
			initTheme(undefined, { support: C256, env: { COLORFGBG: "0;15" } });
			expect(currentTheme().name).toBe("light");
			expect(currentTheme()).toBe(currentTheme());
		} finally {
			if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
			else process.env.PI_CODING_AGENT_DIR = saved;
			initTheme();
		}
	});
});
