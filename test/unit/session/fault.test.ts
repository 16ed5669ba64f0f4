/**
 * Crash test: a child process appends to one session file and is killed with SIGKILL at a random moment, over
 * and over (one kill per child; the next child takes over the dead one's lock). The child prints each entry id
 * only after its write returned, so every id the parent saw must be in the file, in order, on one unbroken chain.
 * A kill in the middle of a large write can leave half a line (Linux stops copying at a fatal signal), and every
 * few rounds the parent appends half a line itself: the next load must ignore it and the next append must cut it
 * off instead of gluing onto it.
 */
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, tempDir, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

const CHILD = join(import.meta.dir, "..", "..", "support", "session-child.ts");
const KILLS = 200;
// Generous: on a loaded 2-core machine a kill round can take twice its usual time.
const BUDGET_MS = 110_000;

async function runChild(file: string): Promise<string[]> {
	const proc = Bun.spawn([process.execPath, CHILD, "append", file], { stdout: "pipe", stderr: "pipe" });
	const acked: string[] = [];
	let buffer = "";
	let ready = false;
	const reading = (async () => {
		const decoder = new TextDecoder();
		for await (const chunk of proc.stdout) {
			buffer += decoder.decode(chunk);
			let nl = buffer.indexOf("\n");
			while (nl !== -1) {
				const line = buffer.slice(0, nl);
				buffer = buffer.slice(nl + 1);
				if (line === "ready") ready = true;
				else acked.push(line);
				nl = buffer.indexOf("\n");
			}
		}
	})();
	// Mostly kill while it appends; sometimes while it is still starting or opening the file.
	const early = Math.random() < 0.15;
	if (!early) while (!ready && proc.exitCode === null) await Bun.sleep(1);
	await Bun.sleep(Math.random() * (early ? 60 : 25));
	proc.kill("SIGKILL");
	const code = await proc.exited;
	await reading;
	if (code !== 137 && proc.signalCode !== "SIGKILL") {
		throw new Error(`child ended on its own (${code}): ${await new Response(proc.stderr).text()}`);
	}
	return acked; // a partial last line (no "\n") was never acknowledged
}

/** A fresh session file with two entries; returns its path and ids. */
function seedFile(dir: string): { file: string; ids: string[] } {
	const seed = SessionManager.create("/p", dir);
	seed.appendMessage(user("start"));
	seed.appendMessage(assistant("ok"));
	const ids = seed.getEntries().map((e) => e.id);
	seed.close();
	return { file: seed.getSessionFile()!, ids };
}

/** What is wrong with `file` given the acknowledged ids, or undefined. */
function verify(file: string, acked: string[]): string | undefined {
	const check = SessionManager.open(file, undefined, undefined, { readOnly: true });
	// A kill can stop a large write anywhere, also just before its newline: a torn line is set aside, a whole one
	// without its newline is kept. Neither loses an acknowledged entry.
	const problems = check
		.getDiagnostics()
		.filter((d) => !d.includes("ignored torn last line") && !d.includes("last line has no newline; kept"));
	if (problems.length > 0) return problems.join("; ");
	const entries = check.getEntries();
	const position = new Map(entries.map((e, i) => [e.id, i]));
	let last = -1;
	for (const id of acked) {
		const at = position.get(id);
		if (at === undefined) return `acknowledged entry ${id} is missing`;
		if (at <= last) return `acknowledged entry ${id} is out of order`;
		last = at;
	}
	for (let i = 1; i < entries.length; i++) {
		if (entries[i]!.parentId !== entries[i - 1]!.id) return `chain broken at ${entries[i]!.id}`;
	}
	if (check.buildSessionContext().messages.length !== entries.length) return "context lost messages";
	return undefined;
}

test(
	`SIGKILL at random points ${KILLS} times: every acknowledged entry survives, in order`,
	async () => {
		const dir = tempDir();
		let { file, ids: seen } = seedFile(dir);
		let kills = 0;
		let torn = 0;
		let tornByKill = 0;
		let entries = 0;
		const started = performance.now();
		while (kills < KILLS) {
			if (performance.now() - started > BUDGET_MS) throw new Error(`only ${kills} kills within the time budget`);
			// A new file every 10 kills keeps each file small, so the test measures crashes, not parsing.
			if (kills > 0 && kills % 10 === 0) {
				entries += seen.length;
				({ file, ids: seen } = seedFile(dir));
			}
			seen.push(...(await runChild(file)));
			kills++;
			expect(verify(file, seen)).toBeUndefined();

			// A kill during a large write can itself leave half a line (the kernel stops copying at a fatal signal).
			const endsClean = readFileSync(file, "utf8").endsWith("\n");
			if (!endsClean) tornByKill++;
			else if (kills % 10 === 5) {
				appendFileSync(file, '{"type":"message","id":"ffffffff","parentId":"0000');
				torn++;
			}
		}
		entries += seen.length;
		for (const line of readFileSync(file, "utf8").split("\n").slice(0, -1)) JSON.parse(line);
		console.log(
			`fault test: ${kills} SIGKILLs (${tornByKill} left a torn last line), ${torn} torn lines injected, ` +
				`${entries} acknowledged entries checked, ${((performance.now() - started) / 1000).toFixed(1)} s`,
		);
	},
	{ timeout: 130_000 },
);
