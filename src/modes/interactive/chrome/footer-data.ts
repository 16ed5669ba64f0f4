/**
 * What the footer shows that the session does not know: the git branch of the working folder (watched, so a
 * checkout elsewhere shows within half a second), extension statuses (`ctx.ui.setStatus`) and how many providers
 * have models. The branch is `null` outside a repository and `detached` on a detached HEAD; worktrees (`.git` a file)
 * and reftable repositories (HEAD says `.invalid`; asked of git) are understood.
 */
import type { FSWatcher } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { childProcess, existsSync, nodeFs, readFileSync, statSync } from "../../../util/index.ts";
import type { FooterDataProvider } from "./footer.ts";

export interface GitPaths {
	repoDir: string;
	commonGitDir: string;
	headPath: string;
}

/** The repository's HEAD file and git folder, looked up from `cwd` upwards; null outside a repository. */
export function findGitPaths(cwd: string): GitPaths | null {
	for (let dir = cwd; ; dir = dirname(dir)) {
		const gitPath = join(dir, ".git");
		if (existsSync(gitPath)) {
			try {
				if (statSync(gitPath).isDirectory()) {
					const headPath = join(gitPath, "HEAD");
					return existsSync(headPath) ? { repoDir: dir, commonGitDir: gitPath, headPath } : null;
				}
				const pointer = readFileSync(gitPath, "utf8").trim();
				if (!pointer.startsWith("gitdir: ")) return null;
				const gitDir = resolve(dir, pointer.slice("gitdir: ".length).trim());
				const headPath = join(gitDir, "HEAD");
				if (!existsSync(headPath)) return null;
				const common = join(gitDir, "commondir");
				const commonGitDir = existsSync(common) ? resolve(gitDir, readFileSync(common, "utf8").trim()) : gitDir;
				return { repoDir: dir, commonGitDir, headPath };
			} catch {
				return null;
			}
		}
		if (dirname(dir) === dir) return null;
	}
}

function branchFromGit(repoDir: string): string | null {
	const result = childProcess().spawnSync(
		"git",
		["--no-optional-locks", "symbolic-ref", "--quiet", "--short", "HEAD"],
		{
			cwd: repoDir,
			encoding: "utf8",
			timeout: 2000,
		},
	);
	const branch = result.status === 0 ? result.stdout.trim() : "";
	return branch || null;
}

function readBranch(paths: GitPaths | null): string | null {
	if (!paths) return null;
	try {
		const head = readFileSync(paths.headPath, "utf8").trim();
		if (!head.startsWith("ref: refs/heads/")) return "detached";
		const branch = head.slice("ref: refs/heads/".length);
		return branch === ".invalid" ? (branchFromGit(paths.repoDir) ?? "detached") : branch;
	} catch {
		return null;
	}
}

const WATCH_DEBOUNCE_MS = 500;

export class FooterData implements FooterDataProvider {
	private readonly statuses = new Map<string, string>();
	private readonly listeners = new Set<() => void>();
	private providerCount = 0;
	private paths: GitPaths | null;
	private branch: string | null | undefined;
	private watchers: FSWatcher[] = [];
	private refreshTimer: ReturnType<typeof setTimeout> | undefined;

	constructor(private cwd: string) {
		this.paths = findGitPaths(cwd);
		this.watch();
	}

	getGitBranch(): string | null {
		if (this.branch === undefined) this.branch = readBranch(this.paths);
		return this.branch;
	}

	getExtensionStatuses(): ReadonlyMap<string, string> {
		return this.statuses;
	}

	/** Calls `callback` when the branch changes; returns the unsubscribe function. */
	onBranchChange(callback: () => void): () => void {
		this.listeners.add(callback);
		return () => this.listeners.delete(callback);
	}

	/** Sets (or, with undefined, removes) an extension's status text. */
	setExtensionStatus(key: string, text: string | undefined): void {
		if (text === undefined) this.statuses.delete(key);
		else this.statuses.set(key, text);
	}

	clearExtensionStatuses(): void {
		this.statuses.clear();
	}

	getAvailableProviderCount(): number {
		return this.providerCount;
	}

	setAvailableProviderCount(count: number): void {
		this.providerCount = count;
	}

	setCwd(cwd: string): void {
		if (cwd === this.cwd) return;
		this.cwd = cwd;
		this.unwatch();
		this.paths = findGitPaths(cwd);
		this.branch = undefined;
		this.watch();
	}

	dispose(): void {
		this.unwatch();
		this.listeners.clear();
	}

	private refresh(): void {
		const branch = readBranch(this.paths);
		if (branch === this.branch) return;
		this.branch = branch;
		for (const listener of this.listeners) listener();
	}

	private scheduleRefresh(): void {
		if (this.refreshTimer) clearTimeout(this.refreshTimer);
		this.refreshTimer = setTimeout(() => {
			this.refreshTimer = undefined;
			this.refresh();
		}, WATCH_DEBOUNCE_MS);
		(this.refreshTimer as { unref?: () => void }).unref?.();
	}

	/** Watches HEAD's folder (git replaces HEAD by renaming, which a watch on the file would lose) and reftable/. */
	private watch(): void {
		if (!this.paths) return;
		const onHead = (_event: string, name: string | Buffer | null) => {
			if (!name || String(name) === "HEAD") this.scheduleRefresh();
		};
		this.addWatcher(dirname(this.paths.headPath), onHead);
		const reftable = join(this.paths.commonGitDir, "reftable");
		if (existsSync(reftable)) this.addWatcher(reftable, () => this.scheduleRefresh());
	}

	private addWatcher(path: string, listener: (event: string, name: string | Buffer | null) => void): void {
		try {
			const watcher = nodeFs().watch(path, { persistent: false }, listener);
			// A watch that breaks (folder removed) just stops; the branch shown stays the last one read.
			watcher.on("error", () => watcher.close());
			this.watchers.push(watcher);
		} catch {
			// No watching on this file system: the branch is read once.
		}
	}

	private unwatch(): void {
		if (this.refreshTimer) clearTimeout(this.refreshTimer);
		this.refreshTimer = undefined;
		for (const watcher of this.watchers) watcher.close();
		this.watchers = [];
	}
}
