/**
 * The pi side of the picture comparison, run by Node 22 (type stripping) against pi 0.87.1's install: extensions
 * load through jiti with the same package aliases pi's loader gives them, the theme is pi's dark theme
 * (`initTheme("dark")`), keybindings are pi's app KeybindingsManager, and the editor theme is pi's
 * `getEditorTheme()`. Input from PI_PICTURES (JSON: modules, examplesDir, cwd, widths, out); writes the pictures as
 * JSON to `out`.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { drawPictures } from "./driver.ts";
import type { PictureHost } from "./recorder.ts";
import { SCENARIOS } from "./scenarios.ts";

interface Input {
	modules: string;
	examplesDir: string;
	cwd: string;
	widths: number[];
	out: string;
	only?: string[];
}

const input = JSON.parse(process.env.PI_PICTURES ?? "{}") as Input;
const { modules } = input;
const requireFromPi = createRequire(join(modules, "index.js"));
const load = (path: string) => import(pathToFileURL(path).href);

const codingAgentDist = join(modules, "@earendil-works", "pi-coding-agent", "dist");
const tuiEntry = join(modules, "@earendil-works", "pi-tui", "dist", "index.js");
const aiDist = join(modules, "@earendil-works", "pi-ai", "dist");
const agentCoreEntry = join(modules, "@earendil-works", "pi-agent-core", "dist", "index.js");

const alias: Record<string, string> = {};
for (const scope of ["@earendil-works", "@mariozechner"]) {
	alias[`${scope}/pi-coding-agent`] = join(codingAgentDist, "index.js");
	alias[`${scope}/pi-agent-core`] = agentCoreEntry;
	alias[`${scope}/pi-tui`] = tuiEntry;
	alias[`${scope}/pi-ai/providers/all`] = join(aiDist, "providers", "all.js");
	alias[`${scope}/pi-ai/compat`] = join(aiDist, "compat.js");
	alias[`${scope}/pi-ai/oauth`] = join(aiDist, "oauth.js");
	alias[`${scope}/pi-ai`] = join(aiDist, "compat.js");
}
alias.typebox = requireFromPi.resolve("typebox");
alias["typebox/compile"] = requireFromPi.resolve("typebox/compile");
alias["typebox/value"] = requireFromPi.resolve("typebox/value");

const { createJiti } = await load(requireFromPi.resolve("jiti"));
const themeModule = await load(join(codingAgentDist, "modes", "interactive", "theme", "theme.js"));
const { KeybindingsManager } = await load(join(codingAgentDist, "core", "keybindings.js"));
const tui = await load(tuiEntry);

themeModule.initTheme("dark");
const keybindings = new KeybindingsManager();
tui.setKeybindings(keybindings);

const host: PictureHost = {
	async loadFactory(path) {
		const jiti = createJiti(import.meta.url, { moduleCache: false, alias });
		return await jiti.import(path, { default: true });
	},
	theme: themeModule.theme,
	keybindings,
	editorTheme: () => themeModule.getEditorTheme(),
};

const scenarios = input.only ? SCENARIOS.filter((s) => input.only?.includes(s.name ?? s.extension)) : SCENARIOS;
const pictures = await drawPictures(host, scenarios, input.examplesDir, input.cwd, input.widths);
writeFileSync(input.out, JSON.stringify(pictures));
process.exit(0);
