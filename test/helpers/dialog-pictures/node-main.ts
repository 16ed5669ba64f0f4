/**
 * pi's side of the dialog picture test, run by Node 22 (type stripping) against pi 0.87.1's install: pi's dark
 * theme, pi's app keybindings, its exported ExtensionSelectorComponent, ExtensionInputComponent and
 * ExtensionEditorComponent. Input from PI_DIALOGS (JSON: modules, out); writes the pictures as JSON to `out`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type DialogLib, drawDialogs } from "./cases.ts";

const input = JSON.parse(process.env.PI_DIALOGS ?? "{}") as { modules: string; out: string };
const dist = join(input.modules, "@earendil-works", "pi-coding-agent", "dist");
const load = (path: string) => import(pathToFileURL(path).href);

const themeModule = await load(join(dist, "modes", "interactive", "theme", "theme.js"));
const { KeybindingsManager } = await load(join(dist, "core", "keybindings.js"));
const tui = await load(join(input.modules, "@earendil-works", "pi-tui", "dist", "index.js"));
const agent = await load(join(dist, "index.js"));

themeModule.initTheme("dark");
const keybindings = new KeybindingsManager();
tui.setKeybindings(keybindings);

const lib: DialogLib = {
	Selector: agent.ExtensionSelectorComponent,
	Input: agent.ExtensionInputComponent,
	Editor: agent.ExtensionEditorComponent,
	keybindings,
};

writeFileSync(input.out, JSON.stringify(drawDialogs(lib)));
process.exit(0);
