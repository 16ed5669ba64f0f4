/** `DefaultResourceLoader` and `discoverAndLoadExtensions`: the same script against ours and pi 0.87.1's. */
import { describe, expect, test } from "bun:test";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { type PiReference, piReference, runSideBySide } from "../../support/pi-reference.ts";

const pi = piReference("resource-loader-vs-pi");

const SCRIPT = `
const fs = await import("node:fs");
const path = await import("node:path");
const root = args.dir;
const write = (rel, text) => { const p = path.join(root, rel); fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, text); return p; };
const agentDir = path.join(root, "agent");
const cwd = path.join(root, "proj");
write("agent/skills/alpha/SKILL.md", "---\\nname: alpha\\ndescription: Alpha skill\\n---\\nA\\n");
write("agent/prompts/review.md", "---\\ndescription: Review code\\n---\\nReview $1\\n");
write("agent/AGENTS.md", "global rules");
write("proj/AGENTS.md", "project rules");
write("proj/.pi/SYSTEM.md", "custom system prompt");
write("agent/APPEND_SYSTEM.md", "appended text");
write("extra-skills/beta/SKILL.md", "---\\nname: beta\\ndescription: Beta skill\\n---\\nB\\n");
write("agent/extensions/hello.ts", "export default function (pi) { pi.registerCommand('hello', { description: 'Say hi', handler: async () => {} }); pi.registerTool({ name: 'greet', label: 'Greet', description: 'Greets', parameters: { type: 'object', properties: {} }, execute: async () => ({ content: [], details: undefined }) }); pi.on('session_start', () => {}); }\\n");
write("agent/extensions/broken.ts", "export default function () { throw new Error('boom'); }\\n");
const settingsManager = pi.SettingsManager.inMemory({}, { projectTrusted: true });
const summary = (loader) => ({
	skills: loader.getSkills().skills.map((s) => s.name).sort(),
	prompts: loader.getPrompts().prompts.map((p) => p.name).sort(),
	agents: loader.getAgentsFiles().agentsFiles.map((f) => [path.relative(root, f.path), f.content]),
	system: loader.getSystemPrompt() ?? null,
	systemSource: loader.getSystemPromptSource() ? path.relative(root, loader.getSystemPromptSource().path) : null,
	append: loader.getAppendSystemPrompt(),
	appendSources: loader.getAppendSystemPromptSources().map((s) => path.relative(root, s.path)),
	extensions: loader.getExtensions().extensions.map((e) => ({
		file: e.path.startsWith("<") ? "inline" : path.basename(e.path),
		tools: [...e.tools.keys()], commands: [...e.commands.keys()], events: [...e.handlers.keys()],
	})).sort((a, b) => a.file.localeCompare(b.file)),
	errors: loader.getExtensions().errors.map((e) => path.basename(e.path)),
});
const loader = new pi.DefaultResourceLoader({ cwd, agentDir, settingsManager,
	additionalSkillPaths: [path.join(root, "extra-skills")],
	extensionFactories: [(api) => { api.registerCommand("inline-cmd", { description: "x", handler: async () => {} }); }],
});
const before = loader.getSkills().skills.length;
await loader.reload();
const first = summary(loader);
const custom = new pi.DefaultResourceLoader({ cwd, agentDir, settingsManager, noExtensions: true, noSkills: true, noContextFiles: true,
	systemPrompt: "given prompt", appendSystemPrompt: ["one", "two"],
	promptsOverride: (base) => ({ prompts: [], diagnostics: base.diagnostics }),
	systemPromptOverride: (base) => base + "!",
});
await custom.reload();
const second = summary(custom);
const discovered = await pi.discoverAndLoadExtensions([], cwd, agentDir);
const third = discovered.extensions.map((e) => path.basename(e.path)).sort();
return { before, first, second, third, thirdErrors: discovered.errors.length };
`;

describe("DefaultResourceLoader", () => {
	(pi ? test : test.skip)(
		"finds the same skills, prompts, context files, system prompts and extensions as pi 0.87.1's",
		async () => {
			const { expected, actual } = await runSideBySide(pi as PiReference, ours, SCRIPT, { prefix: "pi-drl" });
			expect(actual).toEqual(expected as never);
		},
		60_000,
	);
});
