/**
 * Reliability bench, area "tools" (issue 23 item 3): the same scripted tool calls, sent by the mock LLM to our
 * binary and to pi 0.87.1 in RPC mode — reads of hostile files, byte-exact edits, an edit after the file changed on
 * disk, and bash commands that flood, hang, ignore SIGTERM or leave processes behind. Each row gives what the model
 * got, the time to the result, the agent's peak RSS growth, files left open and processes left running.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, removeTempDirs } from "../../../test/helpers/tmp.ts";
import {
	type CallOptions,
	startToolAgent,
	type ToolAgent,
	type ToolCallOutcome,
} from "../../../test/reliability/tool-agent.ts";
import {
	killAll,
	makeEditCases,
	makeReadCases,
	openFilesUnder,
	processesWith,
} from "../../../test/reliability/tool-fixtures.ts";
import type { MockToolCall } from "../../../test/support/mock-llm/index.ts";
import type { Figure, ReliabilityArea, ReliabilityContext } from "./types.ts";

/** A figure's cell for one agent. */
type Cell = string;
type Case = (agent: AgentSlot, dir: string) => Promise<Cell>;

/** An agent that is restarted after a call it did not survive (hung, or killed for its memory). */
interface AgentSlot {
	call(call: MockToolCall, options?: CallOptions): Promise<ToolCallOutcome | string>;
	readonly pid: number;
}

const ms = (n: number) => `${Math.round(n)} ms`;
const mb = (n: number) => (Number.isNaN(n) ? "RSS n/a" : `+${n.toFixed(1)} MB`);

/** The start of a result text, on one line. */
function gist(outcome: ToolCallOutcome): string {
	// Newlines as ⏎, other control bytes (a NUL in pi's UTF-16 read) as · so the table stays one line per row.
	// biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters on purpose
	const text = outcome.text.replace(/\n/g, "⏎").replace(/[\x00-\x1f\x7f|]/g, "·");
	return `${outcome.isError ? "error: " : ""}${text.length > 56 ? `${text.slice(0, 55)}…` : text}`;
}

async function slot(command: string[], dir: string): Promise<AgentSlot & { stop(): Promise<void> }> {
	let agent: ToolAgent = await startToolAgent(command, { cwd: dir });
	return {
		get pid() {
			return agent.pid;
		},
		async call(call, options) {
			try {
				return await agent.call(call, options);
			} catch (error) {
				await agent.stop(true);
				agent = await startToolAgent(command, { cwd: dir });
				return String((error as Error).message ?? error);
			}
		},
		stop: () => agent.stop(),
	};
}

function readCase(path: string, dir: string): Case {
	return async (agent) => {
		const outcome = await agent.call({ name: "read", arguments: { path } }, { timeoutMs: 5_000, rssLimitMb: 1024 });
		if (typeof outcome === "string") return `no result: ${outcome}`;
		const open = openFilesUnder(agent.pid, [dir, "/dev/zero"]).length;
		return `${gist(outcome)} · ${ms(outcome.ms)} · ${mb(outcome.rssGrowthMb)} · ${open} open`;
	};
}

function editCases(dir: string): { name: string; run: Case }[] {
	mkdirSync(dir);
	return makeEditCases(dir).map((c) => ({
		name: `edit of ${c.name}: bytes outside the edit · mode`,
		run: async (agent) => {
			const path = join(dir, c.file);
			writeFileSync(path, c.before);
			const outcome = await agent.call({
				name: "edit",
				arguments: { path: join(dir, c.file), edits: [{ oldText: "beta", newText: "BETA" }] },
			});
			const bytes = readFileSync(path);
			const mode = (statSync(path).mode & 0o777).toString(8).padStart(4, "0");
			if (typeof outcome === "string") return `no result: ${outcome}`;
			if (c.after && bytes.equals(c.after)) return `kept · ${mode}`;
			if (bytes.equals(c.before)) return `${outcome.isError ? "refused" : "not changed"}, file intact · ${mode}`;
			const expected = c.after ?? c.before;
			let differ = Math.abs(bytes.length - expected.length);
			for (let i = 0; i < Math.min(bytes.length, expected.length); i++) if (bytes[i] !== expected[i]) differ++;
			return `${c.after ? "edited" : "written although read-only"}, ${differ} bytes differ · ${mode}`;
		},
	}));
}

const staleEdit: Case = async (agent, dir) => {
	const path = join(dir, "stale.txt");
	writeFileSync(path, "one\ntwo\n");
	await agent.call({ name: "read", arguments: { path: "stale.txt" } });
	writeFileSync(path, "one\ntwo\nadded on disk\n");
	const outcome = await agent.call({
		name: "edit",
		arguments: { path: "stale.txt", edits: [{ oldText: "one", newText: "ONE" }] },
	});
	if (typeof outcome === "string") return `no result: ${outcome}`;
	return outcome.isError ? `refused: ${gist(outcome)}` : "edited without a word";
};

