/**
 * `/settings` in our interactive mode (the compiled binary in a pseudo-terminal, the mock LLM): a switch saved to
 * settings.json and applied, the theme list previewing while moving (Escape restores, Enter saves; the chosen user
 * theme's file is then watched), a remapped
 * `tui.select.down` key, a change that a `pi -p` started afterwards in the same HOME obeys, and the same rows as
 * pi 0.87.1's screen.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_THEME_JSON } from "../../src/resources/index.ts";
import { runPiAsync } from "../helpers/binary.ts";
import { reply, settle, submit } from "../helpers/interactive-scenarios.ts";
import { ourAppStarter, type PtyApp, startPi } from "../helpers/pty-app.ts";

const start = ourAppStarter();

function settingsJson(app: PtyApp): Record<string, unknown> {
	const file = join(app.home, ".pi", "agent", "settings.json");
	return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await Bun.sleep(25);
	}
}

const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const selected = (lines: string[], label: string) => lines.some((line) => line.startsWith(`→ ${label}`));

/** The settings rows shown (label and value), without the cursor. */
const rows = (lines: string[]) =>
	lines.filter((line) => /^(→ | {2})\S.*\s{2,}\S+$/.test(line)).map((line) => line.slice(2).replace(/\s+/g, " "));

describe("/settings (ours, in a pseudo-terminal)", () => {
	test("Enter on a switch flips it, saves it to settings.json and applies it; Escape gives the editor back", async () => {
		const app = await start();
		await submit(app, "/settings");
		await app.waitFor((lines) => selected(lines, "Auto-compact"));
		app.type("hide thin");
		await app.waitFor((lines) => selected(lines, "Hide thinking"));
		await app.press("enter");
		await app.waitFor((lines) => lines.some((line) => /^→ Hide thinking\s+true$/.test(line)));
		await until(() => settingsJson(app).hideThinkingBlock === true, "hideThinkingBlock in settings.json");
		expect(settingsJson(app).defaultModel).toBe("mock-1");
		await app.press("escape");
		await app.waitFor((lines) => !lines.some((line) => line.includes("Hide thinking")));
		app.type("still here");
		await app.waitFor("still here");
	}, 60_000);

	test("TUI mode switches the running app to the alternate screen and back, saved as tuiMode", async () => {
		const app = await start();
		await submit(app, "/settings");
		await app.waitFor((lines) => selected(lines, "Auto-compact"));
		app.type("tui mode");
		await app.waitFor((lines) => selected(lines, "TUI mode"));
		const before = app.output().length;
		await app.press("enter");
		await app.waitFor((lines) => lines.some((line) => /^→ TUI mode\s+fullscreen$/.test(line)));
		await until(() => app.output().slice(before).includes("\x1b[?1049h"), "the alternate screen");
		await until(() => settingsJson(app).tuiMode === "fullscreen", "tuiMode in settings.json");
		const back = app.output().length;
		await app.press("enter");
		await until(() => app.output().slice(back).includes("\x1b[?1049l"), "the main screen again");
		await until(() => settingsJson(app).tuiMode === "regular", "tuiMode regular in settings.json");
	}, 60_000);

	test("the theme list previews the highlighted theme; Escape restores the old one, Enter saves", async () => {
		const neon = JSON.parse(JSON.stringify(BUILTIN_THEME_JSON.dark)) as {
			name: string;
			colors: Record<string, unknown>;
		};
		neon.name = "neon";
		neon.colors.accent = "#123456";
		const neonAccent = "38;2;18;52;86";
		const app = await start({
			env: { COLORTERM: "truecolor" },
			homeFiles: { ".pi/agent/themes/neon.json": JSON.stringify(neon) },
		});
		expect(app.output()).not.toContain(neonAccent);
		await submit(app, "/settings");
		app.type("theme");
		await app.waitFor((lines) => selected(lines, "Theme"));
		await app.press("enter");
		await app.waitFor("Select a theme, or choose Automatic");
		await app.waitFor((lines) => lines.some((line) => /^→ ✓ dark/.test(line)));
		await app.press("down", "down");
		await app.waitFor((lines) => lines.some((line) => /^→ {3}neon/.test(line)));
		await until(() => app.output().includes(neonAccent), "the neon preview");
		await app.press("escape");
		await app.waitFor((lines) => selected(lines, "Theme") && !lines.some((l) => l.includes("Select a theme")));
		const afterEscape = app.output().length;
		// Something drawn in the accent colour after Escape is drawn in dark's accent again.
		await app.press("down");
		await settle(app);
		expect(app.output().slice(afterEscape)).not.toContain(neonAccent);
		expect(settingsJson(app).theme).toBeUndefined();
		await app.press("up", "enter");
		await app.waitFor("Select a theme, or choose Automatic");
		await app.press("down", "down", "enter");
		await until(() => settingsJson(app).theme === "neon", "theme neon in settings.json");
		await app.waitFor((lines) => lines.some((line) => /^→ Theme\s+neon$/.test(line)));
		// The chosen user theme's file is watched from now on: saving it redraws in its new colours.
		neon.colors.accent = "#654321";
		await Bun.write(join(app.home, ".pi/agent/themes/neon.json"), JSON.stringify(neon));
		await until(() => app.output().includes("38;2;101;67;33"), "the edited neon theme");
	}, 60_000);

	test("a remapped tui.select.down moves the list; a change made here is what a later `pi -p` uses", async () => {
		const app = await start({
			homeFiles: { ".pi/agent/keybindings.json": JSON.stringify({ "tui.select.down": ["ctrl+n"] }) },
		});
		await Bun.write(join(app.cwd, "pic.png"), Buffer.from(PNG_1X1, "base64"));
		await submit(app, "/settings");
		await app.waitFor((lines) => selected(lines, "Auto-compact"));
		await app.press("ctrl+n", "ctrl+n");
		await app.waitFor((lines) => selected(lines, "Block images"));
		await app.press("enter");
		await until(
			() => (settingsJson(app).images as { blockImages?: boolean } | undefined)?.blockImages === true,
			"images.blockImages in settings.json",
		);
		app.mock.push(reply("seen it"));
		const run = await runPiAsync(["-p", "@pic.png", "describe"], {
			home: app.home,
			cwd: app.cwd,
			env: {
				PI_OFFLINE: "1",
				HTTP_PROXY: "http://127.0.0.1:9",
				HTTPS_PROXY: "http://127.0.0.1:9",
				NO_PROXY: "127.0.0.1,localhost",
			},
		});
		expect(run.stderr).toBe("");
		expect(run.stdout).toContain("seen it");
		const body = JSON.stringify(app.mock.requests.at(-1)?.body);
		expect(body).toContain("Image reading is disabled.");
		expect(body).not.toContain('"type":"image"');
	}, 60_000);

	test("the screen lists the same first rows as pi 0.87.1's", async () => {
		const pi = await startPi();
		if ("skip" in pi) {
			console.log(`skipped: ${pi.skip}`);
			return;
		}
		start.track(pi);
		await pi.ready();
		const ours = await start();
		const screens: string[][] = [];
		for (const app of [pi, ours]) {
			await submit(app, "/settings");
			await app.waitFor((lines) => selected(lines, "Auto-compact"));
			screens.push(rows(await settle(app)));
		}
		expect(screens[1]).toEqual(screens[0] as string[]);
		expect(screens[0]?.length).toBeGreaterThanOrEqual(10);
	}, 60_000);
});
