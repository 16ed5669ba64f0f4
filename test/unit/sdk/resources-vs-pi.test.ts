/**
 * Skills, context files, project trust and stored credentials through pi's SDK names: the same script against ours
 * and pi 0.87.1's, each in its own copy of the same folders.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";

const pi = piReference("resources-vs-pi");

const SCRIPT = `
const fs = await import("node:fs");
const path = await import("node:path");
const root = args.dir;
const write = (rel, text) => { const p = path.join(root, rel); fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, text); return p; };
const skill = (name, description, extra = "") => "---\\nname: " + name + "\\ndescription: " + description + "\\n" + extra + "---\\nBody of " + name + "\\n";
const agentDir = path.join(root, "agent");
const cwd = path.join(root, "work", "proj");
write("agent/skills/alpha/SKILL.md", skill("alpha", "User alpha"));
write("agent/skills/loose.md", skill("loose", "A loose user skill"));
write("agent/skills/nodesc.md", "---\\nname: nodesc\\n---\\nno description\\n");
write("work/proj/.pi/skills/alpha/SKILL.md", skill("alpha", "Project alpha"));
write("work/proj/.pi/skills/beta/SKILL.md", skill("beta", "Project beta", "disable-model-invocation: true\\n"));
write("work/proj/.pi/skills/Bad_Name/SKILL.md", skill("Bad_Name", "Invalid name"));
write("extra/gamma/SKILL.md", skill("gamma", "Extra gamma"));
write("extra/one.md", skill("one", "Single file"));
write("extra/notes.txt", "x");
write("agent/AGENTS.md", "global context");
write("work/AGENTS.md", "parent context");
write("work/proj/CLAUDE.md", "project context");
const rel = (v) => JSON.parse(JSON.stringify(v).replaceAll(root, "<root>"));
// Validation messages are our own words; which file got which kind of diagnostic must match.
const sortSkills = (r) => ({ skills: r.skills.map((s) => ({ ...s })).sort((a, b) => a.name.localeCompare(b.name)), diagnostics: r.diagnostics.map((d) => ({ type: d.type, path: d.path, collision: d.collision, message: d.type === "warning" && /name/.test(d.message) ? "<name problem>" : d.message })) });
const fromDir = pi.loadSkillsFromDir({ dir: path.join(agentDir, "skills"), source: "user" });
const all = pi.loadSkills({ cwd, agentDir, skillPaths: [path.join(root, "extra"), path.join(root, "extra/one.md"), path.join(root, "extra/notes.txt"), path.join(root, "missing")], includeDefaults: true });
const onlyPaths = pi.loadSkills({ cwd, agentDir, skillPaths: [path.join(agentDir, "skills", "alpha")], includeDefaults: false });
const context = pi.loadProjectContextFiles({ cwd, agentDir });
const trustRequired = [pi.hasTrustRequiringProjectResources(cwd), pi.hasTrustRequiringProjectResources(path.join(root, "extra"))];
const store = new pi.ProjectTrustStore(agentDir);
const before = [store.get(cwd), store.getEntry(cwd)];
store.set(path.join(root, "work"), true);
store.setMany([{ path: cwd, decision: false }, { path: path.join(root, "extra"), decision: true }]);
const mid = [store.get(cwd), store.getEntry(path.join(cwd, "sub")), store.get(path.join(root, "work", "other"))];
store.set(cwd, null);
const after = [store.get(cwd), store.getEntry(cwd)];
const trustFile = JSON.parse(fs.readFileSync(path.join(agentDir, "trust.json"), "utf8"));
write("agent/auth.json", JSON.stringify({ anthropic: { type: "api_key", key: "sk-1" } }));
const creds = [pi.readStoredCredential("anthropic", path.join(agentDir, "auth.json")), pi.readStoredCredential("openai", path.join(agentDir, "auth.json")) ?? null, pi.readStoredCredential("x", path.join(root, "nope.json")) ?? null];
const err = new pi.CredentialSynchronizationError("openai", "logout", undefined, { cause: new Error("disk") });
const syncError = [err.message, err.name, err.providerId, err.operation, err.cause.message, err instanceof Error];
return rel({ fromDir: sortSkills(fromDir), all: sortSkills(all), onlyPaths: sortSkills(onlyPaths), context, trustRequired, before, mid, after, trustFile, creds, syncError });
`;

describe("skills, context files, trust and credentials", () => {
	(pi ? test : test.skip)(
		"loadSkills, loadSkillsFromDir, loadProjectContextFiles, ProjectTrustStore, readStoredCredential match pi 0.87.1",
		async () => {
			const mine = realpathSync(mkdtempSync(join(tmpdir(), "pi-res-ours-")));
			const theirs = realpathSync(mkdtempSync(join(tmpdir(), "pi-res-theirs-")));
			try {
				const expected = pi?.run(SCRIPT, { dir: theirs }, { HOME: theirs });
				const saved = process.env.HOME;
				process.env.HOME = mine;
				let actual: unknown;
				try {
					const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
					actual = await new AsyncFunction("pi", "args", SCRIPT)(ours, { dir: mine });
				} finally {
					process.env.HOME = saved;
				}
				expect(JSON.parse(JSON.stringify(actual))).toEqual(expected as never);
			} finally {
				rmSync(mine, { recursive: true, force: true });
				rmSync(theirs, { recursive: true, force: true });
			}
		},
		60_000,
	);
});
