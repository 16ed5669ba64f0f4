/**
 * `npm run release`: builds pi for every platform from this machine, offline once the Bun runtimes are cached.
 *
 *   bun scripts/release.ts [--out <dir>] [--targets linux-x64,darwin-arm64,…] [--base-url <url>] [--pin]
 *                          [--no-size-check]
 *
 * Writes `pi-<target>.tar.gz` (`.zip` for Windows) per target, `SHA256SUMS`, and `manifest.json` (version, commit,
 * date, Bun version, and per target the archive, its size and sha256, and the binary's size) into `--out`
 * (default dist/release). The same commit builds the same bytes: runtimes are pinned (scripts/release/runtimes.ts),
 * the build date is the commit's, and archives are written deterministically. `--pin` records the registry's
 * integrity of the runtimes for the Bun version in package.json, then exits. `install.sh` and `install.ps1` are copied next to the
 * assets with `--base-url` (the release site, laid out like a GitHub releases page) as its default download site.
 * Last, each target's sizes are printed beside pi 0.87.1's release archive for it (scripts/release/pi-reference.ts),
 * and the release fails (exit 1, assets kept for inspection) when one of our archives is larger than pi's.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type ArchiveEntry, tarGz, zip } from "./release/archive.ts";
import { inspectBinary } from "./release/inspect.ts";
import { resignAdHoc, staleSignaturePages } from "./release/macho-sign.ts";
import { piReference } from "./release/pi-reference.ts";
import { bunVersion, pinRuntimes, runtimeFor } from "./release/runtimes.ts";
import { compareSize, sizeTable } from "./release/size-report.ts";
import { archiveName, executableName, type ReleaseTarget, selectTargets, TARGETS } from "./release/targets.ts";

const root = join(import.meta.dir, "..");

function option(name: string): string | undefined {
	const at = process.argv.indexOf(name);
	if (at < 0) return undefined;
	const value = process.argv[at + 1];
	if (value === undefined || value.startsWith("--")) throw new Error(`${name}: a value is required`);
	return value;
}

function git(...argv: string[]): string {
	const proc = Bun.spawnSync(["git", ...argv], { cwd: root, stdout: "pipe", stderr: "ignore" });
	return proc.exitCode === 0 ? proc.stdout.toString().trim() : "";
}

function build(env: Record<string, string>): void {
	const proc = Bun.spawnSync([process.execPath, join(root, "scripts", "build-binary.ts")], {
		cwd: root,
		env: { ...process.env, ...env },
		stdout: "pipe",
		stderr: "pipe",
	});
	if (proc.exitCode !== 0) {
		throw new Error(`build ${env.PI_BUILD_TARGET ?? "host"} failed: ${proc.stderr.toString().trim()}`);
	}
}

interface Built {
	target: ReleaseTarget;
	archive: string;
	archiveSize: number;
	sha256: string;
	binarySize: number;
	ms: number;
	note: string;
}

/** Checks what was built is a binary for the target's OS and CPU. */
function checkBinary(target: ReleaseTarget, bytes: Uint8Array): void {
	const facts = inspectBinary(bytes);
	const format = target.os === "linux" ? "elf" : target.os === "darwin" ? "mach-o" : "pe";
	if (facts.format !== format || facts.arch !== target.arch) {
		throw new Error(`${target.name}: built a ${facts.format}/${facts.arch} binary, expected ${format}/${target.arch}`);
	}
	if (target.os === "darwin" && !facts.signed) throw new Error(`${target.name}: the binary has no code signature`);
}

/**
 * Runs an arm64 linux (glibc) binary's `--version` under qemu where qemu-aarch64 and the arm64 C library are
 * installed; a note of what was checked.
 */
function runUnderQemu(target: ReleaseTarget, binaryPath: string, version: string): string {
	const qemu = Bun.which("qemu-aarch64");
	const sysroot = "/usr/aarch64-linux-gnu";
	if (!qemu || !existsSync(join(sysroot, "lib"))) return "ELF header checked (no qemu-aarch64 with an arm64 libc here)";
	const proc = Bun.spawnSync([qemu, "-L", sysroot, binaryPath, "--version"], { stdout: "pipe", stderr: "pipe" });
	const said = proc.stdout.toString().trim();
	if (proc.exitCode !== 0 || said !== version) {
		throw new Error(`${target.name}: under qemu, --version answered "${said}" (exit ${proc.exitCode}), not ${version}`);
	}
	return `ran under qemu (--version ${said})`;
}

