/**
 * Package-manager benchmark (issue 21), our binary side by side with pi 0.87.1 (under Node 22, running npm), in
 * interleaved runs (the order flips every round) against a loopback npm registry:
 * (a) `pi install npm:bench-target` (a pi package whose dependency closure holds 30 packages): cold — fresh HOME
 *     and fresh package-manager caches every run — and warm — fresh HOME, caches kept from an earlier install;
 * (b) `pi list` with 50 installed packages (installed by each side's own `pi install`, 50 in a row, also timed);
 * (c) start-up cost of 50 installed packages: `pi -p` against the mock LLM with the 50 vs with none, per package;
 *     and the same prompts/skills as plain files of the agent dir, to tell the packages' own cost from the resources'.
 * Ratios are pi 0.87.1 ÷ ours (above 1: ours is faster). Goals: cold install ≥ 3×, ≤ 1 ms per installed package.
 * A side that cannot do a step (e.g. a binary without `pi install`) is reported as unavailable with its error line.
 * Usage: bun scripts/bench/packages.ts [--ours <binary>, default $PI_BENCH_BINARY or dist/pi] [--runs 5]
 *        [--startup-runs 10] [--deps 30] [--packages 50] [--dep-kb 16] [--kind resources|extensions]
 *        [--only install,list,startup] [--no-pi] [--no-ours] [--keep]
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startMockLlm } from "../../test/support/mock-llm/index.ts";
import { registryEnv, startRegistry } from "../../test/support/npm-registry.ts";
import { ensureRunnablePi } from "../conformance-cache.ts";
import { benchHome } from "./bench-home.ts";
import { BINARY, median } from "./lib.ts";
import { type PackageKind, smallPackages, targetPackages } from "./packages-fixtures.ts";

const { values: opts } = parseArgs({
	options: {
		ours: { type: "string", default: process.env.PI_BENCH_BINARY ?? BINARY },
		runs: { type: "string", default: "5" },
		"startup-runs": { type: "string", default: "10" },
		deps: { type: "string", default: "30" },
		packages: { type: "string", default: "50" },
		"dep-kb": { type: "string", default: "16" },
		kind: { type: "string", default: "resources" },
		only: { type: "string", default: "install,list,startup" },
		"no-pi": { type: "boolean", default: false },
		"no-ours": { type: "boolean", default: false },
		keep: { type: "boolean", default: false },
	},
});
const runs = Number(opts.runs);
const startupRuns = Number(opts["startup-runs"]);
const packageCount = Number(opts.packages);
const kind = opts.kind as PackageKind;
const only = new Set(opts.only.split(","));

interface Side {
	label: "ours" | "pi 0.87.1";
	cmd: string[];
	/** Why this side cannot run a step, once it failed (later steps that need it are skipped). */
	broken?: string;
}
const sides: Side[] = [];
if (!opts["no-ours"]) {
	const ours = resolve(opts.ours);
	if (existsSync(ours)) sides.push({ label: "ours", cmd: [ours] });
	else console.log(`ours: unavailable: ${ours} is missing (npm run build, or --ours <path>)`);
}
if (!opts["no-pi"]) {
	const pi = ensureRunnablePi();
	if ("error" in pi) console.log(`pi 0.87.1: unavailable: ${pi.error}`);
	else sides.push({ label: "pi 0.87.1", cmd: [pi.node, pi.cli] });
}
if (sides.length === 0) process.exit(1);

const root = mkdtempSync(join(tmpdir(), "pi-bench-packages-"));
const { target, all } = targetPackages(Number(opts.deps), Number(opts["dep-kb"]));
const small = smallPackages(packageCount, kind);
const reg = await startRegistry([...all, ...small]);
const mock = startMockLlm({ idleTimeoutMs: 3_600_000 });
let homes = 0;

