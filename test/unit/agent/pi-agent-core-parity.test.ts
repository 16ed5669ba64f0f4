/**
 * The pi-agent-core exports of ours against pi 0.87.1's: the same scripted use (results and tagged errors,
 * contexts, telemetry, message conversion, text helpers, truncation, skill and prompt loaders, the env-based tools)
 * runs on both, and every field of the outcome must match. Needs pi 0.87.1 and Node 22 from the conformance cache.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import * as ours from "../../../src/sdk/pi-agent-core.ts";
import { makeTempDir } from "../../helpers/tmp.ts";
import { runScenario } from "../../support/agent-core-scenario.mjs";

const pi = ensureRunnablePi();
const scenario = join(import.meta.dir, "../../support/agent-core-scenario.mjs");

async function runPi(runnable: { node: string; modules: string }, dir: string): Promise<Record<string, unknown>> {
	const core = pathToFileURL(join(runnable.modules, "@earendil-works/pi-agent-core/dist/node.js")).href;
	const script = `
		const core = await import(${JSON.stringify(core)});
		const { runScenario } = await import(${JSON.stringify(pathToFileURL(scenario).href)});
		const env = new core.NodeExecutionEnv({ cwd: ${JSON.stringify(dir)} });
		process.stdout.write(JSON.stringify(await runScenario(core, env, ${JSON.stringify(dir)})));
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
	if (code !== 0) throw new Error(`pi scenario failed (${code}): ${stderr}`);
	return JSON.parse(stdout) as Record<string, unknown>;
}

describe("pi-agent-core parity with pi 0.87.1", () => {
	if ("error" in pi) {
		test.skip(`pi 0.87.1 unavailable: ${pi.error}`, () => {});
		console.log(`skipping pi-agent-core parity: ${pi.error}`);
		return;
	}
	test("the same scripted use gives the same results", async () => {
		const piDir = makeTempDir("pi-core-a-");
		const ourDir = makeTempDir("pi-core-b-");
		const expected = await runPi(pi, piDir);
		const env = ours.createLocalExecutionEnv({ cwd: ourDir });
		const actual = (await runScenario(ours, env, ourDir)) as Record<string, unknown>;
		const differing = Object.keys(expected).filter((key) => {
			if (Bun.deepEquals(actual[key], expected[key])) return false;
			console.log(`${key}:\n  pi:   ${JSON.stringify(expected[key])}\n  ours: ${JSON.stringify(actual[key])}`);
			return true;
		});
		expect(differing).toEqual([]);
	}, 60_000);
});

/** Names other work brings (compaction helpers, pi-ai's uuidv7). */
const ELSEWHERE = new Set([
	"BRANCH_SUMMARY_PREFIX",
	"BRANCH_SUMMARY_SUFFIX",
	"BranchSummaryError",
	"COMPACTION_SUMMARY_PREFIX",
	"COMPACTION_SUMMARY_SUFFIX",
	"CompactionError",
	"DEFAULT_COMPACTION_SETTINGS",
	"NothingToCompact",
	"calculateContextTokens",
	"collectEntriesForBranchSummary",
	"compact",
	"createBranchSummaryMessage",
	"createCompactionSummaryMessage",
	"createCustomMessage",
	"estimateContextTokens",
	"estimateTokens",
	"findCutPoint",
	"findTurnStartIndex",
	"generateBranchSummary",
	"generateSummary",
	"generateSummaryWithUsage",
	"getLastAssistantUsage",
	"prepareBranchEntries",
	"prepareCompaction",
	"serializeConversation",
	"shouldCompact",
	"uuidv7",
]);

describe("pi-agent-core exports", () => {
	if ("error" in pi) return;
	test("every runtime export of pi 0.87.1 exists in ours, as the same kind of value", async () => {
		const script = `const m = await import(${JSON.stringify(pathToFileURL(join(pi.modules, "@earendil-works/pi-agent-core/dist/index.js")).href)});
			process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v]))));`;
		const child = Bun.spawn([pi.node, "--input-type=module", "-e", script], { stdout: "pipe" });
		const kinds = JSON.parse(await new Response(child.stdout).text()) as Record<string, string>;
		const missing = Object.keys(kinds).filter((name) => !ELSEWHERE.has(name) && !(name in ours));
		const wrongKind = Object.keys(kinds).filter(
			(name) => name in ours && typeof (ours as Record<string, unknown>)[name] !== kinds[name],
		);
		expect({ missing, wrongKind }).toEqual({ missing: [], wrongKind: [] });
	});
});
