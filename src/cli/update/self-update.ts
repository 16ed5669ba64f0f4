/**
 * Replacing the running pi binary with a release, and back. The new binary is written next to the old one, run
 * once (`--version`, from an empty folder, without Bun's own environment switches), then moved over the old one by
 * rename; the old one stays as `.pi.previous` for `--rollback`. A pi that is running keeps its (old) file, and an
 * update cut short leaves the old binary in place. Two updates of the same binary take turns (a lock next to it).
 * On Windows the release is a zip holding pi.exe, and the running pi.exe is renamed aside to `pi.exe.previous`
 * before the new one moves in (replace-windows.ts).
 */
import { dirname, join } from "node:path";
import lockfile from "proper-lockfile";
import {
	accessSync,
	fsConstants,
	linkSync,
	mkdirSync,
	os,
	readTgz,
	readZip,
	renameSync,
	rmSync,
	statSync,
	UserError,
	unlinkSync,
	uuidv7,
	writeFileSync,
	ZipError,
} from "../../util/index.ts";
import { type Fetch, fetchManifest, fetchVerifiedArchive } from "./release-site.ts";
import {
	cleanStale,
	type FileMoves,
	realMoves,
	replaceWindows,
	rollbackWindows,
	stagedPath,
	windowsPreviousPath,
} from "./replace-windows.ts";

export interface SelfUpdateContext {
	/** The binary to replace (process.execPath). */
	binary: string;
	/** The running version. */
	version: string;
	/** This binary's release target (`linux-x64`, …). */
	target: string;
	base: string;
	fetch: Fetch;
	say(line: string): void;
	/** The system the binary runs on (`win32`: a zip release, pi.exe replaced by renaming it aside). */
	platform: NodeJS.Platform;
	/** File renames and deletes on Windows (tests give a stand-in that refuses to touch a running file). */
	moves?: FileMoves;
}

/** Where the binary an update replaced is kept for `--rollback`. */
export const previousPath = (binary: string, platform: NodeJS.Platform = process.platform): string =>
	platform === "win32" ? windowsPreviousPath(binary) : join(dirname(binary), ".pi.previous");

