/**
 * Settings `packages` (local paths: string and object forms, per-type filters, an `autoload: false` project delta)
 * through `DefaultResourceLoader`: the same script against ours and pi 0.87.1's. What loads and the source info of
 * each skill, prompt template and extension must be the same.
 */
import { describe, expect, test } from "bun:test";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { type PiReference, piReference, runSideBySide } from "../../support/pi-reference.ts";

const pi = piReference("packages-vs-pi");

const SCRIPT = `
const fs = await import("node:fs");
const path = await import("node:path");
const root = args.dir;
const write = (rel, text) => { const p = path.join(root, rel); fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, text); return p; };
const agentDir = path.join(root, "agent");
const cwd = path.join(root, "proj");
const cmd = (name) => "export default function (pi) { pi.registerCommand('" + name + "', { description: 'd', handler: async () => {} }); }\\n";
const skill = (name) => "---\\nname: " + name + "\\ndescription: " + name + " skill\\n---\\nBody\\n";
const prompt = (text) => "---\\ndescription: " + text + "\\n---\\n" + text + "\\n";
const pkg = (dir, tag) => {
	write(dir + "/extensions/" + tag + "-one.ts", cmd(tag + "-one"));
	write(dir + "/extensions/" + tag + "-two.ts", cmd(tag + "-two"));
	write(dir + "/skills/" + tag + "-s1/SKILL.md", skill(tag + "-s1"));
	write(dir + "/skills/" + tag + "-s2/SKILL.md", skill(tag + "-s2"));
	write(dir + "/prompts/" + tag + "1.md", prompt(tag + " one"));
	write(dir + "/prompts/" + tag + "2.md", prompt(tag + " two"));
};
pkg("agent/pkgs/a", "a");
pkg("agent/pkgs/b", "b");
pkg("agent/pkgs/c", "c");
pkg("proj/local-pkg", "p");
write("agent/pkgs/m/package.json", JSON.stringify({ name: "m", pi: { extensions: ["./src/main.ts"], prompts: ["./docs/*.md", "!./docs/skip.md"], skills: ["./sk"] } }));
write("agent/pkgs/m/src/main.ts", cmd("m-main"));
write("agent/pkgs/m/docs/m1.md", prompt("m one"));
write("agent/pkgs/m/docs/skip.md", prompt("m skip"));
write("agent/pkgs/m/sk/m-s/SKILL.md", skill("m-s"));
// A manifest that lists only extensions, and a conventional prompts/ folder: the object form reads it, as pi does.
write("agent/pkgs/n/package.json", JSON.stringify({ name: "n", pi: { extensions: ["./src"] } }));
write("agent/pkgs/n/src/n-main.ts", cmd("n-main"));
write("agent/pkgs/n/prompts/n1.md", prompt("n one"));
write("agent/pkgs/n/skills/n-s/SKILL.md", skill("n-s"));
write("agent/settings.json", JSON.stringify({ packages: [
	"./pkgs/a",
	{ source: "./pkgs/b", extensions: ["extensions/*.ts", "!extensions/b-two.ts"], skills: [], prompts: ["prompts/b1.md"] },
	{ source: "./pkgs/c", skills: ["-skills/c-s2"], prompts: ["!**/c2.md", "+prompts/c2.md", "-prompts/c1.md"] },
	{ source: "./pkgs/m", prompts: ["docs/*.md"] },
	{ source: "./pkgs/n", skills: [] },
] }));
write("proj/.pi/settings.json", JSON.stringify({ packages: [
	"../local-pkg",
	{ source: "../../agent/pkgs/a", autoload: false, extensions: ["-extensions/a-one.ts"], prompts: ["!prompts/a2.md"] },
] }));
const settingsManager = pi.SettingsManager.create(cwd, agentDir, { projectTrusted: true });
const rel = (p) => (p && p.startsWith(root) ? path.relative(root, p) : p);
const info = (s) => s ? { path: rel(s.path), source: s.source, scope: s.scope, origin: s.origin, baseDir: rel(s.baseDir) } : null;
const loader = new pi.DefaultResourceLoader({ cwd, agentDir, settingsManager });
await loader.reload();
return {
	skills: loader.getSkills().skills.map((s) => ({ name: s.name, info: info(s.sourceInfo) })).sort((x, y) => x.name.localeCompare(y.name)),
	prompts: loader.getPrompts().prompts.map((p) => ({ name: p.name, info: info(p.sourceInfo) })).sort((x, y) => x.name.localeCompare(y.name)),
	extensions: loader.getExtensions().extensions.map((e) => ({ file: rel(e.path), commands: [...e.commands.keys()], info: info(e.sourceInfo) })).sort((x, y) => x.file.localeCompare(y.file)),
	errors: loader.getExtensions().errors.map((e) => e.error),
};
`;

describe("settings packages through DefaultResourceLoader", () => {
	(pi ? test : test.skip)(
		"load the same resources with the same source info as pi 0.87.1",
		async () => {
			const { expected, actual } = await runSideBySide(pi as PiReference, ours, SCRIPT, { prefix: "pi-pkgs" });
			expect(actual).toEqual(expected as never);
		},
		120_000,
	);
});
