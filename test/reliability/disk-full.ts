/**
 * The full-disk case, shared by `session-disk-full.test.ts` and the reliability bench (which runs it on pi 0.87.1
 * too): a session on a 1 MiB tmpfs gets one answer, the disk is filled to within 8 KiB, then a turn writes two
 * 64 KiB tool-call entries (RPC) and a print-mode run answers 64 KiB. Returns what the user saw and what is on disk.
 */
import {
	closeSync,
	fstatSync,
	ftruncateSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	writeSync,
} from "node:fs";
import { join } from "node:path";
import { writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { spawnRpc } from "./session-kill.ts";

export interface DiskFullResult {
	file: string;
	/** `session_save_failed` events of the full turn. */
	notices: Record<string, any>[];
	/** Lines of stderr naming the failure (ENOSPC, "disk full", "no space"), RPC run and print run. */
	rpcStderr: string[];
	printStderr: string[];
	/** The full turn still reached its answer; the print run exited with this code and printed its answer. */
	answered: boolean;
	printExit: number | null;
	printAnswered: boolean;
	/** Lines that do not parse, and whether the bytes from before the full turn are still the file's start. */
	unparseable: number;
	prefixKept: boolean;
}

/** Mounts a 1 MiB tmpfs at a new folder; returns it, or the reason it cannot. */
export function mountTmpfs(): { mount: string } | { skip: string } {
	if (process.platform !== "linux") return { skip: "not Linux" };
	const mount = makeTempDir("pi-rel-tmpfs-");
	const run = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount], { stderr: "pipe" });
	if (run.exitCode !== 0)
		return { skip: `cannot mount a tmpfs (${run.stderr.toString().trim() || `exit ${run.exitCode}`})` };
	return { mount };
}

export function unmount(mount: string): void {
	Bun.spawnSync(["umount", "-l", mount]);
}

/** Fills the file system at `dir` until fewer than `leave` bytes are free. */
function fill(dir: string, leave: number): void {
	const fd = openSync(join(dir, "filler"), "a");
	const chunk = Buffer.alloc(4096, 120);
	try {
		for (;;) writeSync(fd, chunk);
	} catch {
		// Full: give back a little room, so small writes still fit and a large entry does not.
		ftruncateSync(fd, Math.max(0, fstatSync(fd).size - leave));
	} finally {
		closeSync(fd);
	}
}

const failure = (text: string) => text.split("\n").filter((l) => /ENOSPC|disk full|no space/i.test(l));

export async function diskFullCase(argv: string[], mount: string): Promise<DiskFullResult> {
	const home = makeTempDir("pi-rel-home-");
	const cwd = makeTempDir("pi-rel-cwd-");
	const sessions = join(mount, "sessions");
	mkdirSync(sessions);
	const big = "z".repeat(64 * 1024);
	const server = startMockLlm({
		steps: [
			{ kind: "reply", text: "first answer" },
			{ kind: "reply", chunkSize: 65536, toolCalls: [{ name: "write", arguments: { path: "a.txt", content: big } }] },
			{ kind: "reply", chunkSize: 65536, toolCalls: [{ name: "write", arguments: { path: "b.txt", content: big } }] },
			{ kind: "reply", text: "done anyway" },
			{ kind: "reply", chunkSize: 65536, text: big },
		],
	});
	writeMockModels(home, server.url);
	try {
		const pi = spawnRpc(argv, home, cwd, ["--session-dir", sessions]);
		pi.send({ id: "p1", type: "prompt", message: "hello" });
		await pi.waitFor((r) => r.type === "agent_end", 30_000);
		const file = join(sessions, readdirSync(sessions).find((n) => n.endsWith(".jsonl"))!);
		fill(mount, 8192);
		const before = readFileSync(file);
		const from = pi.records.length;
		pi.send({ id: "p2", type: "prompt", message: "write two big files" });
		const end = Date.now() + 30_000;
		while (pi.records.filter((r) => r.type === "agent_end").length < 2 && Date.now() < end && !pi.exited()) {
			await Bun.sleep(5);
		}
		const turn = pi.records.slice(from);
		const answered = turn.some((r) => r.type === "message_end" && JSON.stringify(r.message).includes("done anyway"));
		await pi.finish(10_000);

		const print = Bun.spawn([...argv, "--session", file, "--model", "mock/mock-1", "-p", "again"], {
			cwd,
			env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") },
			stdout: "pipe",
			stderr: "pipe",
		});
		const [stdout, stderr, printExit] = await Promise.all([
			new Response(print.stdout).text(),
			new Response(print.stderr).text(),
			print.exited,
		]);
		const after = readFileSync(file);
		const text = after.toString("utf8");
		let unparseable = text.endsWith("\n") ? 0 : 1;
		for (const line of text.split("\n").slice(0, -1)) {
			if (line === "") continue;
			try {
				JSON.parse(line);
			} catch {
				unparseable++;
			}
		}
		return {
			file,
			notices: turn.filter((r) => r.type === "session_save_failed"),
			rpcStderr: failure(pi.stderr()),
			printStderr: failure(stderr),
			answered,
			printExit,
			printAnswered: stdout.includes("zzzz"),
			unparseable,
			prefixKept: after.subarray(0, before.length).equals(before),
		};
	} finally {
		server.stop();
	}
}
