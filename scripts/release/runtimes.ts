/**
 * The Bun runtime each release target is compiled onto: the `@oven/bun-<target>` npm package of the Bun version in
 * package.json, fetched once with `npm pack`, checked against the integrity pinned in `runtimes.lock.json`, and
 * cached under `.cache/bun-runtimes/`. After the first fetch a release builds offline.
 */
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTgz } from "./archive.ts";
import type { ReleaseTarget } from "./targets.ts";

const root = join(import.meta.dir, "..", "..");
const LOCK = join(import.meta.dir, "runtimes.lock.json");
const CACHE = join(root, ".cache", "bun-runtimes");

type Lock = Record<string, Record<string, string>>;

export function bunVersion(): string {
	const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
		devDependencies?: Record<string, string>;
	};
	const version = pkg.devDependencies?.bun;
	if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
		throw new Error(`package.json: devDependencies.bun must be an exact version (found ${version ?? "none"})`);
	}
	return version;
}

function readLock(): Lock {
	return existsSync(LOCK) ? (JSON.parse(readFileSync(LOCK, "utf8")) as Lock) : {};
}

const sri = (bytes: Uint8Array) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** `npm pack`s one package into a temp folder and returns the tarball's bytes. */
function npmPack(spec: string): Uint8Array {
	const dir = mkdtempSync(join(tmpdir(), "pi-runtime-"));
	try {
		const proc = Bun.spawnSync(["npm", "pack", spec, "--silent", "--pack-destination", dir], {
			stdout: "pipe",
			stderr: "pipe",
		});
		const file = proc.stdout.toString().trim().split("\n").at(-1) ?? "";
		if (proc.exitCode !== 0 || !file) {
			throw new Error(`npm pack ${spec} failed: ${proc.stderr.toString().trim().split("\n").at(-1) ?? ""}`);
		}
		return new Uint8Array(readFileSync(join(dir, file)));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The registry's integrity of `spec` (used by `--pin`, never to trust a download). */
function registryIntegrity(spec: string): string {
	const proc = Bun.spawnSync(["npm", "view", spec, "dist.integrity"], { stdout: "pipe", stderr: "pipe" });
	const value = proc.stdout.toString().trim();
	if (proc.exitCode !== 0 || !value.startsWith("sha512-")) throw new Error(`npm view ${spec}: no integrity`);
	return value;
}

/** Records the registry's integrity of every target's runtime for the current Bun version in runtimes.lock.json. */
export function pinRuntimes(targets: readonly ReleaseTarget[]): void {
	const version = bunVersion();
	const lock = readLock();
	const entries = lock[version] ?? {};
	for (const t of targets) entries[t.runtimePackage] = registryIntegrity(`${t.runtimePackage}@${version}`);
	lock[version] = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)));
	writeFileSync(LOCK, `${JSON.stringify(lock, null, "\t")}\n`);
}

function cachePaths(target: ReleaseTarget, version: string) {
	const exe = target.os === "windows" ? "bun.exe" : "bun";
	const dir = join(CACHE, `${target.runtimePackage.replace("/", "__")}@${version}`);
	return { exe, dir, binary: join(dir, exe), stamp: join(dir, "sha256") };
}

/** The path of `target`'s Bun runtime when it is already cached (and unchanged since), without fetching it. */
export function cachedRuntime(target: ReleaseTarget): string | undefined {
	const { binary, stamp } = cachePaths(target, bunVersion());
	if (!existsSync(binary) || !existsSync(stamp)) return undefined;
	return sha256(readFileSync(binary)) === readFileSync(stamp, "utf8").trim() ? binary : undefined;
}

/** The path of `target`'s Bun runtime, fetched and verified on first use. */
export function runtimeFor(target: ReleaseTarget): string {
	const version = bunVersion();
	const pinned = readLock()[version]?.[target.runtimePackage];
	if (!pinned) {
		throw new Error(
			`scripts/release/runtimes.lock.json: no pinned integrity for ${target.runtimePackage}@${version}; ` +
				"run `bun scripts/release.ts --pin` to record the registry's",
		);
	}
	const cached = cachedRuntime(target);
	if (cached) return cached;
	const { exe, dir, binary, stamp } = cachePaths(target, version);
	const tarball = npmPack(`${target.runtimePackage}@${version}`);
	const actual = sri(tarball);
	if (actual !== pinned) {
		throw new Error(`${target.runtimePackage}@${version}: integrity mismatch (pinned ${pinned}, fetched ${actual})`);
	}
	const bytes = readTgz(tarball).get(`package/bin/${exe}`);
	if (!bytes) throw new Error(`${target.runtimePackage}@${version}: the package has no bin/${exe}`);
	mkdirSync(dir, { recursive: true });
	writeFileSync(binary, bytes);
	chmodSync(binary, 0o755);
	writeFileSync(stamp, `${sha256(bytes)}\n`);
	return binary;
}
