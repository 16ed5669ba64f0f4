/**
 * The kill -9 loop over a multi-turn tool run, shared by `session-kill.test.ts` and the reliability bench (which
 * runs it on pi 0.87.1 too). Each round resumes the session (`--continue` in RPC mode), has the mock LLM script
 * `write` tool calls whose entries are ~300 B, 64 KiB or 1 MiB, and kills the process at a random moment.
 *
 * Every run gets a mock LLM server of its own: a killed process's last request must not take the next run's steps.
 *
 * "Acknowledged", as a client observes it: once the session file holds an assistant message (the seed round sees
 * to that: a new session writes nothing before its first answer), every `message_end` event the client has read
 * names a message that is on disk. After each kill the file must hold every acknowledged message, every complete
 * line must parse (only the line in flight may be torn, and it has no "\n"), and every entry's parent must be in
 * the file. At the end the session is opened once more, `get_messages` answered, one more turn appended, and then
 * every line must parse.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { type MockStep, startMockLlm } from "../support/mock-llm/index.ts";
import { seededRandom } from "../support/terminal-strings.ts";
import { spawnRpcChild } from "./rpc-process.ts";

export interface KillLoopOptions {
	/** The program before its arguments: `[dist/pi]` or `[node, cli]`. */
	argv: string[];
	kills: number;
	/** Progress lines (the bench's log); default none. */
	log?: (line: string) => void;
}

export interface KillLoopResult {
	kills: number;
	/** message_end events read by the client before the kills, all told. */
	acknowledged: number;
	/** Acknowledged messages missing from the file after their kill. */
	lost: number;
	/** Kills that left a torn last line (the process died inside a write). */
	tornByKill: number;
	/** Complete lines (ending in "\n") that did not parse, summed over every check after a kill. */
	unparseableAfterKill: number;
	/** Lines that did not parse after the final resume and one more turn (torn tails included). */
	unparseableAfterResume: number;
	/** Entries whose parent is not in the file. */
	orphans: number;
	/** The final resumes (one per session file): messages `get_messages` returned, and every extra turn written. */
	resumedMessages: number;
	resumedOk: boolean;
	/** One line per problem (empty when all held). */
	problems: string[];
}

const SIZES = [300, 64 * 1024, 1024 * 1024];

export interface Child {
	records: Record<string, any>[];
	send(record: object): void;
	waitFor(match: (r: Record<string, any>) => boolean, ms: number): Promise<Record<string, any>>;
	kill(): Promise<void>;
	exited(): boolean;
	finish(ms: number): Promise<number | null>;
	stderr(): string;
}

/** `argv` in RPC mode with `args`, as a client sees it (HOME and the agent dir in `home`). */
export function spawnRpc(argv: string[], home: string, cwd: string, args: string[]): Child {
	const records: Record<string, any>[] = [];
	const {
		child,
		stderr,
		stdoutDone: reading,
	} = spawnRpcChild(argv, args, { home, cwd, env: { PI_OFFLINE: "1" } }, (record) => records.push(record));
	return {
		records,
		send(record) {
			child.stdin.write(`${JSON.stringify(record)}\n`);
			child.stdin.flush();
		},
		async waitFor(match, ms) {
			const end = Date.now() + ms;
			for (;;) {
				const found = records.find(match);
				if (found) return found;
				if (Date.now() > end || child.exitCode !== null) {
					throw new Error(`no matching record within ${ms} ms; seen: ${records.map((r) => r.type).join(", ")}`);
				}
				await Bun.sleep(5);
			}
		},
		exited: () => child.exitCode !== null || child.signalCode !== null,
		async kill() {
			child.kill("SIGKILL");
			await child.exited;
			// Whatever the pipe still held was written before the kill: the client reads it too.
			await reading;
		},
		async finish(ms) {
			child.stdin.end();
			const code = await Promise.race([child.exited, Bun.sleep(ms).then(() => undefined)]);
			if (code === undefined) {
				child.kill("SIGKILL");
				await child.exited;
				return null;
			}
			await reading;
			return code;
		},
		stderr,
	};
}

/** A mock LLM server for one run, with the home's models pointing at it. */
function serve(home: string, steps: MockStep[]): { stop(): void } {
	const server = startMockLlm({ steps });
	writeMockModels(home, server.url);
	return server;
}

/** One tool-run script: two `write` calls of random sizes, then an answer. */
function script(round: number, random: () => number): MockStep[] {
	const size = () => SIZES[Math.floor(random() * SIZES.length)]!;
	const call = (name: string, n: number): MockStep => ({
		kind: "reply",
		chunkSize: 256 * 1024,
		toolCalls: [{ name: "write", arguments: { path: `${name}-${round}.txt`, content: "x".repeat(n) } }],
	});
	return [call("a", size()), call("b", size()), { kind: "reply", text: `round ${round} done` }];
}

interface FileCheck {
	entries: Record<string, any>[];
	unparseable: number;
	tornTail: boolean;
	orphans: number;
}

function checkFile(file: string): FileCheck {
	const text = readFileSync(file, "utf8");
	const lines = text.split("\n");
	const tail = lines.pop() ?? "";
	const entries: Record<string, any>[] = [];
	let unparseable = 0;
	for (const line of lines) {
		if (line.trim() === "") continue;
		try {
			entries.push(JSON.parse(line));
		} catch {
			unparseable++;
		}
	}
	const ids = new Set(entries.map((e) => e.id));
	const orphans = entries.filter((e) => e.type !== "session" && e.parentId !== null && !ids.has(e.parentId)).length;
	return { entries, unparseable, tornTail: tail.length > 0, orphans };
}