/** Folders that belong to a package manager, and the command that updates pi there. */
const MANAGED: ReadonlyArray<[RegExp, string]> = [
	[/\/nix\/store\//, "your Nix configuration (nix profile upgrade, home-manager, …)"],
	[/\/(Cellar|homebrew|linuxbrew)\//, "brew upgrade pi"],
	[/\/node_modules\//, "npm update -g (or the package manager that installed it)"],
	[/^\/usr\/(bin|lib|libexec|share)\//, "your system's package manager"],
	[/[\\/]scoop[\\/]apps[\\/]/i, "scoop update pi"],
	[/[\\/]WinGet[\\/]Packages[\\/]/i, "winget upgrade pi"],
];

/** Refuses (with what to run instead) when this binary cannot or should not be replaced in place. */
export async function checkReplaceable(binary: string, base: string): Promise<void> {
	for (const [pattern, command] of MANAGED) {
		if (pattern.test(binary)) {
			throw new UserError(`pi update: ${binary} was installed by a package manager; update it with ${command}`);
		}
	}
	try {
		accessSync(dirname(binary), fsConstants().W_OK);
	} catch {
		throw new UserError(
			`pi update: cannot write to ${dirname(binary)}; reinstall with: curl -fsSL ${base}/install.sh | PI_INSTALL_DIR=${dirname(binary)} sh (as a user who can write there)`,
		);
	}
}

async function withUpdateLock<T>(binary: string, work: () => Promise<T>): Promise<T> {
	let release: (() => Promise<void>) | undefined;
	try {
		release = await lockfile.lock(binary, {
			lockfilePath: join(dirname(binary), ".pi.update.lock"),
			realpath: false,
			retries: { retries: 20, minTimeout: 100, maxTimeout: 1000 },
			stale: 60_000,
		});
	} catch {
		throw new UserError(`pi update: another update of ${binary} is running`);
	}
	try {
		return await work();
	} finally {
		await release();
	}
}

/** Runs a staged binary's `--version` from an empty folder, without variables that make a Bun binary act as Bun. */
async function versionOf(staged: string): Promise<string> {
	const folder = join(os().tmpdir(), `pi-update-check-${uuidv7()}`);
	mkdirSync(folder, { recursive: true });
	try {
		const env = { ...process.env };
		delete env.BUN_BE_BUN;
		delete env.BUN_OPTIONS;
		const proc = Bun.spawn([staged, "--version"], { cwd: folder, env, stdout: "pipe", stderr: "pipe" });
		const [out] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
		return (await proc.exited) === 0 ? out.trim() : "";
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

/** The files of a release archive: a zip (Windows) or a gzip-compressed tar. */
function unpack(file: string, archive: Uint8Array): Map<string, Uint8Array> {
	if (!file.endsWith(".zip")) return readTgz(archive);
	try {
		return readZip(archive);
	} catch (error) {
		if (!(error instanceof ZipError)) throw error;
		throw new UserError(`pi update: ${file}: ${error.message}: nothing was replaced`);
	}
}

/** Updates to the newest release (or `version`); returns the version now installed. */
export async function selfUpdate(ctx: SelfUpdateContext, options: { force?: boolean; version?: string } = {}) {
	await checkReplaceable(ctx.binary, ctx.base);
	const manifest = await fetchManifest(ctx.fetch, ctx.base, options.version ?? "latest");
	if (manifest.version === ctx.version && !options.force) {
		ctx.say(`pi is up to date (${ctx.version})`);
		return ctx.version;
	}
	const entry = manifest.targets[ctx.target];
	if (!entry) throw new UserError(`pi update: release ${manifest.version} has no build for ${ctx.target}`);
	const archive = await fetchVerifiedArchive(ctx.fetch, ctx.base, manifest.version, entry.file);
	const windows = ctx.platform === "win32";
	const exe = windows ? "pi.exe" : "pi";
	const bytes = unpack(entry.file, archive).get(exe);
	if (!bytes) throw new UserError(`pi update: ${entry.file} holds no ${exe}: nothing was replaced`);
	return withUpdateLock(ctx.binary, async () => {
		const moves = ctx.moves ?? realMoves;
		if (windows) cleanStale(ctx.binary, moves);
		const staged = stagedPath(ctx.binary, windows);
		try {
			try {
				writeFileSync(staged, bytes, { mode: 0o755 });
			} catch (error) {
				throw new UserError(
					`pi update: could not write ${staged} (${error instanceof Error ? error.message : String(error)}): pi is unchanged`,
				);
			}
			const reported = await versionOf(staged);
			if (reported !== manifest.version) {
				throw new UserError(
					`pi update: the downloaded pi says "${reported}", not ${manifest.version}: pi is unchanged`,
				);
			}
			if (windows) replaceWindows(ctx.binary, staged, moves);
			else {
				const previous = previousPath(ctx.binary, ctx.platform);
				rmSync(previous, { force: true });
				linkSync(ctx.binary, previous);
				renameSync(staged, ctx.binary);
			}
		} finally {
			rmSync(staged, { force: true });
		}
		ctx.say(`pi updated: ${ctx.version} → ${manifest.version} (the previous one is kept for pi update --rollback)`);
		return manifest.version;
	});
}

/** Puts the binary kept by the last update back (and keeps the one it replaces, so a rollback can be undone). */
export async function rollback(ctx: SelfUpdateContext): Promise<void> {
	await checkReplaceable(ctx.binary, ctx.base);
	const previous = previousPath(ctx.binary, ctx.platform);
	try {
		statSync(previous);
	} catch {
		throw new UserError(`pi update --rollback: there is no previous pi (${previous}) to go back to`);
	}
	await withUpdateLock(ctx.binary, async () => {
		if (ctx.platform === "win32") {
			const moves = ctx.moves ?? realMoves;
			cleanStale(ctx.binary, moves);
			rollbackWindows(ctx.binary, moves);
			return;
		}
		const swap = join(dirname(ctx.binary), `.pi.rollback.${process.pid}`);
		linkSync(ctx.binary, swap);
		try {
			renameSync(previous, ctx.binary);
			renameSync(swap, previous);
		} finally {
			if (statSync(swap, { throwIfNoEntry: false })) unlinkSync(swap);
		}
	});
	ctx.say(`pi rolled back to ${(await versionOf(ctx.binary)) || "the previous version"}`);
}
