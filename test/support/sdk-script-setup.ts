/**
 * The opening of the SDK scripts run against pi 0.87.1 and ours (test/unit/sdk/*-vs-pi.test.ts): an agent dir
 * whose models.json points at the mock LLM (`args.baseUrl`), settings choosing that model, and a global extension
 * that records its session events, a command and a tool in `globalThis.__extLog`. Expects `args.dir` (root).
 */
export const SETUP = `
const fs = await import("node:fs");
const path = await import("node:path");
const root = args.dir;
const write = (rel, text) => { const p = path.join(root, rel); fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, text); return p; };
const agentDir = path.join(root, "agent");
const cwd = path.join(root, "proj");
fs.mkdirSync(cwd, { recursive: true });
write("agent/models.json", JSON.stringify({ providers: { mock: { baseUrl: args.baseUrl, api: "anthropic-messages", apiKey: "mock-key",
	models: [{ id: "mock-1", reasoning: true, input: ["text"] }] } } }));
write("agent/settings.json", JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-1" }));
globalThis.__extLog = [];
write("agent/extensions/ext.ts", [
	"export default function (pi) {",
	"  const log = (line) => globalThis.__extLog.push(line);",
	"  pi.on('session_start', (e, ctx) => log('start:' + e.reason + (e.previousSessionFile ? ':prev' : '') + ':' + ctx.mode + ':' + ctx.hasUI));",
	"  pi.on('session_shutdown', (e) => log('shutdown:' + e.reason + (e.targetSessionFile ? ':target' : '')));",
	"  pi.on('session_before_switch', (e) => { log('before_switch:' + e.reason); if (globalThis.__cancelSwitch) return { cancel: true }; });",
	"  pi.on('agent_end', () => log('agent_end'));",
	"  pi.registerCommand('hello', { description: 'hi', handler: async (args, ctx) => { log('hello:' + args + ':' + ctx.cwd.endsWith('proj') + ':' + (await ctx.ui.select('Pick', ['a', 'b']))); } });",
	"  pi.registerTool({ name: 'where', label: 'Where', description: 'cwd', parameters: { type: 'object', properties: {} }, execute: async () => ({ content: [{ type: 'text', text: 'here' }], details: {} }) });",
	"}",
].join("\\n"));
const roles = (messages) => messages.map((m) => m.role);
`;
