/**
 * pi's session SDK — `createAgentSession`, `createAgentSessionFromServices`, `AgentSessionRuntime` /
 * `createAgentSessionRuntime` — the same script against ours (in process) and pi 0.87.1's (under Node 22), each
 * talking to its own mock LLM process on loopback: what the script observes (model, tools, replies, messages,
 * events, extension events, session files) must be the same.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { startMockProcess } from "../../support/mock-llm-process.ts";
import { piReference } from "../../support/pi-reference.ts";
import { SETUP } from "../../support/sdk-script-setup.ts";

const pi = piReference("session-runtime-vs-pi");
const dirs: string[] = [];
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	dirs.push(dir);
	return dir;
}

const CREATE_SESSION = `${SETUP}
const { session, extensionsResult, modelFallbackMessage } = await pi.createAgentSession({
	cwd, agentDir, sessionManager: pi.SessionManager.inMemory(cwd), thinkingLevel: "low",
});
const events = [];
session.subscribe((e) => events.push(e.type));
await session.bindExtensions({ mode: "json", uiContext: { select: async (title, options) => title + "=" + options[1], notify: () => {} } });
await session.prompt("hi there");
await session.prompt("/hello world");
const observed = {
	model: [session.model.provider, session.model.id], thinking: session.thinkingLevel,
	tools: session.getActiveToolNames(), text: session.getLastAssistantText(), roles: roles(session.messages),
	stateRoles: roles(session.state.messages),
	extensions: extensionsResult.extensions.map((e) => path.basename(e.path)), errors: extensionsResult.errors,
	fallback: modelFallbackMessage ?? null,
	events: [...new Set(events)].sort(), log: [...globalThis.__extLog],
	entries: session.sessionManager.getEntries().map((e) => e.type),
};
session.dispose();
return observed;
`;

const RUNTIME = `${SETUP}
const createRuntime = async ({ cwd, agentDir, sessionManager, sessionStartEvent }) => {
	const services = await pi.createAgentSessionServices({ cwd, agentDir });
	return { ...(await pi.createAgentSessionFromServices({ services, sessionManager, sessionStartEvent, tools: ["read", "where"] })),
		services, diagnostics: services.diagnostics };
};
const sessions = path.join(root, "sessions");
const runtime = await pi.createAgentSessionRuntime(createRuntime, { cwd, agentDir, sessionManager: pi.SessionManager.create(cwd, sessions) });
const seen = [];
const bind = async () => { await runtime.session.bindExtensions({}); seen.push([runtime.session.getActiveToolNames(), roles(runtime.session.messages)]); };
await bind();
await runtime.session.prompt("first prompt");
const firstFile = runtime.session.sessionFile;
const first = runtime.session;
await runtime.newSession();
await bind();
const replaced = runtime.session !== first;
await runtime.session.prompt("second prompt");
const secondFile = runtime.session.sessionFile;
await runtime.switchSession(firstFile);
await bind();
const back = runtime.session.sessionFile === firstFile;
const text = runtime.session.getLastAssistantText();
const userEntry = runtime.session.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");
const forked = await runtime.fork(userEntry.id);
await bind();
const forkRoles = roles(runtime.session.messages);
await runtime.dispose();
return {
	seen, replaced, back, text, forked, forkRoles, distinct: firstFile !== secondFile,
	files: fs.readdirSync(sessions).length, cwd: path.relative(root, runtime.cwd), diagnostics: runtime.diagnostics,
	log: [...globalThis.__extLog],
};
`;

const IMPORT = `${SETUP}
const createRuntime = async ({ cwd, agentDir, sessionManager, sessionStartEvent }) => {
	const services = await pi.createAgentSessionServices({ cwd, agentDir });
	return { ...(await pi.createAgentSessionFromServices({ services, sessionManager, sessionStartEvent })),
		services, diagnostics: services.diagnostics };
};
const sessions = path.join(root, "sessions");
const runtime = await pi.createAgentSessionRuntime(createRuntime, { cwd, agentDir, sessionManager: pi.SessionManager.create(cwd, sessions) });
await runtime.session.bindExtensions({});
await runtime.session.prompt("to be exported");
const exported = path.join(root, "exported.jsonl");
fs.copyFileSync(runtime.session.sessionFile, exported);
globalThis.__cancelSwitch = true;
const cancelled = await runtime.newSession();
const cancelledImport = await runtime.importFromJsonl(exported);
globalThis.__cancelSwitch = false;
const imported = await runtime.importFromJsonl(exported);
await runtime.session.bindExtensions({});
const file = path.basename(runtime.session.sessionFile);
let missing = null;
try { await runtime.importFromJsonl(path.join(root, "nope.jsonl")); } catch (e) { missing = [e.name, e.message === "File not found: " + path.join(root, "nope.jsonl")]; }
const result = { cancelled, cancelledImport, imported, file, missing, roles: roles(runtime.session.messages),
	files: fs.readdirSync(sessions).filter((f) => f.endsWith(".jsonl")).length, log: [...globalThis.__extLog] };
await runtime.dispose();
return result;
`;

const SESSIONS = `${SETUP}
const sessions = path.join(root, "sessions");
const a = await pi.createAgentSession({ cwd, agentDir, sessionManager: pi.SessionManager.create(cwd, sessions) });
await a.session.prompt("saved question");
const file = a.session.sessionFile;
a.session.dispose();
const b = await pi.createAgentSession({ cwd, agentDir, sessionManager: pi.SessionManager.continueRecent(cwd, sessions) });
const continued = b.session.sessionFile === file;
const restored = roles(b.session.messages);
const restoredModel = [b.session.model.id, b.session.thinkingLevel, b.modelFallbackMessage ?? null];
b.session.dispose();
const list = await pi.SessionManager.list(cwd, sessions);
const c = await pi.createAgentSession({ cwd, agentDir, sessionManager: pi.SessionManager.open(list[0].path) });
const opened = c.session.sessionId === list[0].id;
await c.session.prompt("one more");
const after = roles(c.session.messages);
const text = c.session.getLastAssistantText();
c.session.dispose();
const reread = pi.SessionManager.open(file).getEntries().map((e) => e.type);
return { continued, restored, restoredModel, count: list.length, opened, after, text, reread };
`;

async function both(script: string, replies: string[]): Promise<{ theirs: unknown; mine: unknown }> {
	const theirDir = tempDir("pi-sdk-theirs-");
	const myDir = tempDir("pi-sdk-ours-");
	const theirServer = await startMockProcess(theirDir, replies);
	const myServer = await startMockProcess(myDir, replies);
	const saved = process.env.HOME;
	try {
		const theirs = pi?.run(script, { dir: theirDir, baseUrl: theirServer.url }, { HOME: theirDir, PI_OFFLINE: "1" });
		process.env.HOME = myDir;
		const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
		const mine = await new AsyncFunction("pi", "args", script)(ours, { dir: myDir, baseUrl: myServer.url });
		if (process.env.SHOW) console.log(JSON.stringify({ theirs, mine }, null, 1));
		return { theirs, mine: JSON.parse(JSON.stringify(mine)) };
	} finally {
		process.env.HOME = saved;
		theirServer.stop();
		myServer.stop();
	}
}

describe("pi's session SDK, side by side with pi 0.87.1", () => {
	(pi ? test : test.skip)(
		"createAgentSession: model, tools, a prompt, an extension command, events and extension events",
		async () => {
			const { theirs, mine } = await both(CREATE_SESSION, ["Hello from the mock."]);
			expect(mine).toEqual(theirs as never);
		},
		90_000,
	);

	(pi ? test : test.skip)(
		"AgentSessionRuntime: newSession, switchSession and fork replace the session as pi's do",
		async () => {
			const { theirs, mine } = await both(RUNTIME, ["One.", "Two."]);
			expect(mine).toEqual(theirs as never);
		},
		90_000,
	);

	(pi ? test : test.skip)(
		"AgentSessionRuntime: an extension cancels a replacement; importFromJsonl copies the file in and switches to it",
		async () => {
			const { theirs, mine } = await both(IMPORT, ["Exported reply."]);
			expect(mine).toEqual(theirs as never);
		},
		90_000,
	);

	(pi ? test : test.skip)(
		"sessions: save, continue the most recent, list and open it again after dispose (the 11-sessions example)",
		async () => {
			const { theirs, mine } = await both(SESSIONS, ["Saved answer.", "Second answer."]);
			expect(mine).toEqual(theirs as never);
		},
		90_000,
	);
});
