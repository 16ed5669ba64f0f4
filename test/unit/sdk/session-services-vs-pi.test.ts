/** `createAgentSessionServices` and `wrapRegisteredTool`: the same script against ours and pi 0.87.1's. */
import { describe, expect, test } from "bun:test";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { type PiReference, piReference, runSideBySide } from "../../support/pi-reference.ts";

const pi = piReference("session-services-vs-pi");

const SCRIPT = `
const fs = await import("node:fs");
const path = await import("node:path");
const root = args.dir;
const write = (rel, text) => { const p = path.join(root, rel); fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, text); return p; };
const agentDir = path.join(root, "agent");
const cwd = path.join(root, "proj");
fs.mkdirSync(cwd, { recursive: true });
write("agent/skills/alpha/SKILL.md", "---\\nname: alpha\\ndescription: Alpha skill\\n---\\nA\\n");
write("agent/extensions/ext.ts", [
	"export default function (pi) {",
	"  pi.registerFlag('verbose', { type: 'boolean', description: 'v' });",
	"  pi.registerFlag('name', { type: 'string', description: 'n' });",
	"  pi.registerProvider('myprov', { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', api: 'openai-completions', models: [{ id: 'm1', name: 'M1', reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }] });",
	"  pi.registerTool({ name: 'where', label: 'Where', description: 'cwd of ctx', parameters: { type: 'object', properties: {} }, execute: async (id, params, signal, onUpdate, ctx) => ({ content: [{ type: 'text', text: 'at ' + ctx.cwd }], details: { id } }) });",
	"}",
].join("\\n"));
const services = await pi.createAgentSessionServices({ cwd, agentDir,
	extensionFlagValues: new Map([["verbose", true], ["name", true], ["other", "x"], ["more", true]]) });
const extensions = services.resourceLoader.getExtensions();
const model = services.modelRuntime.getModel("myprov", "m1");
const registered = extensions.extensions[0].tools.get("where");
const tool = pi.wrapRegisteredTool(registered, { createContext: () => ({ cwd: "/from-runner" }) });
const tools = pi.wrapRegisteredTools([registered], { createContext: () => ({ cwd: "/second" }) });
const result = await tool.execute("call-1", {}, undefined, undefined);
const second = await tools[0].execute("call-2", {}, undefined, undefined);
return {
	cwd: path.relative(root, services.cwd), agentDir: path.relative(root, services.agentDir),
	diagnostics: services.diagnostics,
	flagValues: [...extensions.runtime.flagValues],
	pending: extensions.runtime.pendingProviderRegistrations.length,
	model: model ? [model.id, model.provider, model.baseUrl] : null,
	skills: services.resourceLoader.getSkills().skills.map((s) => s.name),
	trusted: services.settingsManager.isProjectTrusted(),
	tool: [tool.name, tool.label, tool.description, result.content, result.details, second.content],
};
`;

describe("createAgentSessionServices", () => {
	(pi ? test : test.skip)(
		"builds the same services, flag values, providers and diagnostics as pi 0.87.1, and wrapped tools get the runner's ctx",
		async () => {
			const { expected, actual } = await runSideBySide(pi as PiReference, ours, SCRIPT, {
				prefix: "pi-svc",
				env: { PI_OFFLINE: "1" },
			});
			expect(actual).toEqual(expected as never);
		},
		60_000,
	);
});
