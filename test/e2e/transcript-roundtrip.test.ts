/**
 * System messages in the transcript, side by side with pi 0.87.1 (run from the conformance cache under Node 22):
 * the same scripted RPC session (a prompt, an extension command that narrows the active tools, a prompt whose
 * `before_agent_start` handler adds a prompt section, a prompt without it) is run by pi and by our binary. Both
 * session files must declare the same prompt and tool patches, and each file, continued by either program, must
 * send the same prompt, tools and messages in its next request. Skipped, saying why, when pi cannot run here.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureRunnablePi, type RunnablePi } from "../../scripts/conformance-cache.ts";
import { RpcClient } from "../../src/modes/rpc/index.ts";
import { ensureBinary, writeMockModels } from "../helpers/binary.ts";
import { rpcEnv } from "../helpers/conformance-turns.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { type RecordedRequest, startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm({ idleTimeoutMs: 60_000 });
afterAll(() => server.stop());

const EXTENSION = `
const schema = (name) => ({ type: "object", properties: { [name]: { type: "string" } }, required: [name] });
const tool = (name) => ({
	name,
	label: name,
	description: "The " + name + " tool",
	promptSnippet: "Use " + name,
	promptGuidelines: ["Call " + name + " sparingly"],
	parameters: schema("input"),
	execute: async () => ({ content: [{ type: "text", text: name }], details: undefined }),
});
export default function (pi) {
	pi.registerTool(tool("alpha"));
	pi.registerTool(tool("beta"));
	pi.registerCommand("only-alpha", { description: "narrow the tools", handler: async () => pi.setActiveTools(["alpha"]) });
	pi.on("before_agent_start", (event) => {
		if (event.prompt.includes("section")) event.systemPromptOptions.sections.note = "Remember the note.";
	});
}
`;

type Program = "pi" | "ours";

const cwd = makeTempDir("pi-roundtrip-cwd-");
writeTree(cwd, { "ext/roundtrip.ts": EXTENSION });
const ARGS = [
	"--provider",
	"mock",
	"--model",
	"mock-1",
	"--system-prompt",
	"You are a test agent.",
	"--no-builtin-tools",
	"-e",
	"./ext/roundtrip.ts",
];

function client(program: Program, pi: RunnablePi, home: string, extra: string[]): RpcClient {
	return new RpcClient({
		...(program === "pi" ? { command: pi.node, cliPath: pi.cli } : { cliPath: ensureBinary() }),
		cwd,
		env: rpcEnv(home),
		args: [...ARGS, ...extra],
		forwardStderr: false,
	});
}

function newHome(): string {
	const home = makeTempDir("pi-roundtrip-home-");
	writeMockModels(home, server.url);
	return home;
}

function sessionFile(home: string): string {
	const root = join(home, ".pi/agent/sessions");
	const [dir] = readdirSync(root);
	const [file] = readdirSync(join(root, dir as string)).filter((name) => name.endsWith(".jsonl"));
	return join(root, dir as string, file as string);
}

/** Runs the script; returns the session file it wrote and the system messages `get_messages` listed. */
async function writeSession(program: Program, pi: RunnablePi): Promise<{ file: string; listed: unknown[] }> {
	const home = newHome();
	const rpc = client(program, pi, home, []);
	await rpc.start();
	try {
		server.push({ kind: "reply", text: "one" });
		await rpc.promptAndWait("first");
		await rpc.prompt("/only-alpha");
		server.push({ kind: "reply", text: "two" });
		await rpc.promptAndWait("second, with a section");
		server.push({ kind: "reply", text: "three" });
		await rpc.promptAndWait("third");
		const listed = (await rpc.getMessages()).filter((m) => m.role === "system");
		return { file: sessionFile(home), listed: listed.map(({ timestamp: _t, ...rest }: any) => rest) };
	} finally {
		await rpc.stop();
	}
}

/** Continues a copy of `file` with one more prompt; returns the request it sent. */
async function continueSession(program: Program, pi: RunnablePi, file: string): Promise<RecordedRequest> {
	const home = newHome();
	const copy = join(home, "continued.jsonl");
	copyFileSync(file, copy);
	const rpc = client(program, pi, home, ["--session", copy]);
	await rpc.start();
	try {
		const before = server.requests.length;
		server.push({ kind: "reply", text: "four" });
		await rpc.promptAndWait("fourth");
		expect(server.requests.length).toBe(before + 1);
		return server.requests[before] as RecordedRequest;
	} finally {
		await rpc.stop();
	}
}

/** What a request tells the model: its system text, tool declarations, and messages (cache markers left out). */
function seen(request: RecordedRequest) {
	const strip = (value: unknown): unknown =>
		JSON.parse(JSON.stringify(value), (key, v) => (key === "cache_control" ? undefined : v));
	const body = request.body as { system?: { text: string }[]; tools?: unknown[]; messages: unknown[] };
	return {
		system: (body.system ?? []).map((block) => block.text).join("\n"),
		tools: strip(body.tools ?? []),
		messages: strip(body.messages),
	};
}

/** The system messages of a session file, as what they declare. */
function declarations(file: string) {
	return readFileSync(file, "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line))
		.filter((entry) => entry.type === "message")
		.map((entry) => entry.message)
		.map((m) =>
			m.role === "system"
				? {
						role: "system",
						content: m.content,
						sections: m.sections,
						toolsAdded: m.toolsAdded,
						toolsRemoved: m.toolsRemoved,
					}
				: { role: m.role },
		);
}

const runnable = ensureRunnablePi();

describe("system messages round-trip with pi 0.87.1", () => {
	if ("error" in runnable) {
		test("skipped: pi 0.87.1 cannot run here", () => {
			console.warn(`transcript round-trip: skipped: ${runnable.error}`);
		});
		return;
	}
	const pi = runnable;
	let piFile = "";
	let ourFile = "";

	test("the same script writes the same prompt and tool patches, and get_messages lists them alike", async () => {
		const theirs = await writeSession("pi", pi);
		const ours = await writeSession("ours", pi);
		piFile = theirs.file;
		ourFile = ours.file;
		const declared = declarations(piFile);
		expect(declared.filter((m) => m.role === "system").length).toBeGreaterThanOrEqual(3);
		expect(declarations(ourFile)).toEqual(declared);
		expect(ours.listed).toEqual(theirs.listed);
	}, 60_000);

	for (const writer of ["pi", "ours"] as const) {
		test(`a session written by ${writer} continues the same in both`, async () => {
			const file = writer === "pi" ? piFile : ourFile;
			expect(file).not.toBe("");
			const theirs = seen(await continueSession("pi", pi, file));
			const ours = seen(await continueSession("ours", pi, file));
			expect(ours).toEqual(theirs);
			expect(ours.system).toContain("You are a test agent.");
		}, 60_000);
	}
});
