/**
 * The transcript helpers (system messages carrying the prompt and tools): their rules, and the same results as
 * pi-ai 0.87.1's own functions on the same transcripts (run under Node 22 from the conformance cache; that part
 * is skipped, saying why, when pi cannot run here).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import * as transcript from "../../../src/ai/transcript.ts";
import type { Context, SystemMessage, Tool } from "../../../src/ai/types.ts";

const tool = (name: string, description = `the ${name} tool`): Tool =>
	({ name, description, parameters: { type: "object", properties: { x: { type: "string" } } } }) as unknown as Tool;
const sys = (fields: Partial<SystemMessage>, timestamp = 1): SystemMessage => ({
	role: "system",
	content: "",
	timestamp,
	...fields,
});
const user = (text: string) => ({ role: "user" as const, content: text, timestamp: 5 });

/** Transcripts exercising every rule: patches, removals, redefinitions, block content, no system messages. */
const TRANSCRIPTS: Record<string, { role: string }[]> = {
	empty: [],
	plain: [user("hi")],
	patched: [
		sys({ sections: { preamble: "P", tools: "<tools/>", cwd: "<cwd/>" }, toolsAdded: [tool("read"), tool("bash")] }),
		user("one"),
		sys({ sections: { tools: null, skills: "<skills/>" }, toolsRemoved: [{ name: "bash" }] }, 2),
		sys({ content: [{ type: "text", text: "Be brief." }], toolsAdded: [tool("grep")] }, 3),
		user("two"),
	],
	redefined: [sys({ content: "Base.", toolsAdded: [tool("read")] }), sys({ toolsAdded: [tool("read", "changed")] }, 2)],
	additive: [sys({ content: "Base.", toolsAdded: [tool("read")] }), user("u"), sys({ toolsAdded: [tool("ls")] }, 2)],
	noTimestampNoTools: [{ role: "system", content: "x" } as never],
};

function ours(messages: { role: string }[]) {
	const context = { messages } as unknown as transcript.TranscriptContext;
	return {
		current: transcript.getCurrentSystemMessage(messages),
		prompt: transcript.getCurrentSystemPrompt(messages),
		tools: transcript.getCurrentTools(messages),
		declared: transcript.getDeclaredTools(messages),
		initial: transcript.getInitialSystemMessage(messages),
		without: transcript.withoutInitialSystemMessage(messages as never[]),
		collapsed: transcript.collapseSystemMessages(context),
		resolvedKeep: transcript.resolveTranscript(context, true),
		redefinitions: transcript.hasToolRedefinitions(messages),
		nonAdditive: transcript.hasNonAdditiveToolChanges(messages),
		transcriptTools: transcript.resolveTranscriptTools(messages, true),
		transcriptToolsPlain: transcript.resolveTranscriptTools(messages, false),
		updates: messages.filter((m) => m.role === "system").map((m) => transcript.renderSystemMessageUpdate(m as never)),
		texts: messages.filter((m) => m.role === "system").map((m) => transcript.getSystemMessageText(m as never)),
	};
}

describe("transcript helpers", () => {
	test("replay: contents appended, sections patched by name (null removes), tools removed then added", () => {
		const messages = TRANSCRIPTS.patched as { role: string }[];
		expect(transcript.getCurrentSystemMessage(messages)).toEqual({
			role: "system",
			content: "Be brief.",
			sections: { preamble: "P", cwd: "<cwd/>", skills: "<skills/>" },
			toolsAdded: [tool("read"), tool("grep")],
			timestamp: 1,
		});
		expect(transcript.getCurrentSystemPrompt(messages)).toBe("Be brief.\n\nP\n\n<cwd/>\n\n<skills/>");
		const collapsed = transcript.collapseSystemMessages({ messages } as never);
		expect(collapsed.messages.map((m) => m.role)).toEqual(["system", "user", "user"]);
	});

	test("normalizeContext folds systemPrompt and tools into a leading system message; empty stays empty", () => {
		const context: Context = { systemPrompt: "S", tools: [tool("read")], messages: [user("u")] };
		expect(transcript.normalizeContext(context).messages[0]).toEqual({
			role: "system",
			content: "S",
			toolsAdded: [tool("read")],
			timestamp: 0,
		});
		expect(transcript.normalizeContext({ messages: [] }).messages).toEqual([]);
	});

	test("tool state changes: a changed definition is a removal and an addition; declarations drop symbol keys", () => {
		const withSymbol = { ...tool("read"), parameters: { ...tool("read").parameters, [Symbol("kind")]: "Object" } };
		expect(transcript.declarationsEqual(withSymbol as Tool, tool("read"))).toBe(true);
		expect(transcript.getToolStateChanges([tool("read"), tool("bash")], [tool("read", "new"), tool("ls")])).toEqual({
			toolsAdded: [tool("read", "new"), tool("ls")],
			toolsRemoved: [{ name: "read" }, { name: "bash" }],
		});
	});

	test("requestView: the replayed prompt and tools, chat messages only; a context without system messages as is", () => {
		const plain: Context = { systemPrompt: "S", messages: [user("u")] };
		expect(transcript.requestView(plain)).toBe(plain as never);
		const view = transcript.requestView({ systemPrompt: "S", messages: TRANSCRIPTS.patched as never });
		expect(view.systemPrompt).toBe("S\n\nBe brief.\n\nP\n\n<cwd/>\n\n<skills/>");
		expect(view.tools?.map((t) => t.name)).toEqual(["read", "grep"]);
		expect(view.messages.map((m) => m.role)).toEqual(["user", "user"]);
	});

	const pi = ensureRunnablePi();
	test("the same results as pi-ai 0.87.1 on the same transcripts", () => {
		if ("error" in pi) {
			console.warn(`transcript helpers vs pi-ai: skipped: ${pi.error}`);
			return;
		}
		const script = `
const t = await import(${JSON.stringify(join(pi.modules, "@earendil-works/pi-ai/dist/index.js"))});
const input = JSON.parse(await new Response(process.stdin).text());
const out = {};
for (const [name, messages] of Object.entries(input)) {
	const context = { messages };
	out[name] = {
		current: t.getCurrentSystemMessage(messages), prompt: t.getCurrentSystemPrompt(messages),
		tools: t.getCurrentTools(messages), declared: t.getDeclaredTools(messages),
		initial: t.getInitialSystemMessage(messages), without: t.withoutInitialSystemMessage(messages),
		collapsed: t.collapseSystemMessages(context), resolvedKeep: t.resolveTranscript(context, true),
		redefinitions: t.hasToolRedefinitions(messages), nonAdditive: t.hasNonAdditiveToolChanges(messages),
		transcriptTools: t.resolveTranscriptTools(messages, true), transcriptToolsPlain: t.resolveTranscriptTools(messages, false),
		updates: messages.filter((m) => m.role === "system").map((m) => t.renderSystemMessageUpdate(m)),
		texts: messages.filter((m) => m.role === "system").map((m) => t.getSystemMessageText(m)),
	};
}
process.stdout.write(JSON.stringify(out));`;
		const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
			stdin: Buffer.from(JSON.stringify(TRANSCRIPTS)),
			stdout: "pipe",
			stderr: "pipe",
		});
		expect(run.stderr.toString()).toBe("");
		const theirs = JSON.parse(run.stdout.toString());
		const mine = JSON.parse(
			JSON.stringify(Object.fromEntries(Object.entries(TRANSCRIPTS).map(([k, v]) => [k, ours(v)]))),
		);
		expect(mine).toEqual(theirs);
	}, 30_000);
});
