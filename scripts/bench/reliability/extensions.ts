/**
 * A user's misbehaving extension (issue 23 item 5) on our binary and on pi 0.87.1, in RPC mode: each case is held
 * when the process keeps serving (a get_state is answered) and the user is told what happened, or, for
 * `process.exit`, when the session file keeps what was written before. The CI version of these cases:
 * test/reliability/extensions.test.ts and hanging-hook.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EVENT_NAMES } from "../../../src/extensions/events.ts";
import { type RpcProcess, startRpcProcess } from "../../../test/reliability/rpc-process.ts";
import { startMockLlm } from "../../../test/support/mock-llm/index.ts";
import type { Figure, ReliabilityArea, ReliabilityContext } from "./types.ts";

type Impl = { name: "ours" | "pi"; command: string[] };

const THROWER = `export default function (pi) {\n${EVENT_NAMES.map((e) => `  pi.on(${JSON.stringify(e)}, () => { throw new Error("boom in ${e}"); });`).join("\n")}\n}\n`;
const NOISY = `console.log('LOAD'); process.stdout.write('LOAD\\n');
export default function (pi) {
  pi.on('agent_start', () => { console.log('H'); process.stdout.write('H\\n'); setTimeout(() => process.stdout.write('T\\n'), 100); });
}
`;
const HANG = `export default function (pi) { pi.on('tool_call', () => new Promise(() => {})); }\n`;

interface Case {
	name: string;
	files: Record<string, string>;
	/** Held when this returns true after the scenario ran (the process may have exited). */
	run(p: RpcProcess, exited: () => Promise<number | undefined>): Promise<boolean>;
}

async function answered(
	p: RpcProcess,
	record: Record<string, unknown>,
	ms = 15_000,
): Promise<Record<string, any> | undefined> {
	const from = p.records.length;
	p.send(record);
	return p.waitFor((r) => r.type === "response" && r.id === record.id, ms, from).catch(() => undefined);
}

const protocolOnly = (p: RpcProcess) => !p.records.some((r) => r.type === "<not json>");

function sessionHolds(home: string, text: string): boolean {
	try {
		const dir = join(home, ".pi/agent/sessions");
		const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.name.endsWith(".jsonl"));
		return files.some((f) => readFileSync(join(f.parentPath, f.name), "utf8").includes(text));
	} catch {
		return false;
	}
}

const loadFailure = (name: string, source: string): Case => ({
	name,
	files: { "ext.ts": source },
	run: async (p) => (await answered(p, { id: "s", type: "get_state" }))?.success === true && /ext\.ts/.test(p.stderr()),
});

const CASES: Case[] = [
	{
		name: "throws in every event",
		files: { "ext.ts": THROWER },
		run: async (p) => {
			await answered(p, { id: "p", type: "prompt", message: "go" });
			await p.waitFor((r) => r.type === "agent_settled", 15_000).catch(() => undefined);
			const state = await answered(p, { id: "s", type: "get_state" });
			const errors = p.records.filter((r) => r.type === "extension_error");
			return state?.success === true && errors.length > 0 && errors.every((e) => e.extensionPath.endsWith("ext.ts"));
		},
	},
	{
		name: "tool_call never settles, abort",
		files: { "ext.ts": HANG },
		run: async (p) => {
			await answered(p, { id: "p", type: "prompt", message: "go" });
			await p.waitFor((r) => r.type === "tool_execution_start", 15_000).catch(() => undefined);
			const aborted = await answered(p, { id: "a", type: "abort" }, 2_000);
			return aborted !== undefined && (await answered(p, { id: "s", type: "get_state" }, 2_000)) !== undefined;
		},
	},
	{
		name: "stdout writes in RPC",
		files: { "ext.ts": NOISY },
		run: async (p) => {
			await answered(p, { id: "p", type: "prompt", message: "go" });
			await p.waitFor((r) => r.type === "agent_settled", 15_000).catch(() => undefined);
			await Bun.sleep(300);
			return (await answered(p, { id: "s", type: "get_state" })) !== undefined && protocolOnly(p);
		},
	},
	loadFailure("syntax error", "export default function (pi) {\n  const x = ;\n}\n"),
	loadFailure("missing relative import", "import { y } from './nope.ts';\nexport default function (pi) { y(pi); }\n"),
	loadFailure("missing package", "import z from 'no-such-package-xyz';\nexport default function (pi) { z(pi); }\n"),
	{
		name: "process.exit in a handler",
		files: { "ext.ts": "export default function (pi) { pi.on('agent_end', () => process.exit(4)); }\n" },
		run: async (p, exited) => {
			p.send({ id: "p", type: "prompt", message: "keep this prompt" });
			return (await exited()) === 4 && sessionHolds(p.home, "keep this prompt");
		},
	},
];

async function runCase(impl: Impl, c: Case): Promise<boolean> {
	const server = startMockLlm();
	server.push(
		{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
		{ kind: "reply", text: "done" },
	);
	const p = startRpcProcess({ mockUrl: server.url, command: impl.command, files: c.files, args: ["-e", "ext.ts"] });
	let code: Promise<number | undefined> | undefined;
	const exited = () => {
		code ??= p.exit(15_000);
		return code;
	};
	try {
		return await c.run(p, exited);
	} catch {
		return false;
	} finally {
		p.end();
		await exited();
		server.stop();
	}
}

export const extensionsArea: ReliabilityArea = {
	name: "extensions",
	async run(ctx: ReliabilityContext): Promise<Figure[]> {
		const impls: Impl[] = [{ name: "ours", command: [ctx.bin] }];
		if (ctx.pi) impls.push({ name: "pi", command: [ctx.pi.node, ctx.pi.cli] });
		const figures: Figure[] = [];
		const totals: Record<string, number> = { ours: 0, pi: 0 };
		for (const c of CASES) {
			const row: Record<string, string> = {};
			for (const impl of impls) {
				const ok = await runCase(impl, c);
				if (ok) totals[impl.name] = (totals[impl.name] ?? 0) + 1;
				row[impl.name] = ok ? "held" : "not held";
			}
			ctx.log(`${c.name}: ${JSON.stringify(row)}`);
			figures.push({ figure: c.name, ours: row.ours ?? "—", ...(row.pi ? { pi: row.pi } : {}) });
		}
		figures.push({
			figure: "cases held",
			ours: `${totals.ours}/${CASES.length}`,
			...(ctx.pi ? { pi: `${totals.pi}/${CASES.length}` } : {}),
		});
		return figures;
	},
};
