/**
 * pi-agent-core's `AgentHarness`, ours against pi 0.87.1's: the same scripted use (a run with tool calls, errors
 * returned as results, abort, hooks, queues, a failed provider response, a JSONL session reopened and its open run
 * resumed) runs on both through a scripted stream function, and the events, entries and results must match.
 * Needs pi 0.87.1 and Node 22 from the conformance cache.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import * as ours from "../../../src/sdk/pi-agent-core.ts";
import * as oursAi from "../../../src/sdk/pi-ai.ts";
import { makeTempDir } from "../../helpers/tmp.ts";
import { runHarnessScenario } from "../../support/agent-harness-scenario.mjs";

const pi = ensureRunnablePi();
const scenario = join(import.meta.dir, "../../support/agent-harness-scenario.mjs");

async function runPi(runnable: { node: string; modules: string }, dir: string): Promise<Record<string, unknown>> {
	const core = pathToFileURL(join(runnable.modules, "@earendil-works/pi-agent-core/dist/node.js")).href;
	const ai = pathToFileURL(join(runnable.modules, "@earendil-works/pi-ai/dist/index.js")).href;
	const script = `
		const core = await import(${JSON.stringify(core)});
		const ai = await import(${JSON.stringify(ai)});
		const { runHarnessScenario } = await import(${JSON.stringify(pathToFileURL(scenario).href)});
		const env = new core.NodeExecutionEnv({ cwd: ${JSON.stringify(dir)} });
		process.stdout.write(JSON.stringify(await runHarnessScenario(core, ai, env, ${JSON.stringify(dir)})));
	`;
	const child = Bun.spawn([runnable.node, "--input-type=module", "-e", script], {
		cwd: dir,
		stdout: "pipe",
		stderr: "pipe",
	});
	const [stdout, stderr, code] = await Promise.all([
		new Response(child.stdout).text(),
		new Response(child.stderr).text(),
		child.exited,
	]);
	if (code !== 0) throw new Error(`pi harness scenario failed (${code}): ${stderr}`);
	return JSON.parse(stdout) as Record<string, unknown>;
}

describe("AgentHarness parity with pi 0.87.1", () => {
	if ("error" in pi) {
		test.skip(`pi 0.87.1 unavailable: ${pi.error}`, () => {});
		console.log(`skipping AgentHarness parity: ${pi.error}`);
		return;
	}
	test("the same scripted use gives the same events, entries and results", async () => {
		const expected = await runPi(pi, makeTempDir("pi-harness-a-"));
		const ourDir = makeTempDir("pi-harness-b-");
		const env = ours.createLocalExecutionEnv({ cwd: ourDir });
		const actual = (await runHarnessScenario(ours, oursAi, env, ourDir)) as Record<string, unknown>;
		const differing = Object.keys(expected).filter((key) => {
			if (Bun.deepEquals(actual[key], expected[key])) return false;
			console.log(`${key}:\n  pi:   ${JSON.stringify(expected[key])}\n  ours: ${JSON.stringify(actual[key])}`);
			return true;
		});
		expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
		expect(differing).toEqual([]);
	}, 60_000);
});
