/**
 * RPC input (issue 23 item 7) on our binary and on pi 0.87.1: bad lines answered one error each with the process
 * still serving, the time to answer a `get_state` sent right behind a 50 MB line, and every command of the protocol
 * sent while a run streams (one response each). The CI version of these cases: test/reliability/rpc-input.test.ts.
 */
import { RPC_COMMAND_TYPES } from "../../../src/modes/rpc/types.ts";
import { EVERY_COMMAND } from "../../../test/reliability/rpc-commands.ts";
import { type RpcProcess, startRpcProcess } from "../../../test/reliability/rpc-process.ts";
import { startMockLlm } from "../../../test/support/mock-llm/index.ts";
import type { Figure, ReliabilityArea, ReliabilityContext } from "./types.ts";

const BAD_LINES: (string | Uint8Array)[] = [
	"not json\n",
	"\n",
	"42\n",
	"[1,2]\n",
	"null\n",
	'"get_state"\n',
	'{"id":"a"}\n',
	'{"id":"b","type":7}\n',
	'{"id":"c","type":"nope"}\n',
	'{"id":"d","type":"prompt","message":5}\n',
	'{"id":"e","type":"switch_session"}\n',
	Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]),
	Buffer.from([0xc3, 0x28, 0x80, 0x0a]),
];

type Impl = { name: "ours" | "pi"; command: string[] };

/** Sends `line` then a get_state: held when exactly one record answers the line and the get_state is answered. */
async function held(p: RpcProcess, line: string | Uint8Array, id: string, ms: number): Promise<boolean> {
	const from = p.records.length;
	p.send(line);
	p.send({ id, type: "get_state" });
	try {
		await p.waitFor((r) => r.type === "response" && r.id === id, ms, from);
	} catch {
		return false;
	}
	return p.records.slice(from).some((r) => r.id !== id && r.type === "response");
}

async function answeredState(p: RpcProcess, id: string): Promise<boolean> {
	p.send({ id, type: "get_state" });
	return p
		.waitFor((r) => r.type === "response" && r.id === id, 15_000)
		.then(
			() => true,
			() => false,
		);
}

/**
 * Bad lines in order, each followed by a get_state: how many were answered (pi answers some out of order, so the
 * answers are counted at the end) before a get_state went unanswered, and then how the process had ended.
 */
async function badLines(impl: Impl): Promise<{ answered: number; stopped?: string }> {
	const p = startRpcProcess({ mockUrl: "http://127.0.0.1:9", command: impl.command, args: ["--no-session"] });
	let served = 0;
	for (const [i, line] of BAD_LINES.entries()) {
		p.send(line);
		if (!(await answeredState(p, `s${i}`))) break;
		served++;
	}
	await Bun.sleep(300);
	const answers = p.records.filter((r) => r.type === "response" && !String(r.id).startsWith("s")).length;
	p.end();
	const code = await p.exit(5_000);
	return {
		answered: Math.min(answers, served),
		...(served < BAD_LINES.length ? { stopped: `stopped serving after ${served} lines (exit status ${code})` } : {}),
	};
}

async function bigLine(impl: Impl): Promise<string> {
	const p = startRpcProcess({ mockUrl: "http://127.0.0.1:9", command: impl.command, args: ["--no-session"] });
	p.send({ id: "w", type: "get_state" });
	await p.waitFor((r) => r.id === "w", 20_000);
	const started = performance.now();
	const ok = await held(p, `{"id":"u","type":"prompt","message":"${"x".repeat(50 * 1024 * 1024)}\n`, "s", 60_000);
	const ms = Math.round(performance.now() - started);
	p.end();
	await p.exit(5_000);
	return ok ? String(ms) : "no answer in 60 s";
}

async function whileStreaming(impl: Impl): Promise<number> {
	const server = startMockLlm();
	for (let i = 0; i < 6; i++) server.push({ kind: "reply", text: "y".repeat(400), chunkSize: 8, frameDelayMs: 20 });
	const p = startRpcProcess({ mockUrl: server.url, command: impl.command });
	try {
		p.send({ id: "p0", type: "prompt", message: "the first prompt" });
		await p.waitFor((r) => r.type === "message_update", 20_000);
		for (const [type, fields] of Object.entries(EVERY_COMMAND)) p.send({ id: type, type, ...fields });
		const end = Date.now() + 20_000;
		while (Date.now() < end && !Object.keys(EVERY_COMMAND).every((id) => p.records.some((r) => r.id === id))) {
			await Bun.sleep(20);
		}
		await Bun.sleep(300);
		const served = await held(p, '{"id":"x","type":"nope"}\n', "end", 10_000);
		const responses = p.records.filter((r) => r.type === "response");
		const answered = Object.keys(EVERY_COMMAND).filter((id) => responses.filter((r) => r.id === id).length === 1);
		return served ? answered.length : 0;
	} finally {
		p.end();
		await p.exit(5_000);
		server.stop();
	}
}

export const rpcInputArea: ReliabilityArea = {
	name: "rpc-input",
	async run(ctx: ReliabilityContext): Promise<Figure[]> {
		const impls: Impl[] = [{ name: "ours", command: [ctx.bin] }];
		if (ctx.pi) impls.push({ name: "pi", command: [ctx.pi.node, ctx.pi.cli] });
		const results: Record<string, { bad: Awaited<ReturnType<typeof badLines>>; big: string; streaming: number }> = {};
		for (const impl of impls) {
			ctx.log(`${impl.name}: bad lines, 50 MB line, every command while streaming`);
			results[impl.name] = {
				bad: await badLines(impl),
				big: await bigLine(impl),
				streaming: await whileStreaming(impl),
			};
		}
		const { ours, pi } = results as Record<"ours" | "pi", (typeof results)[string] | undefined>;
		const total = Object.keys(EVERY_COMMAND).length;
		return [
			{
				figure: "bad lines answered once each, get_state served after each",
				ours: `${ours?.bad.answered}/${BAD_LINES.length}`,
				...(pi ? { pi: `${pi.bad.answered}/${BAD_LINES.length}` } : {}),
				note: `not JSON, non-objects, no/unknown type, wrong field types, invalid UTF-8${[ours, pi]
					.map((r, i) => (r?.bad.stopped ? `; ${i === 0 ? "ours" : "pi"} ${r.bad.stopped}` : ""))
					.join("")}`,
			},
			{
				figure: "get_state answered after a 50 MB line",
				ours: ours?.big ?? "—",
				...(pi ? { pi: pi.big } : {}),
				note: "ms (an unterminated 50 MB prompt line)",
			},
			{
				figure: "every command while streaming: one response each",
				ours: `${ours?.streaming}/${total}`,
				...(pi ? { pi: `${pi.streaming}/${total}` } : {}),
				note: `${RPC_COMMAND_TYPES.length} command types`,
			},
		];
	},
};
