/**
 * In RPC mode nothing but protocol lines reaches stdout, also while extensions load (module top level, factory):
 * what an extension prints goes to stderr.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

describe("RPC stdout carries only protocol lines", () => {
	test("console.log and process.stdout.write while an extension loads go to stderr", async () => {
		const home = makeTempDir("pi-rpc-load-home-");
		writeMockModels(home, server.url);
		writeTree(home, {
			".pi/agent/extensions/noisy.ts": [
				'console.log("module top level");',
				'process.stdout.write("module write\\n");',
				"export default function (pi) {",
				'\tconsole.log("factory");',
				'\tconsole.info("factory info");',
				'\tpi.on("session_start", () => console.log("handler"));',
				"}",
				"",
			].join("\n"),
		});
		const stdin = `${JSON.stringify({ id: "1", type: "get_state" })}\n`;
		const run = await runPiAsync(["--mode", "rpc", "--no-session", "--provider", "mock", "--model", "mock-1"], {
			home,
			stdin,
		});
		const lines = run.stdout.split("\n").filter((line) => line !== "");
		expect(lines.length).toBeGreaterThan(0);
		for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
		expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ id: "1", command: "get_state", success: true });
		expect(run.stderr.split("\n")).toEqual(
			expect.arrayContaining(["module top level", "module write", "factory", "factory info", "handler"]),
		);
	});
});
