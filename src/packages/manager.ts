/**
 * The package manager behind `pi install`, `remove`, `list`, `update` and start-up's missing-package installs.
 * Files change under the scope's lock in staging folders swapped in by rename (staging.ts); the record
 * (`packages.lock.json`) and then the settings are written only once the files are in place, so a failure leaves
 * files, record and settings as they were.
 */
import { dirname, join } from "node:path";
import type { SettingsStore } from "../config/index.ts";
import { existsSync, mkdirSync, readdirSync, rmSync, UserError, writeFileSync } from "../util/index.ts";
import { fsError } from "./errors.ts";
import { remoteHead, stageClone } from "./git-install.ts";
import { type InstallChild, latestVersion, stageTree } from "./npm-tree.ts";
import { gitRoot, installedPath, lockRecordPath, npmRoot, type ScopeDirs, scopeDir } from "./paths.ts";
import { readRecords, writeRecords } from "./records.ts";
import { spawnRunner } from "./runner.ts";
import { blockedWarning, readPackageJson, trustedNames } from "./scripts-policy.ts";
import { baseDirOf, configuredPackages, removePackage, upsertPackage } from "./settings-entries.ts";
import { identityOf, parseSource } from "./source.ts";
import { cleanStale, removeDir, swapIn, withScopeLock } from "./staging.ts";
import type {
	CommandRunner,
	GitSource,
	InstallRecord,
	NpmSource,
	PackageManager,
	PackageProgress,
	PackageScope,
	PackageSource,
	UpdatePlanItem,
} from "./types.ts";

export interface PackageManagerOptions {
	agentDir: string;
	cwd: string;
	store: SettingsStore;
	runner?: CommandRunner;
	/** Environment of the install child and git (default `process.env`); `BUN_BE_BUN` is never passed on. */
	env?: Record<string, string | undefined>;
	onProgress?: (progress: PackageProgress) => void;
	/** The binary that runs Bun's package manager (default `process.execPath`: pi itself, or bun from source). */
	binary?: string;
}

const isOffline = (env: Record<string, string | undefined>): boolean =>
	/^(1|true|yes)$/i.test(env.PI_OFFLINE?.trim() ?? "");

interface FileInstall {
	/** Overrides the source's spec (an update installs `name@<newest>`). */
	spec?: string;
	trust?: boolean;
}

