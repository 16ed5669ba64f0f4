/**
 * System messages through the binary (pi 0.86+): what `before_agent_start`, `context` and `context_with_system`
 * handlers see and change, and what reaches the session file and the request.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { loggedLines, makeTempDir, writeTree } from "../helpers/tmp.ts";
import { type RecordedRequest, startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

const EXTENSION = `
import { appendFileSync } from "node:fs";
const log = (value) => appendFileSync(process.cwd() + "/log.jsonl", JSON.stringify(value) + "\\n");
export default function (pi) {
	pi.on("before_agent_start", (event, ctx) => {
		event.systemPromptOptions.sections.mode = "Plan first.";
		log({ during: ctx.getSystemPrompt().includes("<mode>\\nPlan first.\\n</mode>") });
		if (event.prompt.includes("force")) return { systemPrompt: "FORCED PROMPT" };
	});
	pi.on("context", (event) => {
		log({ context: event.messages.map((m) => m.role) });
	});
	pi.on("context_with_system", (event) => {
		log({ withSystem: event.messages.map((m) => m.role) });
	});
}
`;

function setup() {
	const home = makeTempDir("pi-sysmsg-home-");
	writeMockModels(home, server.url);
	const cwd = makeTempDir("pi-sysmsg-cwd-");
	writeTree(cwd, { "ext.ts": EXTENSION });
	return { home, cwd };
}

const logged = loggedLines;

function sessionMessages(home: string): any[] {
	const root = join(home, ".pi/agent/sessions");
	const [dir] = readdirSync(root);
	const [file] = readdirSync(join(root, dir as string)).filter((f) => f.endsWith(".jsonl"));
	return readFileSync(join(root, dir as string, file as string), "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line))
		.filter((e) => e.type === "message")
		.map((e) => e.message);
}

const systemText = (request: RecordedRequest | undefined) =>
	((request?.body.system ?? []) as { text: string }[]).map((b) => b.text).join("\n");

describe("system messages through the binary", () => {
	test("a handler's section is declared and requested; ctx.getSystemPrompt() shows it while handlers run", async () => {
		const s = setup();
		server.push({ kind: "reply", text: "ok" });
		const before = server.requests.length;
		const run = await runPiAsync(["-e", "./ext.ts", "-p", "hello"], s);
		expect(run.stderr).toBe("");
		expect(systemText(server.requests[before])).toContain("<mode>\nPlan first.\n</mode>");
		const [system] = sessionMessages(s.home);
		expect(system.role).toBe("system");
		expect(system.sections.mode).toBe("<mode>\nPlan first.\n</mode>");
		expect(system.toolsAdded.map((t: { name: string }) => t.name)).toEqual(["read", "bash", "edit", "write"]);
		const log = logged(s.cwd);
		expect(log[0]).toEqual({ during: true });
		// `context` sees the conversation only; `context_with_system` the whole transcript, its system message first.
		expect(log[1]).toEqual({ context: ["user"] });
		expect(log[2]).toEqual({ withSystem: ["system", "user"] });
	});

	test("a forced prompt is what the request carries; the transcript keeps the structured prompt", async () => {
		const s = setup();
		server.push({ kind: "reply", text: "ok" });
		const before = server.requests.length;
		const run = await runPiAsync(["-e", "./ext.ts", "-p", "please force it"], s);
		expect(run.stderr).toBe("");
		const request = server.requests[before];
		expect(systemText(request)).toBe("FORCED PROMPT");
		expect((request?.body.tools as { name: string }[]).map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
		const messages = sessionMessages(s.home);
		expect(JSON.stringify(messages)).not.toContain("FORCED PROMPT");
		expect(messages[0].sections.preamble).toBeDefined();
	});

	test("a continued session declares only what changed: an unchanged prompt adds no system message", async () => {
		const s = setup();
		server.push({ kind: "reply", text: "one" });
		await runPiAsync(["-e", "./ext.ts", "-p", "first"], s);
		server.push({ kind: "reply", text: "two" });
		await runPiAsync(["-e", "./ext.ts", "-c", "-p", "second"], s);
		expect(sessionMessages(s.home).map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant"]);
		// Without the extension its section goes: the next request patches it away.
		server.push({ kind: "reply", text: "three" });
		const before = server.requests.length;
		await runPiAsync(["-c", "-p", "third"], s);
		expect(systemText(server.requests[before])).not.toContain("<mode>");
		const last = sessionMessages(s.home).at(-3);
		expect(last).toMatchObject({ role: "system", sections: { mode: null } });
	});
});
