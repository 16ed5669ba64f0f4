/**
 * The provider fault cases side by side with pi 0.87.1 (Node 22, from the conformance cache) on Anthropic and
 * OpenAI chat completions: the same mock faults and settings give the same retries, the same tool runs (none),
 * the same one-compaction-then-error on overflow and a one-line error. Where we differ on purpose:
 * - a 429's `retry-after` is waited out (pi's agent-level retry uses its own backoff and ignores it);
 * - a tool call whose arguments are not JSON is refused with the parse problem (pi runs it through validation with
 *   `{}`, which refuses it too, naming the missing fields);
 * - a refused credential or an exhausted quota names what to check after the provider's text.
 * The 1 s bound on an abort is asserted on ours alone (providers.test.ts): pi's reaction time under load is not
 * compared. A difference is printed and the cases are run once more, which must agree.
 * Skips (printing why) when pi cannot run here.
 */
import { describe, expect, test } from "bun:test";
import { runnablePi } from "../helpers/side-by-side.ts";
import { type AllCases, runAllCases } from "./provider-cases.ts";
import { FORMATS } from "./provider-faults.ts";

const pi = runnablePi();
const skip = "error" in pi;
if (skip) console.log(`providers-vs-pi: skipped, pi 0.87.1 unavailable: ${pi.error}`);

/** What must be the same on both. */
function shape(all: AllCases) {
	const retries = (o: { retries: number }) => o.retries;
	return {
		retries: [all.limited, all.overloaded, all.stall, all.cut, all.spent, all.unauthorized, all.down].map(retries),
		down: { delays: all.down.delays, end: all.down.retryEndSuccess, requests: all.down.agentRequests },
		overloaded: { toolRuns: all.overloaded.toolRuns, toolRan: all.overloaded.toolRan, final: all.overloaded.finalStop },
		refused: [all.spent, all.unauthorized].map((o) => ({
			stop: o.finalStop,
			requests: o.agentRequests,
			oneLine: !o.finalError?.includes("\n"),
		})),
		overflow: { agentRequests: all.overflow.agentRequests, ends: all.overflow.compactionEnds.slice(0, 2) },
		bad: { toolRan: all.bad?.toolRan, toldWhy: all.bad?.toolResultError !== undefined, final: all.bad?.finalStop },
	};
}

describe("provider faults: the same outcome as pi 0.87.1", () => {
	for (const name of ["anthropic", "openai-completions"]) {
		const format = FORMATS.find((f) => f.name === name);
		test.concurrent.skipIf(skip || !format)(
			name,
			async () => {
				if (!format || "error" in pi) return;
				const both = () => Promise.all([runAllCases(format, [pi.node, pi.cli]), runAllCases(format)]);
				let [theirs, ours] = await both();
				if (!Bun.deepEquals(shape(ours), shape(theirs))) {
					// Timing on a loaded machine can tip one case either way (pi under Node is the slower to react):
					// say what differed, then the same cases again must agree.
					console.error(
						`providers-vs-pi ${name}: differed, running again\n theirs ${JSON.stringify(shape(theirs))}\n ours   ${JSON.stringify(shape(ours))}`,
					);
					[theirs, ours] = await both();
				}
				expect(shape(ours)).toEqual(shape(theirs));
			},
			90_000,
		);
	}
});
