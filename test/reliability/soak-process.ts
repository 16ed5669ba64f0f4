/**
 * One pi process in RPC mode for a long run, seen from outside: JSON lines are matched against waiters and then
 * dropped (a soak of 10,000 turns must not keep every event in the test's own memory), and `/proc/<pid>` gives its
 * RSS, thread count and open descriptors.
 */
import { readdirSync, readFileSync } from "node:fs";
import { spawnRpcChild } from "./rpc-process.ts";

export interface ProcSample {
	turn: number;
	rssKiB: number;
	fds: number;
	threads: number;
	/** Round trip of `get_state` at the sample (ms): the event loop's lag as a client sees it. */
	lagMs: number;
	/** When the sample was taken (performance.now(), ms). */
	atMs: number;
	/** CPU time the process used so far (user + system, ms): a turn's cost that other load on the machine leaves alone. */
	cpuMs: number;
}

export interface SoakProc {
	pid: number;
	send(record: object): void;
	/** Resolves with the next record matching `match` read after this call. */
	next(match: (r: Record<string, any>) => boolean, ms?: number): Promise<Record<string, any>>;
	request(record: { type: string; [key: string]: unknown }, ms?: number): Promise<Record<string, any>>;
	end(): void;
	exit(ms: number): Promise<number | undefined>;
	stderr(): string;
}

export function spawnRpc(
	command: string[],
	args: string[],
	home: string,
	cwd: string,
	env: Record<string, string>,
): SoakProc {
	const waiters: { match: (r: Record<string, any>) => boolean; resolve: (r: Record<string, any>) => void }[] = [];
	// Each record goes to the first waiter it matches, then is dropped; only stderr's tail is kept.
	const { child, stderr } = spawnRpcChild(
		command,
		args,
		{ home, cwd, env },
		(record) => {
			const at = waiters.findIndex((waiter) => waiter.match(record));
			if (at >= 0) waiters.splice(at, 1)[0]!.resolve(record);
		},
		20_000,
	);
	let ids = 0;
	const proc: SoakProc = {
		pid: child.pid,
		send(record) {
			child.stdin.write(`${JSON.stringify(record)}\n`);
			child.stdin.flush();
		},
		next(match, ms = 30_000) {
			return new Promise((resolve, reject) => {
				const waiter = {
					match,
					resolve: (r: Record<string, any>) => {
						clearTimeout(timer);
						resolve(r);
					},
				};
				const timer = setTimeout(() => {
					waiters.splice(waiters.indexOf(waiter), 1);
					reject(new Error(`no matching record within ${ms} ms; stderr: ${stderr().slice(-2000)}`));
				}, ms);
				waiters.push(waiter);
			});
		},
		async request(record, ms) {
			const id = `s${++ids}`;
			const answer = proc.next((r) => r.type === "response" && r.id === id, ms);
			proc.send({ ...record, id });
			const response = await answer;
			if (response.success === false) throw new Error(`${record.type}: ${response.error}`);
			return response;
		},
		end: () => child.stdin.end(),
		async exit(ms) {
			let timer: ReturnType<typeof setTimeout> | undefined;
			const late = new Promise<undefined>((resolve) => {
				timer = setTimeout(() => resolve(undefined), ms);
			});
			const code = await Promise.race([child.exited, late]);
			clearTimeout(timer);
			if (code === undefined) {
				child.kill("SIGKILL");
				await child.exited;
			}
			return code;
		},
		stderr,
	};
	return proc;
}

/** RSS, threads and descriptors of the process, and the round trip of a `get_state` right now. */
export async function sampleProc(proc: SoakProc, turn: number): Promise<ProcSample> {
	const started = performance.now();
	await proc.request({ type: "get_state" });
	const lagMs = performance.now() - started;
	const status = readFileSync(`/proc/${proc.pid}/status`, "utf8");
	const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? Number.NaN);
	const fds = readdirSync(`/proc/${proc.pid}/fd`).length;
	// Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name), in clock ticks of 10 ms.
	const stat = readFileSync(`/proc/${proc.pid}/stat`, "utf8");
	const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	const cpuMs = (Number(ticks[11]) + Number(ticks[12])) * 10;
	return { turn, rssKiB: field("VmRSS"), fds, threads: field("Threads"), lagMs, atMs: performance.now(), cpuMs };
}

/** Least-squares slope of y over x. */
export function slope(points: { x: number; y: number }[]): number {
	const n = points.length;
	if (n < 2) return Number.NaN;
	const mx = points.reduce((s, p) => s + p.x, 0) / n;
	const my = points.reduce((s, p) => s + p.y, 0) / n;
	let num = 0;
	let den = 0;
	for (const p of points) {
		num += (p.x - mx) * (p.y - my);
		den += (p.x - mx) ** 2;
	}
	return den === 0 ? Number.NaN : num / den;
}