export function createPackageManager(options: PackageManagerOptions): PackageManager {
	const { agentDir, cwd, store } = options;
	const dirs: ScopeDirs = { agentDir, cwd };
	const env = { ...(options.env ?? process.env) };
	delete env.BUN_BE_BUN;
	const progress = (p: PackageProgress) => options.onProgress?.(p);
	const child = (): InstallChild => {
		const npmCommand = store.merged.npmCommand;
		return {
			runner: options.runner ?? spawnRunner,
			env,
			binary: options.binary ?? process.execPath,
			...(npmCommand && npmCommand.length > 0 ? { npmCommand: [...npmCommand] } : {}),
		};
	};
	const warnBlocked = (source: string, blocked: string[] | undefined, scope: PackageScope) => {
		if (blocked && blocked.length > 0)
			progress({ type: "warning", message: blockedWarning(source, blocked, scope === "project") });
	};
	const assertScope = (scope: PackageScope) => {
		if (scope === "project" && !store.isProjectTrusted()) {
			throw new UserError("The project is not trusted; refusing to install into or remove from .pi/ (trust it first)");
		}
	};

	async function installNpm(source: NpmSource, scope: PackageScope, opts: FileInstall): Promise<InstallRecord> {
		const root = npmRoot(scope, dirs);
		cleanStale(root);
		const trusted = trustedNames(store);
		if (opts.trust) trusted.add(source.name);
		progress({ type: "resolving", source: source.raw });
		let staging: string | undefined;
		try {
			const staged = await stageTree(
				root,
				{ add: [opts.spec ?? source.spec], remove: [], trusted, label: source.raw },
				child(),
			);
			staging = staged.staging;
			progress({ type: "downloading", source: source.raw, ...(staged.fetched ? { detail: staged.fetched } : {}) });
			const folder = join(staging, "node_modules", ...source.name.split("/"));
			if (!existsSync(join(folder, "package.json"))) {
				throw new UserError(`Cannot install ${source.raw}: the installer did not install ${source.name}`);
			}
			let manifest: Record<string, unknown>;
			try {
				manifest = readPackageJson(join(folder, "package.json"));
			} catch (error) {
				throw new UserError(`Cannot install ${source.raw}: ${(error as Error).message.replace(staging, root)}`);
			}
			const entry = staged.entries.find((e) => e.key === source.name);
			progress({ type: "linking", source: source.raw });
			swapIn(root, staging);
			staging = undefined;
			const version = typeof manifest.version === "string" ? manifest.version : entry?.version;
			const blocked = staged.blocked.get(source.name);
			warnBlocked(source.raw, blocked, scope);
			return {
				identity: identityOf(source),
				source: source.raw,
				...(version ? { version } : {}),
				...(entry?.integrity ? { integrity: entry.integrity } : {}),
				installedPath: installedPath(source, scope, dirs),
				installedAt: new Date().toISOString(),
				...(blocked?.length ? { blockedScripts: blocked } : {}),
			};
		} catch (error) {
			throw fsError(source.raw, error);
		} finally {
			if (staging) rmSync(staging, { recursive: true, force: true });
		}
	}

	async function installGit(source: GitSource, scope: PackageScope, opts: FileInstall): Promise<InstallRecord> {
		const target = installedPath(source, scope, dirs);
		cleanStale(target);
		const root = gitRoot(scope, dirs);
		if (!existsSync(join(root, ".gitignore"))) {
			mkdirSync(root, { recursive: true });
			writeFileSync(join(root, ".gitignore"), "*\n");
		}
		const trusted = trustedNames(store);
		progress({ type: "cloning", source: source.raw, repo: source.repo });
		let staging: string | undefined;
		try {
			const staged = await stageClone(source, target, (name) => opts.trust === true || trusted.has(name), child());
			staging = staged.staging;
			progress({ type: "linking", source: source.raw });
			swapIn(target, staging);
			staging = undefined;
			warnBlocked(source.raw, staged.blocked, scope);
			return {
				identity: identityOf(source),
				source: source.raw,
				commit: staged.commit,
				...(source.ref ? { ref: source.ref } : {}),
				installedPath: target,
				installedAt: new Date().toISOString(),
				...(staged.blocked.length ? { blockedScripts: staged.blocked } : {}),
			};
		} catch (error) {
			throw fsError(source.raw, error);
		} finally {
			if (staging) rmSync(staging, { recursive: true, force: true });
			pruneEmpty(dirname(target), root);
		}
	}

	/** Installs the files of a remote source (under the scope's lock) and records them. */
	function installFiles(source: NpmSource | GitSource, scope: PackageScope, opts: FileInstall): Promise<InstallRecord> {
		return withScopeLock(scopeDir(scope, dirs), async () => {
			const record =
				source.type === "npm" ? await installNpm(source, scope, opts) : await installGit(source, scope, opts);
			writeRecords(lockRecordPath(scope, dirs), [record]);
			progress({ type: "done", source: source.raw, detail: record.version ?? record.commit?.slice(0, 7) });
			return record;
		});
	}

	const ensuring = new Map<string, Promise<string | undefined>>();

	const manager: PackageManager = {
		async install(raw, { scope, trust, persist }) {
			assertScope(scope);
			const parsed = parseSource(raw, cwd);
			const baseDir = baseDirOf(scope, agentDir, cwd);
			if (parsed.type === "local") {
				if (!existsSync(parsed.path)) throw new UserError(`Cannot install ${raw}: ${parsed.path} does not exist`);
				if (persist !== false) await upsertPackage(store, scope, parsed, baseDir);
				return {
					identity: identityOf(parsed),
					source: raw,
					installedPath: parsed.path,
					installedAt: new Date().toISOString(),
				};
			}
			if (isOffline(env)) throw new UserError(`Cannot install ${raw}: offline (PI_OFFLINE is set)`);
			const record = await installFiles(parsed, scope, { trust: trust === true });
			if (persist === false) return record;
			const trustName = trust ? await trustNameOf(parsed, record.installedPath) : undefined;
			await upsertPackage(store, scope, parsed, baseDir, trustName);
			return record;
		},

		async remove(raw, { scope, persist }) {
			assertScope(scope);
			const parsed = parseSource(raw, cwd);
			const identity = identityOf(parsed);
			const recordPath = lockRecordPath(scope, dirs);
			const recorded = readRecords(recordPath).some((r) => r.identity === identity);
			let removedFiles = false;
			if (parsed.type !== "local") {
				removedFiles = await withScopeLock(scopeDir(scope, dirs), () => removeFiles(parsed, scope));
				if (recorded) writeRecords(recordPath, [], [identity]);
			}
			const inSettings =
				persist !== false && (await removePackage(store, scope, identity, baseDirOf(scope, agentDir, cwd)));
			if (inSettings || removedFiles || recorded) progress({ type: "done", source: raw, detail: "removed" });
			return inSettings || removedFiles || recorded;
		},

		planUpdate: (target) => planUpdate(target),

		async applyUpdate(plan) {
			const out: InstallRecord[] = [];
			for (const item of plan) {
				if (item.status !== "update" && item.status !== "missing") continue;
				if (item.scope === "project") assertScope(item.scope);
				const entry = manager.configured().find((c) => c.scope === item.scope && c.source === item.source);
				const parsed = parseSource(item.source, entry?.baseDir ?? cwd);
				if (parsed.type === "local") continue;
				const spec =
					parsed.type === "npm" && item.status === "update" && item.to ? `${parsed.name}@${item.to}` : undefined;
				out.push(await installFiles(parsed, item.scope, spec ? { spec } : {}));
			}
			return out;
		},

		configured: () => configuredPackages(store, agentDir, cwd),

		records: (scope) => readRecords(lockRecordPath(scope, dirs)),

		ensureInstalled(source, scope) {
			const path = installedPath(source, scope, dirs);
			const record = manager.records(scope).find((r) => r.identity === identityOf(source));
			if (existsSync(path) && satisfiesConfigured(source, path, record)) return Promise.resolve(path);
			if (source.type === "local") {
				progress({ type: "warning", message: `${source.raw}: ${path} does not exist; skipped` });
				return Promise.resolve(undefined);
			}
			if (scope === "project" && !store.isProjectTrusted()) return Promise.resolve(undefined);
			if (isOffline(env)) {
				if (existsSync(path)) return Promise.resolve(path);
				progress({ type: "warning", message: `${source.raw}: not installed and PI_OFFLINE is set; skipped` });
				return Promise.resolve(undefined);
			}
			const key = `${scope}\0${identityOf(source)}`;
			let pending = ensuring.get(key);
			if (!pending) {
				pending = installFiles(source, scope, {}).then(
					(record) => record.installedPath,
					(error: unknown) => {
						ensuring.delete(key);
						progress({ type: "warning", message: `${(error as Error).message}; skipped` });
						return undefined;
					},
				);
				ensuring.set(key, pending);
			}
			return pending;
		},
	};

	async function removeFiles(source: NpmSource | GitSource, scope: PackageScope): Promise<boolean> {
		if (source.type === "git") {
			const target = installedPath(source, scope, dirs);
			cleanStale(target);
			const present = existsSync(target);
			removeDir(target);
			pruneEmpty(dirname(target), gitRoot(scope, dirs));
			return present;
		}
		const root = npmRoot(scope, dirs);
		cleanStale(root);
		if (!existsSync(installedPath(source, scope, dirs))) return false;
		progress({ type: "resolving", source: source.raw });
		const staged = await stageTree(
			root,
			{ add: [], remove: [source.name], trusted: trustedNames(store), label: source.raw },
			child(),
		);
		swapIn(root, staged.staging);
		return true;
	}

	async function trustNameOf(source: PackageSource, folder: string): Promise<string> {
		if (source.type === "npm") return source.name;
		try {
			const name = readPackageJson(join(folder, "package.json")).name;
			if (typeof name === "string" && name !== "") return name;
		} catch {
			// No (readable) package.json: the repository path names it.
		}
		return (source as GitSource).path.split("/").pop() as string;
	}

	async function planUpdate(target?: string): Promise<UpdatePlanItem[]> {
		let entries = manager.configured();
		if (target !== undefined) {
			const identity = identityOf(parseSource(target, cwd));
			entries = entries.filter((e) => identityOf(parseSource(e.source, e.baseDir)) === identity);
			if (entries.length === 0) throw new UserError(`No matching package found for ${target}`);
		}
		const items: UpdatePlanItem[] = [];
		for (const entry of entries) {
			const parsed = parseSource(entry.source, entry.baseDir);
			if (parsed.type === "local") continue;
			const identity = identityOf(parsed);
			const base = { identity, source: entry.source, scope: entry.scope };
			const record = readRecords(lockRecordPath(entry.scope, dirs)).find((r) => r.identity === identity);
			const folder = installedPath(parsed, entry.scope, dirs);
			if (!existsSync(folder)) {
				items.push({ ...base, status: "missing" });
				continue;
			}
			const from =
				parsed.type === "npm"
					? (record?.version ?? installedVersion(folder))
					: (record?.commit ?? (await headOf(folder)));
			if (parsed.pinned) {
				items.push({ ...base, ...(from ? { from } : {}), status: "pinned" });
				continue;
			}
			if (isOffline(env)) throw new UserError(`Cannot check ${entry.source} for updates: offline (PI_OFFLINE is set)`);
			const to =
				parsed.type === "npm"
					? await latestVersion(parsed.spec, entry.source, scopeDir(entry.scope, dirs), child())
					: await remoteHead(child(), parsed, folder);
			const newer = parsed.type === "npm" && from ? Bun.semver.order(to, from) > 0 : to !== from;
			items.push({ ...base, ...(from ? { from } : {}), to, status: newer ? "update" : "current" });
		}
		return items;
	}

	async function headOf(folder: string): Promise<string | undefined> {
		const result = await child()
			.runner.run("git", ["rev-parse", "HEAD"], { cwd: folder, env })
			.catch(() => undefined);
		return result?.code === 0 ? result.stdout.trim() : undefined;
	}

	return manager;
}

/** An installed npm package whose version no longer matches the configured one (settings edited) is re-installed. */
function satisfiesConfigured(source: PackageSource, folder: string, record: InstallRecord | undefined): boolean {
	// a git ref changed in settings: the clone is of another ref
	if (source.type === "git") return record === undefined || record.ref === source.ref;
	if (source.type !== "npm" || source.version === undefined) return true;
	const version = installedVersion(folder);
	if (version === undefined) return false;
	if (!/^[\d^~<>=*xX| .v-]/.test(source.version)) return true; // a dist-tag: whatever it pointed at
	try {
		return Bun.semver.satisfies(version, source.version);
	} catch {
		return true;
	}
}

function installedVersion(folder: string): string | undefined {
	try {
		const version = readPackageJson(join(folder, "package.json")).version;
		return typeof version === "string" ? version : undefined;
	} catch {
		return undefined;
	}
}

/** Removes empty folders from `dir` up to (not including) `root`. */
function pruneEmpty(dir: string, root: string): void {
	let current = dir;
	while (current.startsWith(`${root}/`) && existsSync(current) && readdirSync(current).length === 0) {
		rmSync(current, { recursive: true, force: true });
		current = dirname(current);
	}
}
