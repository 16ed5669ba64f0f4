/**
 * Release builds against the dev build, side by side: `pi --version` and `pi -p hello` (against the mock LLM) of
 * every linux archive in a release folder that runs on this machine, interleaved with dist/pi in one run. Prints
 * each build's median wall time and its ratio to the dev build (below 1: faster).
 * Usage: bun scripts/bench/release.ts <release dir (npm run release --out …)> [runs, default 20]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readTgz } from "../../src/util/index.ts";
import { startMockLlm } from "../../test/support/mock-llm/index.ts";
import { BINARY, median, tempHome } from "./lib.ts";

const [dirArg, runsArg] = process.argv.slice(2);
if (!dirArg) {
	console.error("usage: bun scripts/bench/release.ts <release dir> [runs]");
	process.exit(1);
}
const runs = Number(runsArg ?? 20);
const { home, dispose } = tempHome();
const server = startMockLlm();
mkdirSync(join(home, ".pi", "agent"), { recursive: true });
writeFileSync(
	join(home, ".pi", "agent", "models.json"),
	JSON.stringify({
		providers: { mock: { baseUrl: server.url, api: "anthropic-messages", apiKey: "k", models: [{ id: "mock-1" }] } },
	}),
);
const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };

/** The release's linux binaries that start here (a musl or foreign-CPU build may not). */
const builds: Array<[string, string]> = [["dev", BINARY]];
for (const file of readdirSync(resolve(dirArg)).filter((f) => f.startsWith("pi-linux-") && f.endsWith(".tar.gz"))) {
	const name = file.slice("pi-".length, -".tar.gz".length);
	const binary = join(home, name, "pi");
	mkdirSync(join(home, name));
	writeFileSync(binary, readTgz(new Uint8Array(readFileSync(join(resolve(dirArg), file)))).get("pi") as Uint8Array, {
		mode: 0o755,
	});
	let runsHere = false;
	try {
		runsHere = Bun.spawnSync([binary, "--version"], { env, stdout: "pipe", stderr: "pipe" }).exitCode === 0;
	} catch {
		// No loader for it here (a musl build on glibc, another CPU).
	}
	if (runsHere) builds.push([name, binary]);
	else console.log(`bench: ${name} does not run on this machine, left out`);
}

async function once(binary: string, args: string[]): Promise<number> {
	if (args[0] === "-p") server.push({ kind: "reply", text: "Hello!" });
	const started = performance.now();
	const proc = Bun.spawn([binary, ...args], { env, cwd: home, stdout: "ignore", stderr: "pipe", stdin: "ignore" });
	const err = await new Response(proc.stderr).text();
	if ((await proc.exited) !== 0) throw new Error(`${binary} ${args.join(" ")}: ${err}`);
	return performance.now() - started;
}

const cases: Array<[string, string[]]> = [
	["--version", ["--version"]],
	["-p hello", ["-p", "--no-session", "--provider", "mock", "--model", "mock-1", "hello"]],
];
try {
	for (const [label, args] of cases) {
		const times = new Map<string, number[]>(builds.map(([name]) => [name, []]));
		for (const [, binary] of builds) await once(binary, args); // warm-up
		for (let i = 0; i < runs; i++) {
			for (const [name, binary] of builds) times.get(name)?.push(await once(binary, args));
		}
		const dev = median((times.get("dev") ?? []).sort((a, b) => a - b));
		for (const [name] of builds) {
			const m = median((times.get(name) ?? []).sort((a, b) => a - b));
			console.log(
				`${label.padEnd(10)} ${name.padEnd(20)} median ${m.toFixed(1)} ms  ratio to dev ${(m / dev).toFixed(2)}`,
			);
		}
	}
} finally {
	server.stop();
	dispose();
}