/** A darwin binary's ad-hoc signature, repaired where Bun left stale page hashes, then verified; a note of what was done. */
function signDarwin(target: ReleaseTarget, binary: Uint8Array): string {
	const stale = staleSignaturePages(binary).length;
	if (stale > 0) resignAdHoc(binary);
	const left = staleSignaturePages(binary).length;
	if (left > 0) throw new Error(`${target.name}: ${left} pages still fail the code signature after re-signing`);
	return stale > 0 ? `re-signed (${stale} stale page hashes)` : "signature valid";
}

async function main(): Promise<void> {
	const targets = selectTargets(option("--targets"));
	if (process.argv.includes("--pin")) {
		pinRuntimes(TARGETS);
		console.log(`release: pinned the Bun ${bunVersion()} runtimes in scripts/release/runtimes.lock.json`);
		return;
	}
	const out = resolve(option("--out") ?? join(root, "dist", "release"));
	const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
	const mtime = Number(git("show", "-s", "--format=%ct", "HEAD") || "0");
	const work = mkdtempSync(join(tmpdir(), "pi-release-"));
	const built: Built[] = [];
	try {
		// One host build records the start-up bytecode order every target reuses (a foreign binary cannot run here).
		const order = join(work, "order");
		build({ PI_BUILD_OUTFILE: join(work, "host", "pi"), PI_BUILD_KEEP_ORDER: order });
		const orderFiles = ["print.order", "rpc.order"].map((f) => join(order, f)).join(",");
		mkdirSync(out, { recursive: true });
		for (const target of targets) {
			const started = performance.now();
			const binaryPath = join(work, target.name, executableName(target));
			const releaseBase = option("--base-url");
			build({
				...(releaseBase ? { PI_BUILD_RELEASE_BASE: releaseBase } : {}),
				PI_BUILD_TARGET: target.bunTarget,
				PI_BUILD_EXECUTABLE: runtimeFor(target),
				PI_BUILD_OUTFILE: binaryPath,
				PI_BUILD_ORDER_FILES: orderFiles,
			});
			const binary = new Uint8Array(readFileSync(binaryPath));
			checkBinary(target, binary);
			const note =
				target.os === "darwin"
					? signDarwin(target, binary)
					: target.name === "linux-arm64"
						? runUnderQemu(target, binaryPath, pkg.version)
						: "";
			const entries: ArchiveEntry[] = [{ name: executableName(target), data: binary, mode: 0o755 }];
			const archive = target.os === "windows" ? zip(entries, mtime) : tarGz(entries, mtime);
			const name = archiveName(target);
			writeFileSync(join(out, name), archive);
			built.push({
				target,
				archive: name,
				archiveSize: archive.length,
				sha256: createHash("sha256").update(archive).digest("hex"),
				binarySize: binary.length,
				ms: Math.round(performance.now() - started),
				note,
			});
		}
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
	writeFileSync(join(out, "SHA256SUMS"), built.map((b) => `${b.sha256}  ${b.archive}\n`).join(""));
	const manifest = {
		version: pkg.version,
		commit: git("rev-parse", "HEAD") || "unknown",
		date: git("show", "-s", "--format=%cI", "HEAD") || "unknown",
		bun: bunVersion(),
		targets: Object.fromEntries(
			built.map((b) => [
				b.target.name,
				{
					file: b.archive,
					size: b.archiveSize,
					sha256: b.sha256,
					binarySize: b.binarySize,
					bunTarget: b.target.bunTarget,
				},
			]),
		),
	};
	writeFileSync(join(out, "manifest.json"), `${JSON.stringify(manifest, null, "\t")}\n`);
	const baseUrl = option("--base-url");
	for (const script of ["install.sh", "install.ps1"]) {
		const text = readFileSync(join(root, "scripts", script), "utf8");
		writeFileSync(join(out, script), baseUrl ? text.replace("@PI_BASE_URL@", baseUrl) : text, { mode: 0o755 });
	}
	const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
	for (const b of built) {
		console.log(
			`release: ${b.target.name.padEnd(20)} ${mib(b.binarySize).padStart(10)} binary ${mib(b.archiveSize).padStart(10)} ${b.archive} (${b.ms} ms)${b.note ? ` ${b.note}` : ""}`,
		);
	}
	console.log(`release: ${built.length} targets, SHA256SUMS and manifest.json in ${out}`);
	if (process.argv.includes("--no-size-check")) return;
	// Each archive against pi's own release archive for the target, rebuilt from its npm package (cached).
	const rows = built.map((b) =>
		compareSize(
			{ target: b.target.name, binarySize: b.binarySize, archiveSize: b.archiveSize },
			piReference(b.target, runtimeFor(b.target)),
		),
	);
	for (const line of sizeTable(rows)) console.log(`release: ${line}`);
	if (rows.some((r) => !r.ok)) process.exitCode = 1;
}

try {
	await main();
} catch (error) {
	console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
}