function sessionFileIn(dir: string): string | undefined {
	const name = readdirSync(dir).find((n) => n.endsWith(".jsonl"));
	return name ? join(dir, name) : undefined;
}

/** Kills per session file: a long run starts a new session every so often, so no file grows past ~20 MB. */
const SEGMENT = 25;

export async function killLoop(o: KillLoopOptions): Promise<KillLoopResult> {
	const seed = Number(process.env.PI_RELIABILITY_SEED ?? Date.now() % 1_000_000);
	const random = seededRandom(seed);
	const result: KillLoopResult = {
		kills: 0,
		tornByKill: 0,
		acknowledged: 0,
		lost: 0,
		unparseableAfterKill: 0,
		unparseableAfterResume: 0,
		orphans: 0,
		resumedMessages: 0,
		resumedOk: true,
		problems: [],
	};
	const problem = (line: string) => {
		if (result.problems.length < 20) result.problems.push(`seed ${seed}: ${line}`);
	};
	while (result.kills < o.kills) {
		await segment(o, Math.min(SEGMENT, o.kills - result.kills), random, result, problem);
		o.log?.(`${result.kills}/${o.kills} kills, ${result.lost} lost`);
	}
	return result;
}

async function segment(
	o: KillLoopOptions,
	kills: number,
	random: () => number,
	result: KillLoopResult,
	problem: (line: string) => void,
): Promise<void> {
	const home = makeTempDir("pi-rel-kill-home-");
	const cwd = makeTempDir("pi-rel-kill-cwd-");
	const sessions = join(home, "sessions");
	const resume = ["--continue", "--session-dir", sessions];

	// Seed round (no kill): the file exists and holds an answer; its records time the kills.
	const seedServer = serve(home, script(0, random));
	const started = performance.now();
	const seedRun = spawnRpc(o.argv, home, cwd, resume);
	seedRun.send({ id: "p", type: "prompt", message: "seed" });
	await seedRun
		.waitFor((r) => r.type === "agent_end", 8_000)
		.catch((e) => {
			throw new Error(
				`${e.message} stderr: ${seedRun.stderr()} records: ${JSON.stringify(seedRun.records).slice(-3000)}`,
			);
		});
	const runMs = performance.now() - started;
	const runRecords = seedRun.records.length;
	await seedRun.finish(10_000);
	seedServer.stop();
	const file = sessionFileIn(sessions);
	if (!file) throw new Error(`no session file after the seed round: ${seedRun.stderr()}`);

	for (let round = 1; round <= kills; round++) {
		const server = serve(home, script(round, random));
		const child = spawnRpc(o.argv, home, cwd, resume);
		child.send({ id: "p", type: "prompt", message: `round ${round}` });
		if (random() < 0.25) {
			// Anywhere, start-up and loading included.
			await Bun.sleep(random() * runMs * 1.2);
		} else {
			// Right after the k-th record the client reads (the moments around each write), plus a little jitter.
			const k = 1 + Math.floor(random() * runRecords);
			const until = Date.now() + 30_000;
			const done = () => child.exited() || child.records.some((r) => r.type === "agent_end");
			while (child.records.length < k && Date.now() < until && !done()) await Bun.sleep(1);
			if (random() < 0.5) await Bun.sleep(random() * 3);
		}
		await child.kill();
		server.stop();
		result.kills++;
		const acked = child.records.filter((r) => r.type === "message_end").map((r) => r.message);
		result.acknowledged += acked.length;
		const check = checkFile(file);
		result.unparseableAfterKill += check.unparseable;
		if (check.tornTail) result.tornByKill++;
		result.orphans += check.orphans;
		if (check.unparseable > 0) problem(`round ${round}: ${check.unparseable} complete lines do not parse`);
		if (check.orphans > 0) problem(`round ${round}: ${check.orphans} entries whose parent is not in the file`);
		const onDisk = check.entries.filter((e) => e.type === "message").map((e) => e.message);
		for (const message of acked) {
			if (onDisk.some((m) => Bun.deepEquals(m, message))) continue;
			result.lost++;
			problem(`round ${round}: acknowledged ${message.role} message missing from the file`);
		}
	}

	// Resume: open, read the messages back, append one more turn; then every line parses.
	const lastServer = serve(home, [{ kind: "reply", text: "after the kills" }]);
	const last = spawnRpc(o.argv, home, cwd, resume);
	last.send({ id: "m", type: "get_messages" });
	const messages = await last.waitFor((r) => r.type === "response" && r.id === "m", 30_000);
	const count = (messages.data?.messages ?? []).length;
	result.resumedMessages += count;
	last.send({ id: "p", type: "prompt", message: "after the kills" });
	await last.waitFor((r) => r.type === "agent_end", 60_000);
	await last.finish(10_000);
	lastServer.stop();
	const final = checkFile(file);
	const unparseable = final.unparseable + (final.tornTail ? 1 : 0);
	result.unparseableAfterResume += unparseable;
	const answered = final.entries.some(
		(e) =>
			e.type === "message" && e.message.role === "assistant" && JSON.stringify(e.message).includes("after the kills"),
	);
	if (!answered || count === 0) {
		result.resumedOk = false;
		problem(`final resume: ${count} messages, answer written: ${answered}`);
	}
	if (unparseable > 0) problem(`after resume: ${unparseable} lines do not parse`);
}
