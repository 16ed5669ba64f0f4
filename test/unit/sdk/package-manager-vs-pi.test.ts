/**
 * `DefaultPackageManager` on local-path packages: the same script against ours and pi 0.87.1's (configured
 * packages, `resolve()` with packages, settings lists and conventional folders, settings edits, installed paths,
 * `installAndPersist`/`removeAndPersist` of a local path and their progress events) must give the same results.
 */
import { describe, expect, test } from "bun:test";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { type PiReference, piReference, runSideBySide } from "../../support/pi-reference.ts";

const pi = piReference("package-manager-vs-pi");

const SCRIPT = `
const fs = await import("node:fs");
const path = await import("node:path");
const root = args.dir;
const write = (rel, text) => { const p = path.join(root, rel); fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, text); return p; };
const agentDir = path.join(root, "agent");
const cwd = path.join(root, "proj");
const cmd = "export default function (pi) {}\\n";
const skill = (name) => "---\\nname: " + name + "\\ndescription: " + name + " skill\\n---\\nBody\\n";
const prompt = (text) => "---\\ndescription: " + text + "\\n---\\n" + text + "\\n";
const pkg = (dir, tag) => {
	write(dir + "/extensions/" + tag + "-one.ts", cmd);
	write(dir + "/extensions/" + tag + "-two.ts", cmd);
	write(dir + "/skills/" + tag + "-s1/SKILL.md", skill(tag + "-s1"));
	write(dir + "/prompts/" + tag + "1.md", prompt(tag + " one"));
	write(dir + "/prompts/" + tag + "2.md", prompt(tag + " two"));
	write(dir + "/themes/" + tag + ".json", "{}");
};
pkg("agent/pkgs/a", "a");
pkg("agent/pkgs/b", "b");
pkg("proj/local-pkg", "p");
pkg("proj/extra", "x");
write("agent/pkgs/m/package.json", JSON.stringify({ name: "m", pi: { extensions: ["./src/main.ts"], prompts: ["./docs/*.md"] } }));
write("agent/pkgs/m/src/main.ts", cmd);
write("agent/pkgs/m/docs/m1.md", prompt("m one"));
write("agent/pkgs/m/docs/skip.md", prompt("m skip"));
write("agent/single.ts", cmd);
write("agent/extensions/auto-user.ts", cmd);
write("agent/extensions/auto-off.ts", cmd);
write("agent/prompts/u1.md", prompt("u one"));
write("agent/skills/us/SKILL.md", skill("us"));
write("agent/more/listed.md", prompt("listed"));
write("proj/.pi/extensions/auto-proj.ts", cmd);
write("proj/.pi/prompts/pp.md", prompt("pp"));
write("agent/settings.json", JSON.stringify({
	extensions: ["!extensions/auto-off.ts"],
	prompts: ["./more", "!prompts/u1.md"],
	skills: ["-skills/us/SKILL.md"],
	themes: ["./nothere.json"],
	packages: [
		"./pkgs/a",
		{ source: "./pkgs/b", extensions: ["extensions/*.ts", "!extensions/b-two.ts"], skills: [], prompts: ["prompts/b1.md"] },
		{ source: "./pkgs/m", prompts: ["!docs/skip.md"] },
		"./single.ts",
		"npm:not-installed-pkg@1.0.0",
	],
}));
write("proj/.pi/settings.json", JSON.stringify({ packages: [
	"../local-pkg",
	{ source: "../../agent/pkgs/a", autoload: false, extensions: ["-extensions/a-one.ts"] },
] }));
const settingsManager = pi.SettingsManager.create(cwd, agentDir, { projectTrusted: true });
const manager = new pi.DefaultPackageManager({ cwd, agentDir, settingsManager });
const rel = (p) => (typeof p === "string" && p.startsWith(root) ? path.relative(root, p) : p);
const paths = (list) => list.map((r) => ({ path: rel(r.path), enabled: r.enabled, source: r.metadata.source, scope: r.metadata.scope, origin: r.metadata.origin, baseDir: rel(r.metadata.baseDir) }));
const resolved = async (onMissing) => {
	const r = await manager.resolve(onMissing);
	return { extensions: paths(r.extensions), skills: paths(r.skills), prompts: paths(r.prompts), themes: paths(r.themes) };
};
const listed = () => manager.listConfiguredPackages().map((p) => ({ ...p, installedPath: rel(p.installedPath) }));
const settingsFiles = async () => {
	await settingsManager.flush();
	const read = (p) => JSON.parse(fs.readFileSync(path.join(root, p), "utf8")).packages;
	return { user: read("agent/settings.json"), project: read("proj/.pi/settings.json") };
};
const events = [];
manager.setProgressCallback((e) => events.push({ ...e, source: rel(e.source) }));
const out = {};
out.listed = listed();
const asked = [];
out.resolved = await resolved(async (source) => { asked.push(source); return "skip"; });
out.asked = asked;
out.missingError = await manager.resolve(async () => "error").then(() => "resolved", (e) => e.message);
out.installed = {
	a: rel(manager.getInstalledPath("./pkgs/a", "user")),
	local: rel(manager.getInstalledPath("../local-pkg", "project")),
	gone: manager.getInstalledPath("./pkgs/gone", "user") ?? null,
	npm: manager.getInstalledPath("npm:not-installed-pkg", "user") ?? null,
	git: manager.getInstalledPath("git:github.com/o/r", "project") ?? null,
};
out.add = [
	manager.addSourceToSettings("./extra"),
	manager.addSourceToSettings("./extra"),
	manager.addSourceToSettings(path.join(cwd, "extra"), { local: true }),
	manager.addSourceToSettings("npm:some-pkg@1.0.0"),
	manager.addSourceToSettings("npm:some-pkg@2.0.0"),
	manager.addSourceToSettings(agentDir + "/pkgs/b"),
];
out.afterAdd = await settingsFiles();
out.remove = [
	manager.removeSourceFromSettings("./extra"),
	manager.removeSourceFromSettings("./extra"),
	manager.removeSourceFromSettings("npm:some-pkg"),
	manager.removeSourceFromSettings("./extra", { local: true }),
];
out.afterRemove = await settingsFiles();
await manager.installAndPersist("./extra", { local: true });
out.afterInstall = await settingsFiles();
out.listedAfterInstall = listed();
out.resolvedAfterInstall = (await resolved(async () => "skip")).extensions.filter((e) => e.path.startsWith("proj/extra"));
out.removed = await manager.removeAndPersist("./extra", { local: true });
out.removedAgain = await manager.removeAndPersist("./extra", { local: true });
out.afterRemoveAndPersist = await settingsFiles();
out.missingInstall = await manager.install("./nope").then(() => "installed", () => "threw");
out.events = events.map((e) => ({ type: e.type, action: e.action, source: e.source }));
out.sources = rel(JSON.stringify(await manager.resolveExtensionSources([path.join(root, "agent/pkgs/m")], { temporary: true })).split(root).join("<root>"));
const untrustedSettings = pi.SettingsManager.create(cwd, agentDir, { projectTrusted: false });
const untrusted = new pi.DefaultPackageManager({ cwd, agentDir, settingsManager: untrustedSettings });
const message = (f) => { try { return f(); } catch (e) { return e.message; } };
out.untrusted = {
	listed: untrusted.listConfiguredPackages().map((p) => p.source),
	addLocal: message(() => untrusted.addSourceToSettings("./extra", { local: true })),
	installLocal: await untrusted.install("./extra", { local: true }).then(() => "installed", (e) => e.message),
	extensions: (await untrusted.resolve(async () => "skip")).extensions.map((e) => rel(e.path)),
};
return out;
`;

describe("DefaultPackageManager on local packages", () => {
	(pi ? test : test.skip)(
		"configured packages, resolve(), settings edits, installed paths and install/remove match pi 0.87.1",
		async () => {
			const { expected, actual } = await runSideBySide(pi as PiReference, ours, SCRIPT, { prefix: "pi-pm" });
			expect(actual).toEqual(expected as never);
		},
		120_000,
	);
});
