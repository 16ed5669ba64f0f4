import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { agentPaths, SettingsStore } from "../../../src/config/index.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const writer = join(import.meta.dir, "..", "..", "support", "settings-writer.ts");

async function readLine(stream: ReadableStream<Uint8Array>, expected: string): Promise<string> {
	const reader = stream.getReader();
	let text = "";
	while (!text.includes(expected)) {
		const { value, done } = await reader.read();
		if (done) throw new Error(`stream ended before "${expected}" (got "${text}")`);
		text += new TextDecoder().decode(value);
	}
	reader.releaseLock();
	return text;
}

describe("settings writes across processes", () => {
	test("8 processes writing different keys at once lose nothing", async () => {
		const agentDir = makeTempDir();
		const cwd = makeTempDir();
		const perProcess = 5;
		const children = Array.from({ length: 8 }, (_, p) =>
			Bun.spawn([process.execPath, writer, "write", agentDir, cwd, `p${p}k`, String(perProcess)], {
				stdout: "pipe",
				stderr: "pipe",
			}),
		);
		const codes = await Promise.all(children.map((c) => c.exited));
		const errors = await Promise.all(children.map((c) => new Response(c.stderr).text()));
		expect(errors.join("")).toBe("");
		expect(codes).toEqual(Array(8).fill(0));
		const data = JSON.parse(readFileSync(agentPaths.settings(agentDir), "utf8")) as Record<string, number>;
		for (let p = 0; p < 8; p++) for (let i = 0; i < perProcess; i++) expect(data[`p${p}k${i}`]).toBe(i);
		expect(Object.keys(data)).toHaveLength(8 * perProcess);
		expect(existsSync(`${agentPaths.settings(agentDir)}.lock`)).toBe(false);
	}, 60_000);

	test("a lock left by a killed process is taken over within a few seconds", async () => {
		const agentDir = makeTempDir();
		const cwd = makeTempDir();
		const file = agentPaths.settings(agentDir);
		const holder = Bun.spawn([process.execPath, writer, "hold", file], { stdout: "pipe", stderr: "pipe" });
		await readLine(holder.stdout, "locked");
		expect(existsSync(`${file}.lock`)).toBe(true);
		holder.kill("SIGKILL");
		await holder.exited;

		const store = new SettingsStore({ agentDir, cwd, projectTrusted: true });
		const started = Date.now();
		await store.set("global", "theme", "light");
		const waited = Date.now() - started;
		expect(waited).toBeLessThan(8000);
		expect(store.merged.theme).toBe("light");
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ theme: "light" });
	}, 30_000);

	test("a writer that loses the lock race while stalled writes again from a fresh read: both writes land", async () => {
		const agentDir = makeTempDir();
		const cwd = makeTempDir();
		const file = agentPaths.settings(agentDir);
		// The stalled writer holds the lock past the stale limit (3 s), so the store takes it over and writes first
		// (the 3 s margin keeps that true on a loaded machine).
		const stalled = Bun.spawn([process.execPath, writer, "stall", file, "fromStalled", "6000"], {
			stdout: "pipe",
			stderr: "pipe",
		});
		await readLine(stalled.stdout, "locked");
		const store = new SettingsStore({ agentDir, cwd, projectTrusted: true });
		await store.set("global", "theme", "light");
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ theme: "light" });
		const rest = await readLine(stalled.stdout, "attempts");
		const code = await stalled.exited;
		expect(await new Response(stalled.stderr).text()).toBe("");
		expect(code).toBe(0);
		expect(rest).toContain("attempts 2");
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ theme: "light", fromStalled: true });
		expect(existsSync(`${file}.lock`)).toBe(false);
	}, 30_000);
});
