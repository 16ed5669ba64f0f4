/**
 * pi's `runPrintMode(runtime, options)` and `main(args, options)`: the same script run by pi 0.87.1 (Node 22) and
 * by ours (Bun, from source), each against its own mock LLM process; stdout, the exit code and what the
 * extensions saw must match (JSON mode: the sequence of line types).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import { startMockProcess } from "../../support/mock-llm-process.ts";
import { SETUP } from "../../support/sdk-script-setup.ts";

const pi = ensureRunnablePi();
if ("error" in pi) console.warn(`print-mode-vs-pi: skipped, pi 0.87.1 unavailable: ${pi.error}`);
const dirs: string[] = [];
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const RUNTIME = `
const createRuntime = async ({ cwd, agentDir, sessionManager, sessionStartEvent }) => {
	const services = await pi.createAgentSessionServices({ cwd, agentDir });
	return { ...(await pi.createAgentSessionFromServices({ services, sessionManager, sessionStartEvent })),
		services, diagnostics: services.diagnostics };
};
const runtime = await pi.createAgentSessionRuntime(createRuntime, { cwd, agentDir, sessionManager: pi.SessionManager.inMemory(cwd) });
const code = await pi.runPrintMode(runtime, { mode: args.mode, initialMessage: "hi", messages: ["/hello there", "again"] });
process.stderr.write("\\nEXIT " + code + "\\nLOG " + JSON.stringify(globalThis.__extLog) + "\\n");
`;

const MAIN = `
process.chdir(cwd);
await pi.main(["-p", "hello", "--no-session"], { extensionFactories: [(p) => p.on("session_start", () => globalThis.__extLog.push("inline"))] });
process.stderr.write("\\nEXIT " + (process.exitCode ?? 0) + "\\nLOG " + JSON.stringify(globalThis.__extLog) + "\\n");
`;

interface Outcome {
	stdout: string;
	exit: string | undefined;
	log: string | undefined;
}

async function runSide(side: "theirs" | "ours", body: string, mode: string, replies: string[]): Promise<Outcome> {
	if ("error" in pi) throw new Error(pi.error);
	const dir = realpathSync(mkdtempSync(join(tmpdir(), `pi-print-${side}-`)));
	dirs.push(dir);
	const server = await startMockProcess(dir, replies);
	const spec =
		side === "theirs"
			? join(pi.modules, "@earendil-works/pi-coding-agent/dist/index.js")
			: join(import.meta.dir, "../../../src/sdk/pi-coding-agent.ts");
	const script = join(dir, "script.mjs");
	const loadCli =
		side === "ours" ? `await import(${JSON.stringify(join(import.meta.dir, "../../../src/cli/index.ts"))});` : "";
	writeFileSync(
		script,
		`${loadCli}const pi = await import(${JSON.stringify(spec)});\nconst args = JSON.parse(process.env.PI_TEST_ARGS);\n${SETUP}\n${body}`,
	);
	try {
		const command = side === "theirs" ? [pi.node, script] : [process.execPath, script];
		const child = Bun.spawnSync(command, {
			cwd: dir,
			env: {
				...process.env,
				HOME: dir,
				PI_CODING_AGENT_DIR: join(dir, "agent"),
				PI_OFFLINE: "1",
				PI_TEST_ARGS: JSON.stringify({ dir, baseUrl: server.url, mode }),
				HTTP_PROXY: "http://127.0.0.1:9",
				HTTPS_PROXY: "http://127.0.0.1:9",
				NO_PROXY: "127.0.0.1,localhost",
			},
			stdout: "pipe",
			stderr: "pipe",
		});
		const stderr = child.stderr.toString();
		if (process.env.SHOW) console.log(side, child.stdout.toString(), stderr);
		return {
			stdout: child.stdout.toString(),
			exit: /\nEXIT (\S+)\n/.exec(stderr)?.[1],
			log: /\nLOG (.*)\n/.exec(stderr)?.[1],
		};
	} finally {
		server.stop();
	}
}

const lineTypes = (stdout: string) =>
	stdout
		.trim()
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => (JSON.parse(line) as { type: string }).type);

describe("runPrintMode and main, side by side with pi 0.87.1", () => {
	const run = "error" in pi ? test.skip : test;

	run(
		"text mode prints the last reply after an extension command and a second prompt; extensions see the same events",
		async () => {
			const theirs = await runSide("theirs", RUNTIME, "text", ["One.", "Two."]);
			const ours = await runSide("ours", RUNTIME, "text", ["One.", "Two."]);
			expect(ours).toEqual(theirs);
			expect(ours.stdout).toBe("Two.\n");
		},
		90_000,
	);

	run(
		"JSON mode writes the header and the same sequence of event lines",
		async () => {
			const theirs = await runSide("theirs", RUNTIME, "json", ["One.", "Two."]);
			const ours = await runSide("ours", RUNTIME, "json", ["One.", "Two."]);
			expect({ ...ours, stdout: lineTypes(ours.stdout) }).toEqual({ ...theirs, stdout: lineTypes(theirs.stdout) });
		},
		90_000,
	);

	run(
		"main(args, { extensionFactories }) runs the command line without ending the process",
		async () => {
			const theirs = await runSide("theirs", MAIN, "text", ["From main."]);
			const ours = await runSide("ours", MAIN, "text", ["From main."]);
			expect(ours).toEqual(theirs);
			expect(ours.stdout).toBe("From main.\n");
		},
		90_000,
	);
});
