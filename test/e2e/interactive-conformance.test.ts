/**
 * Interactive conformance: each scenario (test/helpers/interactive-scenarios-*.ts) loads one of pi's example
 * extensions, drives the app in a pseudo-terminal with a key script, and extracts its essential content from the
 * screen; pi 0.87.1 and ours must show the same. Scenarios in KNOWN_DIFFERENT are reported with their reason; an
 * unlisted scenario that differs fails, and so does a listed one that now matches (delete its line). Every scenario
 * must run to completion on pi. Runs scenarios in parallel (own HOME and mock LLM each); skips, saying why, when pi
 * or its examples are unavailable.
 * PI_INTERACTIVE_SELF_CHECK=1 runs pi on both sides (the known list ignored, everything must match): proof that
 * the extraction leaves out what differs from run to run.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { examplesDir, type InteractiveScenario } from "../helpers/interactive-scenarios.ts";
import { KNOWN_DIFFERENT } from "../helpers/interactive-scenarios-known.ts";
import { INTERACTIVE_SCENARIOS } from "../helpers/interactive-scenarios-list.ts";
import { type AppKind, type PtyApp, piUnavailable, startOurs, startPi } from "../helpers/pty-app.ts";

type Outcome = { content: string[] } | { error: string };

/** Apps at once: pi's start-up is CPU-heavy and this machine has 2 cores. */
const PARALLEL = Number(process.env.PI_PTY_PARALLEL ?? 4);
const SCENARIO_TIMEOUT_MS = 90_000;
const SELF_CHECK = process.env.PI_INTERACTIVE_SELF_CHECK === "1";
const known = (name: string): string | undefined => (SELF_CHECK ? undefined : KNOWN_DIFFERENT[name]);

const examples = examplesDir();
const skip = piUnavailable() ?? ("error" in examples ? `pi's examples unavailable: ${examples.error}` : undefined);
if (skip) console.warn(`interactive conformance: skipped: ${skip}`);

const results = new Map<string, Record<AppKind, Outcome>>();

async function runOn(kind: AppKind, scenario: InteractiveScenario, dir: string): Promise<Outcome> {
	const options = { ...scenario.options, extensions: [join(dir, scenario.extension)] };
	let app: PtyApp | undefined;
	try {
		const started = kind === "pi" || SELF_CHECK ? await startPi(options) : await startOurs(options);
		if ("skip" in started) return { error: started.skip };
		app = started;
		const running = app;
		const timeout = Bun.sleep(SCENARIO_TIMEOUT_MS).then(() => {
			throw new Error(`${kind}: scenario did not finish in ${SCENARIO_TIMEOUT_MS} ms`);
		});
		const content = await Promise.race([running.ready().then(() => scenario.run(running)), timeout]);
		return { content };
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	} finally {
		await app?.close();
	}
}

/** Runs `jobs` with at most `limit` at a time. */
async function pool(jobs: (() => Promise<void>)[], limit: number): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < jobs.length) await (jobs[next++] as () => Promise<void>)();
	};
	await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}

const matches = (outcome: Record<AppKind, Outcome> | undefined): boolean =>
	!!outcome &&
	"content" in outcome.pi &&
	"content" in outcome.ours &&
	JSON.stringify(outcome.pi.content) === JSON.stringify(outcome.ours.content);

describe.skipIf(skip !== undefined)("interactive conformance with pi 0.87.1", () => {
	beforeAll(async () => {
		const dir = "dir" in examples ? examples.dir : "";
		const jobs: (() => Promise<void>)[] = [];
		for (const scenario of INTERACTIVE_SCENARIOS) {
			const entry = {} as Record<AppKind, Outcome>;
			results.set(scenario.name, entry);
			for (const kind of ["pi", "ours"] as const) {
				jobs.push(async () => {
					entry[kind] = await runOn(kind, scenario, dir);
				});
			}
		}
		await pool(jobs, PARALLEL);
		const matching = INTERACTIVE_SCENARIOS.filter((s) => matches(results.get(s.name))).length;
		console.log(`interactive conformance: ${matching}/${INTERACTIVE_SCENARIOS.length} scenarios match`);
		for (const scenario of INTERACTIVE_SCENARIOS) {
			const reason = known(scenario.name);
			const outcome = results.get(scenario.name);
			if (reason === undefined || matches(outcome)) continue;
			const ours = outcome && "error" in outcome.ours ? outcome.ours.error.split("\n").slice(0, 2).join(" / ") : "";
			console.log(`  known different: ${scenario.name}: ${reason}${ours ? ` (${ours})` : ""}`);
		}
	}, 300_000);

	test("every listed scenario exists", () => {
		const names = new Set(INTERACTIVE_SCENARIOS.map((s) => s.name));
		expect(Object.keys(KNOWN_DIFFERENT).filter((name) => !names.has(name))).toEqual([]);
	});

	for (const scenario of INTERACTIVE_SCENARIOS) {
		test(`${scenario.name}: ${scenario.essential}`, () => {
			const outcome = results.get(scenario.name);
			if (!outcome) throw new Error("not run");
			if ("error" in outcome.pi) throw new Error(`the scenario does not complete on pi 0.87.1: ${outcome.pi.error}`);
			expect(outcome.pi.content.length).toBeGreaterThan(0);
			const reason = known(scenario.name);
			if (reason !== undefined) {
				if (matches(outcome))
					throw new Error(`${scenario.name} matches pi now: remove it from KNOWN_DIFFERENT (${reason})`);
				return;
			}
			if ("error" in outcome.ours) throw new Error(`ours did not complete the scenario: ${outcome.ours.error}`);
			expect(outcome.ours.content).toEqual(outcome.pi.content);
		});
	}
});