/** A fresh HOME (agent dir, models.json on the mock) whose package-manager caches live under `cacheRoot`. */
function freshEnv(side: Side, cacheRoot: string): { env: Record<string, string>; agent: string; home: string } {
	const name = `${side.label === "ours" ? "ours" : "pi"}-${homes++}`;
	const bench = benchHome(root, name, mock.url);
	const env = { ...registryEnv(reg, cacheRoot), ...bench.env };
	return { env, agent: bench.agent, home: join(root, `home-${name}`) };
}
const freshCache = () => mkdtempSync(join(root, "cache-"));

const TIMEOUT_MS = 180_000;

interface Run {
	ms: number;
	cpuMs: number;
	out?: string;
	error?: string;
}

/** One run, asynchronous (the registry and the mock answer from this process). */
async function run(side: Side, args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
	const started = performance.now();
	const child = Bun.spawn([...side.cmd, ...args], { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
	// A binary that does not know the command may wait for input or a model: stop it rather than hang the bench.
	const timer = setTimeout(() => child.kill(), TIMEOUT_MS);
	const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
	await child.exited;
	clearTimeout(timer);
	if (child.signalCode) return { ms: 0, cpuMs: 0, error: `\`pi ${args.join(" ")}\` timed out after ${TIMEOUT_MS} ms` };
	const ms = performance.now() - started;
	const usage = child.resourceUsage()?.cpuTime;
	const cpuMs = usage ? Number(usage.user + usage.system) / 1000 : 0;
	if (child.exitCode === 0) return { ms, cpuMs, out };
	const line = `${err}\n${out}`
		.split("\n")
		.map((l) => l.trim())
		.filter(Boolean)
		.at(0);
	return { ms, cpuMs, error: `\`pi ${args.join(" ")}\` exited ${child.exitCode}: ${line ?? "(no output)"}` };
}

const installedIn = (agent: string, name: string) =>
	existsSync(join(agent, "npm", "node_modules", name, "package.json"));

/** Interleaved rounds: every round runs each live side once, the order flipping from round to round. */
async function rounds(count: number, body: (side: Side) => Promise<Run | undefined>): Promise<Map<Side, Run[]>> {
	const samples = new Map<Side, Run[]>(sides.map((s) => [s, []]));
	for (let i = 0; i < count; i++) {
		const order = i % 2 === 0 ? sides : [...sides].reverse();
		for (const side of order) {
			if (side.broken) continue;
			const sample = await body(side);
			if (sample !== undefined) samples.get(side)?.push(sample);
		}
	}
	return samples;
}

function fail(side: Side, reason: string): undefined {
	side.broken = reason;
	console.log(`${side.label}: unavailable: ${reason}`);
	return undefined;
}

const rows: string[] = [];
const medianOf = (xs: number[]) => median([...xs].sort((a, b) => a - b));
const fmt = (ms: number) => (Math.abs(ms) >= 100 ? ms.toFixed(0) : ms.toFixed(2));

/**
 * One table row: each side's median wall time (and median CPU time of it and its children, steadier on a busy
 * machine), and the ratios pi ÷ ours of both.
 */
function row(label: string, samples: Map<Side, Run[]>, goal = "", unit = "ms"): void {
	const cells: string[] = [];
	const medians: Record<string, { wall: number; cpu: number }> = {};
	for (const side of sides) {
		const xs = samples.get(side) ?? [];
		if (xs.length === 0) {
			cells.push(side.broken ? "unavailable" : "—");
			continue;
		}
		const wall = medianOf(xs.map((x) => x.ms));
		const cpu = medianOf(xs.map((x) => x.cpuMs));
		medians[side.label] = { wall, cpu };
		cells.push(`${fmt(wall)} ${unit} (CPU ${fmt(cpu)}, n=${xs.length})`);
	}
	const ours = medians.ours;
	const pi = medians["pi 0.87.1"];
	const ratio = (a?: number, b?: number) =>
		a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}×` : "—";
	rows.push(
		`| ${label} | ${cells.join(" | ")} | ${ratio(pi?.wall, ours?.wall)} | ${ratio(pi?.cpu, ours?.cpu)} | ${goal} |`,
	);
}

// (a) install of a package with `deps` dependencies, cold and warm.
async function installBench(): Promise<void> {
	const installOnce = async (side: Side, cacheRoot: string) => {
		const { env, agent, home } = freshEnv(side, cacheRoot);
		const result = await run(side, ["install", `npm:${target.name}`], env, home);
		if (result.error) return fail(side, result.error);
		if (!installedIn(agent, target.name) || !installedIn(agent, "bench-dep-01")) {
			return fail(side, `install exited 0 but ${agent}/npm/node_modules lacks ${target.name} or its dependencies`);
		}
		if (!opts.keep) rmSync(home, { recursive: true, force: true });
		return result;
	};
	const cold = await rounds(runs, async (side) => {
		const cache = freshCache();
		const sample = await installOnce(side, cache);
		rmSync(cache, { recursive: true, force: true });
		return sample;
	});
	row(`install npm:${target.name} (${opts.deps} deps), cold cache`, cold, "≥ 3×");
	const warmCaches = new Map<Side, string>();
	for (const side of sides) {
		if (side.broken) continue;
		const cache = freshCache();
		warmCaches.set(side, cache);
		await installOnce(side, cache); // fills the cache; not counted
	}
	const warm = await rounds(runs, (side) => installOnce(side, warmCaches.get(side) as string));
	row(`install npm:${target.name}, warm cache`, warm);
}

/** Each side's HOME with the `packageCount` small packages installed (by its own `pi install`), and one without. */
type Home = ReturnType<typeof freshEnv>;
const prepared = new Map<Side, { full: Home; plain: Home; empty: Home }>();
async function prepare(): Promise<void> {
	const installs = new Map<Side, Run[]>(sides.map((s) => [s, []]));
	for (const side of sides) {
		if (side.broken) continue;
		const cache = freshCache();
		const full = freshEnv(side, cache);
		const empty = freshEnv(side, cache);
		const plain = freshEnv(side, cache);
		for (const pkg of small) {
			const result = await run(side, ["install", `npm:${pkg.name}`], full.env, full.home);
			if (result.error) {
				fail(side, result.error);
				break;
			}
			installs.get(side)?.push(result);
		}
		if (side.broken) continue;
		const missing = small.filter((pkg) => !installedIn(full.agent, pkg.name)).map((pkg) => pkg.name);
		if (missing.length > 0) {
			fail(side, `after ${packageCount} installs ${missing.length} are missing (${missing[0]} …)`);
			continue;
		}
		prepared.set(side, { full, plain, empty });
	}
	row(`pi install npm:bench-pkg-NN into a tree of 0…${packageCount - 1} (each)`, installs);
}

// (b) `pi list` with the installed packages.
async function listBench(): Promise<void> {
	const listed = await rounds(runs * 2, async (side) => {
		const home = prepared.get(side);
		if (!home) return undefined;
		const result = await run(side, ["list"], home.full.env, home.full.home);
		if (result.error) return fail(side, result.error);
		const missing = small.find((pkg) => !(result.out ?? "").includes(pkg.name));
		return missing ? fail(side, `pi list does not show ${missing.name}`) : result;
	});
	row(`pi list (${packageCount} packages)`, listed);
}

/**
 * The same prompts, skills (and extensions) as the small packages, as plain files of the agent dir: what loading
 * those resources costs without any package around them.
 */
function writePlainResources(agent: string): void {
	for (const pkg of small) {
		for (const [rel, content] of Object.entries(pkg.files ?? {})) {
			const target = rel.startsWith("extensions/") ? `extensions/${pkg.name}.ts` : rel;
			mkdirSync(dirname(join(agent, target)), { recursive: true });
			writeFileSync(join(agent, target), content);
		}
	}
}

// (c) start-up cost of the installed packages: `pi -p /p01` (a prompt template of bench-pkg-01, so the mock sees
// "Say 01." when it loaded) with no packages, with the packages' resources as plain files, and with the packages.
async function startupBench(): Promise<void> {
	const args = ["-p", "--no-session", "--provider", "mock", "--model", "mock-1", "/p01"];
	const once = async (side: Side, home: Home, expectLoaded: boolean) => {
		mock.push({ kind: "reply", text: "Hello!" });
		const seen = mock.requests.length;
		const result = await run(side, args, home.env, home.home);
		if (result.error) return fail(side, result.error);
		const body = JSON.stringify(mock.requests.slice(seen).map((r) => r.body));
		if (expectLoaded && !body.includes("Say 01.")) return fail(side, `/p01 did not expand in ${home.home}`);
		return result;
	};
	const variants = ["empty", "plain", "full"] as const;
	const samples = Object.fromEntries(
		variants.map((v) => [v, new Map<Side, Run[]>(sides.map((s) => [s, []]))]),
	) as Record<(typeof variants)[number], Map<Side, Run[]>>;
	for (const side of sides) {
		const homes = prepared.get(side);
		if (homes) writePlainResources(homes.plain.agent);
		if (homes) await once(side, homes.full, true); // warm-up: page cache, transpiler cache
	}
	const before = reg.requests.length;
	await rounds(startupRuns, async (side) => {
		const homes = prepared.get(side);
		if (!homes) return undefined;
		const results: Run[] = [];
		for (const variant of variants) {
			const result = !side.broken ? await once(side, homes[variant], variant !== "empty") : undefined;
			if (result) results.push(result);
		}
		if (results.length === variants.length) {
			for (const [i, variant] of variants.entries()) samples[variant].get(side)?.push(results[i] as Run);
		}
		return undefined;
	});
	const perPackage = (from: Map<Side, Run[]>, to: Map<Side, Run[]>) => {
		const out = new Map<Side, Run[]>();
		for (const side of sides) {
			const a = from.get(side) ?? [];
			const b = to.get(side) ?? [];
			if (a.length === 0 || b.length === 0) continue;
			const per = (pick: (r: Run) => number) => (medianOf(b.map(pick)) - medianOf(a.map(pick))) / packageCount;
			out.set(side, [{ ms: per((r) => r.ms), cpuMs: per((r) => r.cpuMs) }]);
		}
		return out;
	};
	row("pi -p /p01, nothing installed", samples.empty);
	row(`pi -p /p01, the ${packageCount} packages' resources as plain files`, samples.plain);
	row(`pi -p /p01, ${packageCount} packages (${kind})`, samples.full);
	row("start-up cost per installed package", perPackage(samples.empty, samples.full), "≤ 1 ms", "ms/pkg");
	row("… of which the package around the resources", perPackage(samples.plain, samples.full), "", "ms/pkg");
	const calls = reg.requests.length - before;
	if (calls > 0) console.log(`note: start-up runs made ${calls} registry requests (expected none)`);
}

try {
	console.log(`registry ${reg.url}, mock LLM ${mock.url}, work dir ${root}`);
	if (only.has("install")) await installBench();
	if (only.has("list") || only.has("startup")) await prepare();
	if (only.has("list")) await listBench();
	if (only.has("startup")) await startupBench();
	console.log(`\n| case | ${sides.map((s) => s.label).join(" | ")} | pi ÷ ours (wall) | pi ÷ ours (CPU) | goal |`);
	console.log(`|---|${sides.map(() => "---:|").join("")}---:|---:|---|`);
	for (const line of rows) console.log(line);
	for (const side of sides) if (side.broken) console.log(`${side.label}: ${side.broken}`);
} finally {
	reg.stop();
	mock.stop();
	if (opts.keep) console.log(`kept ${root}`);
	else rmSync(root, { recursive: true, force: true });
}
