/**
 * pi's side of the chrome picture test, run by Node 22 (type stripping) against pi 0.87.1's install: pi's dark
 * theme (`initTheme("dark")`), pi's app keybindings, its exported FooterComponent, DynamicBorder, keyHint and
 * rawKeyHint, and its status indicators (from their module; pi does not export them). Input from PI_CHROME (JSON:
 * modules, out); writes the pictures as JSON to `out`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type ChromeLib, drawChrome, FAKE_TUI } from "./cases.ts";

const input = JSON.parse(process.env.PI_CHROME ?? "{}") as { modules: string; out: string };
const dist = join(input.modules, "@earendil-works", "pi-coding-agent", "dist");
const load = (path: string) => import(pathToFileURL(path).href);

const themeModule = await load(join(dist, "modes", "interactive", "theme", "theme.js"));
const { KeybindingsManager } = await load(join(dist, "core", "keybindings.js"));
const tui = await load(join(input.modules, "@earendil-works", "pi-tui", "dist", "index.js"));
const agent = await load(join(dist, "index.js"));
const status = await load(join(dist, "modes", "interactive", "components", "status-indicator.js"));

themeModule.initTheme("dark");
const keybindings = new KeybindingsManager();
tui.setKeybindings(keybindings);

const lib: ChromeLib = {
	Footer: agent.FooterComponent,
	DynamicBorder: agent.DynamicBorder,
	keyHint: agent.keyHint,
	rawKeyHint: agent.rawKeyHint,
	working: (message) => new status.WorkingStatusIndicator(undefined, message),
	compaction: (reason) => new status.CompactionStatusIndicator(undefined, reason),
	branchSummary: () => new status.BranchSummaryStatusIndicator(undefined),
	retry: (attempt, max, delayMs) => new status.RetryStatusIndicator(undefined, attempt, max, delayMs),
	editor: () =>
		new agent.CustomEditor(FAKE_TUI, themeModule.getEditorTheme(), keybindings, { embedWorkingStatus: true }),
};

writeFileSync(input.out, JSON.stringify(drawChrome(lib)));
process.exit(0);