/** A bash case: the command gets a unique `sleep` marker; what is still running with it 100 ms after the result is counted. */
function bashCase(
	build: (marker: string) => string,
	options: CallOptions & { timeout?: number },
	report: (o: ToolCallOutcome, left: number) => Cell,
): Case {
	return async (agent) => {
		const marker = `sleep ${8000 + Math.floor(Math.random() * 900)}.${process.pid}`;
		const { timeout, ...callOptions } = options;
		const outcome = await agent.call(
			{ name: "bash", arguments: { command: build(marker), ...(timeout ? { timeout } : {}) } },
			{ timeoutMs: 180_000, rssLimitMb: 1024, ...callOptions },
		);
		await Bun.sleep(100);
		const left = processesWith(marker);
		killAll(left);
		if (typeof outcome === "string") return `no result: ${outcome}`;
		return report(outcome, left.length);
	};
}

const replacementChars = (text: string) => [...text].filter((c) => c === "\uFFFD").length;

function bashCases(long: boolean): { name: string; run: Case }[] {
	const flood = long ? 1024 ** 3 : 256 * 1024 ** 2;
	return [
		{
			name: "bash, no timeout, abort after 300 ms: abort → result · orphans",
			run: bashCase(
				(m) => `${m} & ${m}`,
				{ abortAfterMs: 300 },
				(o, left) => `${ms(o.afterAbortMs ?? Number.NaN)} · ${left}`,
			),
		},
		{
			name: "bash ignoring SIGTERM, timeout 1 s: timeout overshoot · orphans",
			run: bashCase(
				(m) => `trap '' TERM; (trap '' TERM; ${m}) & ${m}`,
				{ timeout: 1 },
				(o, left) => `${ms(o.ms - 1_000)} · ${left} · ${gist(o)}`,
			),
		},
		{
			name: "bash ignoring SIGTERM, abort after 300 ms: abort → result · orphans",
			run: bashCase(
				(m) => `trap '' TERM; ${m}`,
				{ abortAfterMs: 300 },
				(o, left) => `${ms(o.afterAbortMs ?? Number.NaN)} · ${left}`,
			),
		},
		{
			name: "bash `sleep &` holding the pipe: time to result · background PID named",
			run: bashCase(
				(m) => `${m} & echo started`,
				{},
				(o) => `${ms(o.ms)} · ${o.text.includes("Still running in the background: PID") ? "yes" : "no"}`,
			),
		},
		{
			name: `bash ${long ? "1 GB" : "256 MB"} of output (yes, head -c): time to result · RSS growth`,
			run: bashCase(
				() => `yes | head -c ${flood}`,
				{},
				(o) => `${ms(o.ms)} · ${mb(o.rssGrowthMb)}`,
			),
		},
		{
			name: "bash line without a newline: result",
			run: bashCase(
				() => "printf 'no newline'",
				{},
				(o) => gist(o),
			),
		},
		{
			name: "bash 100 KB of random bytes: result",
			run: bashCase(
				() => "head -c 100000 /dev/urandom",
				{},
				(o) => (o.text.startsWith("Binary output") ? "summarised" : `${replacementChars(o.text)} U+FFFD characters`),
			),
		},
	];
}

async function runAll(command: string[], long: boolean, log: (line: string) => void): Promise<Map<string, Cell>> {
	const dir = makeTempDir("pi-bench-tools-");
	const cells = new Map<string, Cell>();
	const cases: { name: string; run: Case }[] = [
		...makeReadCases(dir).map((c) => ({
			name: `read of ${c.name}: result · time · RSS · files open`,
			run: readCase(c.path, dir),
		})),
		// Their own folder: a read of a file there would make our edit refuse the rewritten fixture as changed on disk.
		...editCases(join(dir, "edit")),
		{ name: "edit after the file changed on disk since it was read", run: staleEdit },
		...bashCases(long),
	];
	const agent = await slot(command, dir);
	try {
		for (const c of cases) {
			log(c.name);
			cells.set(c.name, await c.run(agent, dir).catch((error: unknown) => `failed: ${String(error)}`));
		}
	} finally {
		await agent.stop();
	}
	return cells;
}

export const toolsArea: ReliabilityArea = {
	name: "tools",
	async run(ctx: ReliabilityContext): Promise<Figure[]> {
		if (process.platform !== "linux") return [{ figure: "tools", ours: "skipped: needs Linux /proc" }];
		try {
			const ours = await runAll([ctx.bin], ctx.long, (line) => ctx.log(`ours: ${line}`));
			const pi = ctx.pi
				? await runAll([ctx.pi.node, ctx.pi.cli], ctx.long, (line) => ctx.log(`pi: ${line}`))
				: undefined;
			return [...ours].map(([figure, cell]) => ({ figure, ours: cell, ...(pi ? { pi: pi.get(figure) } : {}) }));
		} finally {
			removeTempDirs();
		}
	},
};
