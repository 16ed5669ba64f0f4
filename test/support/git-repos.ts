/**
 * Local bare git repositories for tests of git package sources, reachable as `file://<path>` (no network): made from
 * a map of files, with helpers to add commits and tags. Commits use a fixed author and date so runs are repeatable,
 * and git runs with no system/global config (no hooks, signing or templates of the machine leak in).
 * Tests call `gitMissingReason()` first and skip with that reason when git is not on PATH.
 * Uses `Bun.spawnSync`: do not call it while a loopback server of the same process must answer a child.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface BareRepo {
	/** The bare repository's folder. */
	path: string;
	/** `file://<path>` */
	url: string;
	/** Writes `files` (null deletes), commits them on the branch and pushes; returns the new commit's SHA. */
	commit(files: Record<string, string | null>, message?: string): string;
	/** Creates tag `name` (annotated when `message` is given) at `ref` (default the branch head) and pushes it. */
	tag(name: string, ref?: string, message?: string): string;
	/** Creates (or moves) branch `name` at `ref` in the bare repository. */
	branch(name: string, ref?: string): void;
	/** The SHA `ref` (a branch, tag or SHA; default the branch head) names in the bare repository. */
	sha(ref?: string): string;
}

let gitChecked: string | undefined | null = null;

/** Why git repositories cannot be made here (git missing from PATH), or undefined when they can. */
export function gitMissingReason(): string | undefined {
	if (gitChecked !== null) return gitChecked;
	const git = Bun.which("git");
	if (!git) gitChecked = "git is not on PATH";
	else {
		const probe = Bun.spawnSync([git, "--version"], { stdout: "pipe", stderr: "pipe" });
		gitChecked = probe.exitCode === 0 ? undefined : `git --version failed: ${probe.stderr.toString().trim()}`;
	}
	return gitChecked;
}

/** An environment for git children that ignores the machine's and user's git config. */
export function isolatedGitEnv(): Record<string, string> {
	return {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: process.env.HOME ?? "/tmp",
		GIT_CONFIG_NOSYSTEM: "1",
		GIT_CONFIG_GLOBAL: "/dev/null",
		GIT_TERMINAL_PROMPT: "0",
		GIT_AUTHOR_NAME: "Test Author",
		GIT_AUTHOR_EMAIL: "author@example.test",
		GIT_COMMITTER_NAME: "Test Author",
		GIT_COMMITTER_EMAIL: "author@example.test",
		GIT_AUTHOR_DATE: "2020-01-01T00:00:00Z",
		GIT_COMMITTER_DATE: "2020-01-01T00:00:00Z",
		LANG: "C",
	};
}

function git(cwd: string, args: string[], env: Record<string, string> = isolatedGitEnv()): string {
	const result = Bun.spawnSync(["git", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", ...args], {
		cwd,
		env,
		stdout: "pipe",
		stderr: "pipe",
	});
	if (result.exitCode !== 0) {
		throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${result.stderr.toString().trim()}`);
	}
	return result.stdout.toString().trim();
}

/**
 * A bare repository `<root>/<name>.git` whose branch (default `main`) holds `files` in one first commit, with a
 * working clone beside it (`<root>/<name>.work`) that the helpers commit through. Throws when git is missing: check
 * `gitMissingReason()` first.
 */
export function createBareRepo(
	root: string,
	name: string,
	files: Record<string, string>,
	options: { branch?: string; message?: string } = {},
): BareRepo {
	const missing = gitMissingReason();
	if (missing) throw new Error(`cannot create git repository ${name}: ${missing}`);
	const branch = options.branch ?? "main";
	const bare = join(root, `${name}.git`);
	const work = join(root, `${name}.work`);
	rmSync(bare, { recursive: true, force: true });
	rmSync(work, { recursive: true, force: true });
	mkdirSync(bare, { recursive: true });
	mkdirSync(work, { recursive: true });
	git(bare, ["init", "--quiet", "--bare", `--initial-branch=${branch}`]);
	git(work, ["init", "--quiet", `--initial-branch=${branch}`]);
	git(work, ["remote", "add", "origin", bare]);
	let tick = 0;

	const repo: BareRepo = {
		path: bare,
		url: `file://${bare}`,
		commit(changes, message) {
			for (const [rel, content] of Object.entries(changes)) {
				const file = join(work, rel);
				if (content === null) rmSync(file, { force: true });
				else {
					mkdirSync(dirname(file), { recursive: true });
					writeFileSync(file, content);
				}
			}
			git(work, ["add", "-A"]);
			// Each commit a second later than the one before, so SHAs differ even for equal trees.
			tick += 1;
			const date = new Date(Date.UTC(2020, 0, 1) + tick * 1000).toISOString();
			const env = { ...isolatedGitEnv(), GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
			git(work, ["commit", "--quiet", "--allow-empty", "-m", message ?? `commit ${tick}`], env);
			git(work, ["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
			return git(work, ["rev-parse", "HEAD"]);
		},
		tag(tagName, ref, message) {
			const target = repo.sha(ref);
			git(bare, message ? ["tag", "-a", "-m", message, tagName, target] : ["tag", tagName, target]);
			git(work, ["fetch", "--quiet", "--tags", "origin"]);
			return target;
		},
		branch(branchName, ref) {
			git(bare, ["branch", "--force", branchName, repo.sha(ref)]);
		},
		sha(ref) {
			return git(bare, ["rev-parse", `${ref ?? branch}^{commit}`]);
		},
	};
	repo.commit(files, options.message ?? "initial commit");
	return repo;
}
