/**
 * A very large RPC prompt (16 and 20 MB on one line) keeps the protocol responsive: a `get_state` sent right
 * behind it is answered within seconds and the run settles. Stdout goes to a file, so the figures are pi's own and
 * not the cost of a client parsing 16 MB records.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

for (const mb of [16, 20]) {
	test(`a ${mb} MB prompt: get_state is answered within 10 s and the run settles within 60 s`, async () => {
		const home = makeTempDir("pi-rel-home-");
		writeMockModels(home, server.url);
		server.push({ kind: "reply", text: "ok" });
		const out = join(home, "out.jsonl");
		const child = Bun.spawn([ensureBinary(), "--mode", "rpc", "--no-session"], {
			cwd: home,
			env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") },
			stdin: "pipe",
			stdout: Bun.file(out),
			stderr: "ignore",
		});
		const started = performance.now();
		child.stdin.write(`${JSON.stringify({ id: "p", type: "prompt", message: "x".repeat(mb * 1024 * 1024) })}\n`);
		child.stdin.write(`${JSON.stringify({ id: "s", type: "get_state" })}\n`);
		child.stdin.flush();
		let state: number | undefined;
		let settled: number | undefined;
		while (settled === undefined && performance.now() - started < 60_000) {
			const text = readFileSync(out, "latin1");
			if (state === undefined && text.includes('"id":"s"')) state = performance.now() - started;
			if (text.includes('"type":"agent_settled"')) settled = performance.now() - started;
			await Bun.sleep(50);
		}
		child.stdin.end();
		await child.exited;
		console.log(
			`${mb} MB prompt: get_state after ${Math.round(state ?? -1)} ms, settled after ${Math.round(settled ?? -1)} ms`,
		);
		expect(state).toBeDefined();
		expect(state as number).toBeLessThan(10_000);
		expect(settled).toBeDefined();
	}, 90_000);
}
