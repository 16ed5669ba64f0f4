/**
 * pi's session SDK inside the compiled binary: an extension command imports `@earendil-works/pi-coding-agent`
 * and uses `parseArgs`, `createAgentSession` (a nested session on the same mock model) and
 * `createAgentSessionRuntime` + `runPrintMode`, as SDK scripts loaded as extensions do.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

const EXTENSION = `
import { createAgentSession, createAgentSessionFromServices, createAgentSessionRuntime, createAgentSessionServices,
	getAgentDir, parseArgs, runPrintMode, SessionManager } from "@earendil-works/pi-coding-agent";

export default function (pi) {
	pi.registerCommand("sdk", {
		handler: async (_args, ctx) => {
			const args = parseArgs(["--foo", "bar", "-p", "x", "-q"]);
			const { session } = await createAgentSession({ cwd: ctx.cwd, sessionManager: SessionManager.inMemory(ctx.cwd) });
			await session.prompt("nested question");
			const nested = session.getLastAssistantText();
			session.dispose();
			const runtime = await createAgentSessionRuntime(async ({ cwd, agentDir, sessionManager, sessionStartEvent }) => {
				const services = await createAgentSessionServices({ cwd, agentDir });
				return { ...(await createAgentSessionFromServices({ services, sessionManager, sessionStartEvent })), services,
					diagnostics: services.diagnostics };
			}, { cwd: ctx.cwd, agentDir: getAgentDir(), sessionManager: SessionManager.inMemory(ctx.cwd) });
			const code = await runPrintMode(runtime, { mode: "text", initialMessage: "printed question" });
			console.error(JSON.stringify({ args: { ...args, unknownFlags: [...args.unknownFlags] }, nested, code }));
		},
	});
}
`;

describe("the session SDK from an extension in the binary", () => {
	test("parseArgs, a nested createAgentSession and runPrintMode over a runtime work against the mock model", async () => {
		const home = makeTempDir("pi-sdk-bin-");
		writeMockModels(home, server.url);
		writeTree(home, { ".pi/agent/extensions/sdk.ts": EXTENSION });
		server.push({ kind: "reply", text: "Nested answer." }, { kind: "reply", text: "Printed answer." });
		const run = await runPiAsync(["-p", "/sdk"], { home });
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe("Printed answer.\n");
		const report = JSON.parse(run.stderr.trim().split("\n").at(-1) as string);
		expect(report).toEqual({
			args: {
				messages: ["x"],
				fileArgs: [],
				unknownFlags: [["foo", "bar"]],
				diagnostics: [{ type: "error", message: "Unknown option: -q" }],
				print: true,
			},
			nested: "Nested answer.",
			code: 0,
		});
		expect(run.stderr.trim().split("\n")).toHaveLength(1);
	}, 60_000);
});
