/** Extensions acting on real turns through the binary: tool_call blocks, tool_result patches, custom tools,
 * input transforms, before_agent_start, appendEntry, and failures that never take down a turn. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

const EXTENSION = `
import { Type } from "@sinclair/typebox";
export default function (pi) {
	pi.on("session_start", async (event) => { pi.appendEntry("started", { reason: event.reason }); });
	pi.on("tool_call", async (event) => {
		if (event.toolName === "bash" && String(event.input.command).includes("rm -rf")) {
			return { block: true, reason: "Dangerous command blocked by permission gate" };
		}
	});
	pi.on("tool_result", async (event) => {
		if (event.toolName === "shout") return { content: [{ type: "text", text: event.content[0].text + "!!!" }] };
	});
	pi.on("input", async (event) => {
		if (event.text.startsWith("?")) return { action: "transform", text: "Question: " + event.text.slice(1) };
		return { action: "continue" };
	});
	pi.on("before_agent_start", async (event) => ({ systemPrompt: event.systemPrompt + "\\nEXTRA RULE FROM EXTENSION" }));
	pi.on("turn_start", async () => { throw new Error("handler broke"); });
	pi.registerTool({
		name: "shout",
		label: "Shout",
		description: "upper-case some text",
		parameters: Type.Object({ text: Type.String() }),
		async execute(_id, params, _signal, _onUpdate, ctx) {
			return { content: [{ type: "text", text: params.text.toUpperCase() + " in " + (ctx.cwd ? "cwd" : "?") }], details: {} };
		},
	});
}
`;

function setup() {
	const home = makeTempDir("pi-home-");
	writeMockModels(home, server.url);
	writeTree(join(home, ".pi/agent/extensions"), { "gate.ts": EXTENSION });
	const cwd = makeTempDir("pi-cwd-");
	return { home, cwd };
}

describe("extensions on real turns", () => {
	test("tool_call blocks rm -rf, tool_result patches, a custom tool runs with ctx; handler errors are reported once and the turn goes on", async () => {
		const { home, cwd } = setup();
		writeTree(cwd, { "keep.txt": "precious" });
		const before = server.requests.length;
		server.push(
			{
				kind: "reply",
				toolCalls: [
					{ id: "a", name: "bash", arguments: { command: "rm -rf keep.txt" } },
					{ id: "b", name: "shout", arguments: { text: "hey" } },
				],
			},
			{ kind: "reply", text: "done" },
		);
		const run = await runPiAsync(["-p", "?clean up"], { home, cwd });
		expect(run.stdout).toBe("done\n");
		expect(existsSync(join(cwd, "keep.txt"))).toBe(true);
		const requests = server.requests.slice(before);
		expect(requests[0]?.body.tools.map((t: { name: string }) => t.name)).toContain("shout");
		expect(requests[0]?.body.system[0].text).toContain("EXTRA RULE FROM EXTENSION");
		expect(requests[0]?.body.messages[0].content[0].text).toBe("Question: clean up");
		const results = requests[1]?.body.messages.at(-1).content;
		expect(results[0]).toMatchObject({
			is_error: true,
			content: "Dangerous command blocked by permission gate",
		});
		// Text-only tool results travel as one string (as pi sends them).
		expect(results[1].content).toBe("HEY in cwd!!!");
		const errors = run.stderr.trimEnd().split("\n");
		expect(
			errors.every((l) => /^Extension error \(.*gate\.ts, .*\): handler broke \(at .*gate\.ts:\d+:\d+\)$/.test(l)),
		).toBe(true);
		expect(errors).toHaveLength(2); // one per turn, each reported once
		// session_start's appendEntry landed in the session file (never sent to the model)
		const root = join(home, ".pi/agent/sessions");
		const dir = readdirSync(root)[0] as string;
		const file = join(root, dir, readdirSync(join(root, dir))[0] as string);
		const entries = readFileSync(file, "utf8")
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(entries.find((e) => e.type === "custom")).toMatchObject({
			customType: "started",
			data: { reason: "startup" },
		});
		expect(JSON.stringify(requests.map((r) => r.body))).not.toContain('"started"');
	});
});

describe("compaction through extensions", () => {
	test("ctx.compact() with a session_before_compact handler that supplies the summary; session_compact follows", async () => {
		const home = makeTempDir("pi-home-");
		writeMockModels(home, server.url);
		const cwd = makeTempDir("pi-cwd-");
		writeTree(join(home, ".pi/agent"), {
			"settings.json": JSON.stringify({ compaction: { keepRecentTokens: 50 } }),
			"extensions/compactor.ts": `
export default function (pi) {
	pi.on("session_before_compact", async (event) => ({
		compaction: {
			summary: "EXT SUMMARY of " + event.preparation.messagesToSummarize.length + " messages",
			firstKeptEntryId: event.preparation.firstKeptEntryId,
			tokensBefore: event.preparation.tokensBefore,
		},
	}));
	pi.on("session_compact", async (event) => { console.log("session_compact fromExtension=" + event.fromExtension); });
	pi.registerCommand("compactnow", {
		handler: async (_args, ctx) => {
			await new Promise((resolve) => ctx.compact({ onComplete: (r) => { console.log("done: " + r.summary); resolve(); }, onError: (e) => { console.log("error: " + e.message); resolve(); } }));
		},
	});
}`,
		});
		const filler = "word ".repeat(400);
		server.push({ kind: "reply", text: `first ${filler}` }, { kind: "reply", text: `second ${filler}` });
		await runPiAsync(["-p", `one ${filler}`, `two ${filler}`], { home, cwd });
		const run = await runPiAsync(["-c", "-p", "/compactnow"], { home, cwd });
		expect(run.stderr).toBe("");
		expect(run.stdout).toContain("session_compact fromExtension=true");
		expect(run.stdout).toMatch(/done: EXT SUMMARY of \d+ messages/);
		const root = join(home, ".pi/agent/sessions");
		const dir = readdirSync(root)[0] as string;
		const file = join(root, dir, readdirSync(join(root, dir))[0] as string);
		const entries = readFileSync(file, "utf8")
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(entries.find((e) => e.type === "compaction")).toMatchObject({ fromHook: true });
	});
});

describe("tree navigation through extensions", () => {
	test("ctx.navigateTree with summarize: the branch left is summarised by the model at the new position", async () => {
		const home = makeTempDir("pi-home-");
		writeMockModels(home, server.url);
		const cwd = makeTempDir("pi-cwd-");
		writeTree(join(home, ".pi/agent/extensions"), {
			"tree.ts": `
export default function (pi) {
	pi.on("session_tree", async (event) => { console.log("session_tree summary=" + Boolean(event.summaryEntry)); });
	pi.registerCommand("goback", {
		handler: async (_args, ctx) => {
			const users = ctx.sessionManager.getEntries().filter((e) => e.type === "message" && e.message.role === "user");
			const result = await ctx.navigateTree(users[1].id, { summarize: true });
			console.log("cancelled=" + result.cancelled);
		},
	});
}`,
		});
		server.push({ kind: "reply", text: "A1" }, { kind: "reply", text: "A2" });
		await runPiAsync(["-p", "Q1", "Q2 try plan B"], { home, cwd });
		server.push({ kind: "reply", text: "## Tried\nplan B" });
		const run = await runPiAsync(["-c", "-p", "/goback"], { home, cwd });
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("session_tree summary=true\ncancelled=false\n");
		const root = join(home, ".pi/agent/sessions");
		const dir = readdirSync(root)[0] as string;
		const file = join(root, dir, readdirSync(join(root, dir))[0] as string);
		const entries = readFileSync(file, "utf8")
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(entries.find((e) => e.type === "branch_summary")?.summary).toContain("plan B");
	});
});
