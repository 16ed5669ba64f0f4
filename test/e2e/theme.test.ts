/**
 * `ctx.ui.theme` in every mode of the binary, and chalk as the colour engine: an extension (no node_modules
 * anywhere) imports `chalk` and draws with the run's theme; colours follow the theme and the terminal's colour
 * mode, text attributes follow chalk's level (FORCE_COLOR, NO_COLOR, a terminal or not).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RpcClient } from "../../src/modes/rpc/index.ts";
import { THEME_BG_TOKENS, THEME_FG_TOKENS } from "../../src/resources/index.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";

const PROBE = `
import chalk from "chalk";
import { writeFileSync } from "node:fs";
export default function (pi) {
	pi.registerCommand("probe", {
		description: "writes what the theme and chalk give",
		handler: async (_args, ctx) => {
			const t = ctx.ui.theme;
			writeFileSync(process.env.PROBE_OUT, JSON.stringify({
				name: t.name,
				mode: t.getColorMode(),
				fg: t.fg("accent", "x"),
				bg: t.bg("selectedBg", "y"),
				bold: t.bold("b"),
				italic: t.italic("i"),
				chalk: chalk.bold("c"),
				level: chalk.level,
			}));
		},
	});
}
`;

/** Variables that change colour detection; each run starts without them. */
const COLOR_VARS = ["FORCE_COLOR", "NO_COLOR", "COLORTERM", "TERM_PROGRAM", "TMUX", "COLORFGBG", "CI", "TERM"];

function world(settings: Record<string, unknown> = {}) {
	const home = makeTempDir("pi-theme-home-");
	writeTree(home, {
		".pi/agent/extensions/probe.ts": PROBE,
		".pi/agent/settings.json": JSON.stringify(settings),
		".pi/agent/models.json": JSON.stringify({
			providers: {
				mock: { baseUrl: "http://127.0.0.1:9", api: "anthropic-messages", apiKey: "k", models: [{ id: "mock-1" }] },
			},
		}),
	});
	const out = join(home, "probe.json");
	const env = (extra: Record<string, string>): Record<string, string> => {
		const env: Record<string, string> = {};
		for (const [key, value] of Object.entries(process.env)) {
			if (value === undefined || key.startsWith("PI_") || key.endsWith("_API_KEY")) continue;
			if (!COLOR_VARS.includes(key)) env[key] = value;
		}
		return { ...env, HOME: home, TMPDIR: home, PROBE_OUT: out, ...extra };
	};
	const read = () => JSON.parse(readFileSync(out, "utf8")) as Record<string, string | number>;
	return { home, out, env, read };
}

const MODEL = ["--provider", "mock", "--model", "mock-1", "--no-session"];

function run(w: ReturnType<typeof world>, args: string[], extra: Record<string, string> = {}) {
	const proc = Bun.spawnSync([ensureBinary(), ...MODEL, ...args], {
		cwd: w.home,
		env: w.env(extra),
		stdout: "pipe",
		stderr: "pipe",
	});
	expect(proc.stderr.toString()).toBe("");
	expect(proc.exitCode).toBe(0);
	return w.read();
}

const DARK_256 = { fg: "\x1b[38;5;109mx\x1b[39m", bg: "\x1b[48;5;59my\x1b[49m" };

describe("ctx.ui.theme in every mode", () => {
	test("print mode: the default dark theme; colours always, attributes off when stdout is no terminal", () => {
		const w = world();
		expect(run(w, ["-p", "/probe"])).toEqual({
			name: "dark",
			mode: "256color",
			...DARK_256,
			bold: "b",
			italic: "i",
			chalk: "c",
			level: 0,
		});
	});

	test("JSON mode, the theme setting, COLORTERM=truecolor and FORCE_COLOR", () => {
		const w = world({ theme: "light" });
		const probe = run(w, ["--mode", "json", "/probe"], { COLORTERM: "truecolor", FORCE_COLOR: "1" });
		expect(probe).toMatchObject({ name: "light", mode: "truecolor", fg: "\x1b[38;2;90;128;128mx\x1b[39m" });
		expect(probe).toMatchObject({ bold: "\x1b[1mb\x1b[22m", italic: "\x1b[3mi\x1b[23m", chalk: "\x1b[1mc\x1b[22m" });
		expect(probe.level).toBe(1);
	});

	test("'light/dark' follows COLORFGBG; an unknown theme name falls back to dark", () => {
		expect(run(world({ theme: "light/dark" }), ["-p", "/probe"], { COLORFGBG: "0;15" }).name).toBe("light");
		expect(run(world({ theme: "light/dark" }), ["-p", "/probe"], { COLORFGBG: "15;0" }).name).toBe("dark");
		expect(run(world({ theme: "no-such-theme" }), ["-p", "/probe"]).name).toBe("dark");
	});

	test("a custom theme from <agentDir>/themes", () => {
		const w = world({ theme: "mine" });
		const colors = Object.fromEntries([...THEME_FG_TOKENS, ...THEME_BG_TOKENS].map((t) => [t, "#010203"]));
		writeTree(w.home, { ".pi/agent/themes/mine.json": JSON.stringify({ name: "mine", colors }) });
		expect(run(w, ["-p", "/probe"], { PI_TRUE_COLOR: "1" })).toMatchObject({
			name: "mine",
			fg: "\x1b[38;2;1;2;3mx\x1b[39m",
		});
	});

	test("RPC mode", async () => {
		const w = world();
		const client = new RpcClient({
			cliPath: ensureBinary(),
			cwd: w.home,
			env: w.env({ FORCE_COLOR: "0" }),
			args: MODEL,
			forwardStderr: false,
		});
		const errors: unknown[] = [];
		client.onEvent((event) => {
			if ((event as { type: string }).type === "extension_error") errors.push(event);
		});
		await client.start();
		try {
			await client.prompt("/probe");
			const end = Date.now() + 10_000;
			while (!existsSync(w.out) && Date.now() < end) await Bun.sleep(20);
			expect(w.read()).toMatchObject({ name: "dark", ...DARK_256, bold: "b", level: 0 });
			expect(errors).toEqual([]);
		} finally {
			await client.stop();
		}
	});
});

describe("chalk follows the terminal", () => {
	const script = Bun.which("script");
	const inTerminal = (w: ReturnType<typeof world>, extra: Record<string, string>) => {
		const command = [ensureBinary(), ...MODEL, "-p", "/probe"].map((a) => `'${a}'`).join(" ");
		const proc = Bun.spawnSync([script as string, "-qec", command, "/dev/null"], {
			cwd: w.home,
			env: w.env({ TERM: "xterm-256color", ...extra }),
			stdout: "pipe",
			stderr: "pipe",
			stdin: "pipe",
		});
		expect(proc.exitCode).toBe(0);
		return w.read();
	};

	if (!script) console.log("chalk in a terminal: skipped, no `script` command (util-linux) to give pi a terminal");
	test.skipIf(!script)("in a terminal chalk detects its level; NO_COLOR turns it off", () => {
		const w = world();
		expect(inTerminal(w, {})).toMatchObject({ level: 2, bold: "\x1b[1mb\x1b[22m", chalk: "\x1b[1mc\x1b[22m" });
		expect(inTerminal(w, { NO_COLOR: "1" })).toMatchObject({ level: 0, bold: "b", chalk: "c", ...DARK_256 });
	});
});
