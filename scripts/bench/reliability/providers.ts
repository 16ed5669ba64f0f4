/**
 * Provider faults (issue 23 item 4), per wire format: the cases of `test/reliability/providers.test.ts` run on our
 * binary and on pi 0.87.1 (same mock, same settings: retry base delay 40 ms, HTTP idle timeout 600 ms), reporting
 * the retries taken, how long after the first request the retry came (a 429 with `retry-after: 1`, a stalled
 * stream), and how long an abort during a stall takes to end the turn.
 */
import { type Observed, runAllCases } from "../../../test/reliability/provider-cases.ts";
import { FORMATS, type FormatSpec } from "../../../test/reliability/provider-faults.ts";
import type { Figure, ReliabilityArea, ReliabilityContext } from "./types.ts";

interface Run {
	retries: string;
	retryAfterMs: number | string;
	stallMs: number | string;
	abortMs: number;
	overflow: string;
	badJson: string;
}

const ms = (o: Observed) => o.msToRetry ?? "no retry";

async function runFormat(format: FormatSpec, command: string[]): Promise<Run> {
	const all = await runAllCases(format, command);
	const { limited, overloaded, spent, unauthorized, overflow, stall, cut, down, bad } = all;
	const recoveryError = overflow.compactionEnds.some((c) => c.errorMessage?.startsWith("Context overflow recovery"));
	return {
		retries: [limited, overloaded, stall, cut, down, spent, unauthorized].map((o) => o.retries).join(" / "),
		retryAfterMs: ms(limited),
		stallMs: ms(stall),
		abortMs: all.abortMs,
		overflow: `${overflow.agentRequests} turns, ${overflow.summaryRequests} summaries${recoveryError ? ", error" : ""}`,
		badJson: bad ? `${bad.toolRan ? "ran" : "not run"}${bad.toolResultError ? ", told" : ""}` : "n/a",
	};
}

async function safely(run: Promise<Run>): Promise<Run | string> {
	try {
		return await run;
	} catch (error) {
		return `failed: ${String((error as Error)?.message ?? error)
			.split("\n")[0]
			?.slice(0, 80)}`;
	}
}

export const providersArea: ReliabilityArea = {
	name: "providers",
	async run(ctx: ReliabilityContext): Promise<Figure[]> {
		const pi = ctx.pi;
		// Three formats at a time: pi under Node starts slowly when ten start at once on two cores.
		const results: { format: FormatSpec; ours: Run | string; theirs: Run | string | undefined }[] = [];
		for (let i = 0; i < FORMATS.length; i += 3) {
			const batch = FORMATS.slice(i, i + 3).map(async (format) => {
				const ours = await safely(runFormat(format, [ctx.bin]));
				// pi's Bedrock client (the AWS SDK) speaks HTTP/2 to the endpoint; the mock serves HTTP/1.1 only.
				const onPi = pi && format.name !== "bedrock";
				const theirs = onPi ? await safely(runFormat(format, [pi.node, pi.cli])) : undefined;
				ctx.log(`${format.name}: done`);
				return { format, ours, theirs };
			});
			results.push(...(await Promise.all(batch)));
		}
		const figures: Figure[] = [];
		for (const { format, ours, theirs } of results) {
			const offPi = pi && format.name === "bedrock" ? "not on pi: its AWS SDK speaks HTTP/2, the mock HTTP/1.1" : "";
			const row = (figure: string, pick: (r: Run) => string | number, note?: string) => {
				const value = (r: Run | string | undefined) =>
					r === undefined ? undefined : typeof r === "string" ? r : pick(r);
				const theirsValue = value(theirs);
				figures.push({
					figure: `${format.name}: ${figure}`,
					ours: value(ours) as string | number,
					...(theirsValue !== undefined ? { pi: theirsValue } : {}),
					...(note || offPi ? { note: [note, offPi].filter(Boolean).join("; ") } : {}),
				});
			};
			row(
				"retries taken (429 / overload mid tool call / stall / reset / 503 always / spend limit / 401)",
				(r) => r.retries,
			);
			row("429 retry-after: 1 → retry sent after", (r) => r.retryAfterMs, "ms");
			row("stalled stream → retry sent after", (r) => r.stallMs, "ms (idle timeout 600 ms)");
			row("abort during a stall → agent_end", (r) => r.abortMs, "ms");
			row("context overflow every turn", (r) => r.overflow, "agent turns sent, summary requests");
			row("tool call with invalid JSON arguments", (r) => r.badJson);
		}
		return figures;
	},
};
