/**
 * pi 0.87.1's side of the transcript pictures, run by Node 22 (type stripping): pi's dark theme, pi's app
 * keybindings, pi's components and built-in tool definitions. Input from PI_TRANSCRIPT (JSON: modules, cwd,
 * widths, out); writes the pictures as JSON to `out`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { drawTranscriptPictures } from "./cases.ts";

const input = JSON.parse(process.env.PI_TRANSCRIPT ?? "{}") as {
	modules: string;
	cwd: string;
	widths: number[];
	out: string;
};
const load = (path: string) => import(pathToFileURL(path).href);
const dist = join(input.modules, "@earendil-works", "pi-coding-agent", "dist");
const agent = await load(join(dist, "index.js"));
const themeModule = await load(join(dist, "modes", "interactive", "theme", "theme.js"));
const { KeybindingsManager } = await load(join(dist, "core", "keybindings.js"));
const tui = await load(join(input.modules, "@earendil-works", "pi-tui", "dist", "index.js"));

themeModule.initTheme("dark");
tui.setKeybindings(new KeybindingsManager());

const cwd = input.cwd;
const tools = {
	bash: agent.createBashToolDefinition(cwd),
	read: agent.createReadToolDefinition(cwd),
	edit: agent.createEditToolDefinition(cwd),
	write: agent.createWriteToolDefinition(cwd),
	grep: agent.createGrepToolDefinition(cwd),
	find: agent.createFindToolDefinition(cwd),
	ls: agent.createLsToolDefinition(cwd),
};
const pictures = await drawTranscriptPictures(
	{ ...agent, Text: tui.Text, Container: tui.Container, tools },
	cwd,
	input.widths,
);
writeFileSync(input.out, JSON.stringify(pictures));
process.exit(0);
