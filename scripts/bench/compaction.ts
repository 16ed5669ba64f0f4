/**
 * Times `prepareCompaction` on a synthetic 100k-entry branch built in memory (user prompts, assistant replies with
 * read/edit/bash tool calls, tool results of a few KB). Prints the median of 5 runs; target ≤ 50 ms.
 * Usage: bun scripts/bench/compaction.ts
 */
import { DEFAULT_COMPACTION_SETTINGS, prepareCompaction } from "../../src/compaction/index.ts";
import type { SessionEntry, StoredMessage } from "../../src/session/index.ts";

const ENTRIES = 100_000;
const RUNS = 5;
const TARGET_MS = 50;

const WORDS =
	"the function returns a promise that resolves once the session file was flushed to disk and the index updated".split(
		" ",
	);

function prose(words: number, seed: number): string {
	const out: string[] = [];
	for (let i = 0; i < words; i++) out.push(WORDS[(seed + i * 7) % WORDS.length]!);
	return out.join(" ");
}

const usage = (input: number) => ({
	input,
	output: 200,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: input + 200,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

function buildBranch(count: number): SessionEntry[] {
	const entries: SessionEntry[] = [];
	let parentId: string | null = null;
	const push = (message: StoredMessage) => {
		const id = entries.length.toString(16).padStart(8, "0");
		entries.push({ type: "message", id, parentId, timestamp: "2025-01-01T00:00:00.000Z", message });
		parentId = id;
	};
	let turn = 0;
	while (entries.length < count) {
		push({ role: "user", content: prose(60, turn), timestamp: turn });
		for (let step = 0; step < 3 && entries.length < count; step++) {
			const name = ["read", "edit", "bash"][step]!;
			const callId = `call_${turn}_${step}`;
			const args =
				name === "bash"
					? { command: "bun test" }
					: {
							path: `src/module${turn % 300}/file${step}.ts`,
							...(name === "edit" ? { oldText: "a", newText: "b" } : {}),
						};
			push({
				role: "assistant",
				content: [
					{ type: "thinking", thinking: prose(40, turn + step) },
					{ type: "text", text: prose(30, turn * 3 + step) },
					{ type: "toolCall", id: callId, name, arguments: args },
				],
				api: "anthropic-messages",
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				usage: usage(10_000 + turn),
				stopReason: "toolUse",
				timestamp: turn,
			});
			push({
				role: "toolResult",
				toolCallId: callId,
				toolName: name,
				content: [{ type: "text", text: prose(400, turn + step) }],
				isError: false,
				timestamp: turn,
			});
		}
		turn++;
	}
	return entries;
}

const branch = buildBranch(ENTRIES);
prepareCompaction(branch, DEFAULT_COMPACTION_SETTINGS); // warm-up
const times: number[] = [];
let summarised = 0;
for (let i = 0; i < RUNS; i++) {
	const started = performance.now();
	const prep = prepareCompaction(branch, DEFAULT_COMPACTION_SETTINGS);
	times.push(performance.now() - started);
	summarised = prep?.messagesToSummarize.length ?? 0;
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
console.log(row(["benchmark", "entries", "summarised", "runs", "median ms", "min ms", "max ms", "target ms"]));
console.log(row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]));
console.log(
	row([
		"prepareCompaction",
		String(branch.length),
		String(summarised),
		String(RUNS),
		median.toFixed(1),
		times[0]!.toFixed(1),
		times[times.length - 1]!.toFixed(1),
		String(TARGET_MS),
	]),
);
if (median > TARGET_MS) console.log(`over target: ${median.toFixed(1)} ms > ${TARGET_MS} ms`);
