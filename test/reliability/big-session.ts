/**
 * A large v3 session for the memory cases: turns of a `read` tool call whose result is a 256 KiB text or, every
 * third turn, an image of `largest` bytes (base64 in the line), written line by line (never whole in memory). And
 * the peak RSS of a process opening it: the compiled binary in RPC mode answering `get_state`, or a bun child
 * loading it through the session layer only.
 */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { usage } from "../helpers/provider-vs-pi.ts";

const T = "2026-01-01T00:00:00.000Z";
/** An assistant message of the mock model (`mock/mock-1`, Anthropic messages API) with a small usage. */
export function mockAssistant(content: unknown[], timestamp: number, stopReason = "stop") {
	return {
		role: "assistant",
		content,
		api: "anthropic-messages",
		provider: "mock",
		model: "mock-1",
		usage,
		stopReason,
		timestamp,
	};
}

/**
 * Writes the session (turns until it holds `bytes`, or `turns` turns); returns its size, its largest line in bytes,
 * and its turns. `text` is the size of a text tool output (256 KiB by default).
 */
export function writeBigSession(
	file: string,
	bytes: number,
	largest: number,
	options: { turns?: number; text?: number } = {},
): { size: number; largest: number; turns: number } {
	const fd = openSync(file, "w");
	let size = 0;
	let max = 0;
	const put = (value: unknown) => {
		const line = Buffer.from(`${JSON.stringify(value)}\n`);
		writeSync(fd, line);
		size += line.length;
		max = Math.max(max, line.length - 1);
	};
	const image = Buffer.alloc(Math.floor((largest * 3) / 4) - 512, 7).toString("base64");
	const text = "o".repeat(options.text ?? 256 * 1024);
	let turns = 0;
	try {
		put({ type: "session", version: 3, id: "0194f0c0-0000-7000-8000-00000000b16e", timestamp: T, cwd: "/tmp" });
		let parent: string | null = null;
		for (let turn = 0; options.turns === undefined ? size < bytes : turn < options.turns; turn++) {
			turns = turn + 1;
			const [u, a, r] = [0, 1, 2].map((k) => (turn * 3 + k).toString(16).padStart(8, "0")) as [string, string, string];
			const call = `call_${u}`;
			put({
				type: "message",
				id: u,
				parentId: parent,
				timestamp: T,
				message: { role: "user", content: `turn ${turn}`, timestamp: 1 },
			});
			put({
				type: "message",
				id: a,
				parentId: u,
				timestamp: T,
				message: mockAssistant(
					[{ type: "toolCall", id: call, name: "read", arguments: { path: "x.png" } }],
					2,
					"toolUse",
				),
			});
			const content =
				turn % 3 === 0 ? [{ type: "image", data: image, mimeType: "image/png" }] : [{ type: "text", text }];
			put({
				type: "message",
				id: r,
				parentId: a,
				timestamp: T,
				message: { role: "toolResult", toolCallId: call, toolName: "read", content, isError: false, timestamp: 3 },
			});
			parent = r;
		}
	} finally {
		closeSync(fd);
	}
	return { size, largest: max, turns };
}

/** Peak RSS (VmHWM) of a live process, in bytes. */
export function peakRss(pid: number): number {
	return statusField(pid, "VmHWM");
}

/** A memory figure of /proc/<pid>/status (VmHWM, RssFile, …), in bytes. */
export function statusField(pid: number, name: string): number {
	const status = readFileSync(`/proc/${pid}/status`, "utf8");
	return Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
}

/** The argv's process in RPC mode opening `file` (`--session`): its peak RSS once `get_state` is answered. */
export async function rpcOpenPeak(
	argv: string[],
	file: string,
	home: string,
): Promise<{ peak: number; file: number; ms: number }> {
	const started = performance.now();
	const child = Bun.spawn([...argv, "--mode", "rpc", "--session", file], {
		cwd: home,
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") },
		stdin: "pipe",
		stdout: "pipe",
		stderr: "pipe",
	});
	try {
		child.stdin.write('{"id":"s","type":"get_state"}\n');
		child.stdin.flush();
		const reader = child.stdout.getReader();
		const decoder = new TextDecoder();
		let seen = "";
		while (!seen.includes('"id":"s"')) {
			const { value, done } = await reader.read();
			if (done) throw new Error(`exited before answering get_state: ${await new Response(child.stderr).text()}`);
			seen += decoder.decode(value, { stream: true });
		}
		const ms = performance.now() - started;
		return { peak: peakRss(child.pid), file: statusField(child.pid, "RssFile"), ms };
	} finally {
		child.kill("SIGKILL");
		await child.exited;
	}
}

const OPEN_CHILD = join(import.meta.dir, "..", "support", "session-open-child.ts");

/** A bun child that only loads `file` through the session layer: its peak RSS. */
export function loaderPeak(file: string): number {
	const run = Bun.spawnSync([process.execPath, OPEN_CHILD, file], { stdout: "pipe", stderr: "pipe" });
	const peak = Number(/peak (\d+)/.exec(run.stdout.toString())?.[1]);
	if (!peak) throw new Error(`loader child failed: ${run.stderr.toString()}`);
	return peak;
}
