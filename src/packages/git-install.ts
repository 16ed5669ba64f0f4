/**
 * git packages: cloned into a staging folder beside `<scopeDir>/git/<host>/<path>`, checked out at the ref (a tag,
 * branch or commit; detached at its commit), dependencies installed without devDependencies and, unless the
 * package is trusted, with every script off (its own `prepare` & co. included). Sources were validated by
 * parseSource (no option can be smuggled); `--` still goes before every URL and path.
 */
import { dirname, join } from "node:path";
import { existsSync, mkdirSync, rmSync, UserError } from "../util/index.ts";
import { gitError, installError } from "./errors.ts";
import { readLockEntries } from "./lockfile.ts";
import { type InstallChild, runInstaller } from "./npm-tree.ts";
import { isMissingCommand } from "./runner.ts";
import { blockedEntries, ownScripts, readPackageJson } from "./scripts-policy.ts";
import { freshStaging } from "./staging.ts";
import type { GitSource } from "./types.ts";

export interface StagedClone {
	staging: string;
	commit: string;
	/** Scripts that did not run (`name (prepare)`, `dep@1.0.0`). */
	blocked: string[];
}

/** git never prompts (no terminal behind an install) and never reads a credential helper's UI. */
const gitEnv = (env: Record<string, string | undefined>) => ({ ...env, GIT_TERMINAL_PROMPT: "0" });

export async function git(
	child: InstallChild,
	source: string,
	args: string[],
	cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
	try {
		return await child.runner.run("git", args, { cwd, env: gitEnv(child.env) });
	} catch (error) {
		if (isMissingCommand(error)) {
			throw new UserError(`Cannot install ${source}: git is required for git packages and was not found on PATH`);
		}
		throw error;
	}
}

async function gitOk(child: InstallChild, source: string, args: string[], cwd: string): Promise<string> {
	const result = await git(child, source, args, cwd);
	if (result.code !== 0) throw gitError(source, `${result.stderr}\n${result.stdout}`);
	return result.stdout.trim();
}

/** The commit a ref names in a clone (a tag, a local or remote branch, a commit), or undefined. */
async function resolveRef(child: InstallChild, source: string, dir: string, ref: string): Promise<string | undefined> {
	for (const candidate of [ref, `origin/${ref}`]) {
		const result = await git(child, source, ["rev-parse", "--verify", "--quiet", `${candidate}^{commit}`], dir);
		if (result.code === 0 && result.stdout.trim() !== "") return result.stdout.trim();
	}
	return undefined;
}

/** Clones `source` into a staging folder for `target` and installs its dependencies there. */
export async function stageClone(
	source: GitSource,
	target: string,
	isTrusted: (name: string) => boolean,
	child: InstallChild,
): Promise<StagedClone> {
	mkdirSync(dirname(target), { recursive: true });
	const staging = freshStaging(target);
	try {
		return await cloneInto(source, staging, dirname(target), isTrusted, child);
	} catch (error) {
		rmSync(staging, { recursive: true, force: true });
		throw error;
	}
}

async function cloneInto(
	source: GitSource,
	staging: string,
	parent: string,
	isTrusted: (name: string) => boolean,
	child: InstallChild,
): Promise<StagedClone> {
	await gitOk(child, source.raw, ["clone", "--quiet", "--", source.repo, staging], parent);
	if (source.ref) {
		const commit = await resolveRef(child, source.raw, staging, source.ref);
		if (!commit)
			throw new UserError(`Cannot install ${source.raw}: git ref "${source.ref}" does not exist in ${source.repo}`);
		await gitOk(
			child,
			source.raw,
			["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", commit],
			staging,
		);
	}
	const commit = await gitOk(child, source.raw, ["rev-parse", "HEAD"], staging);
	const blocked = await installGitDependencies(source, staging, isTrusted, child);
	return { staging, commit, blocked };
}

async function installGitDependencies(
	source: GitSource,
	dir: string,
	isTrusted: (name: string) => boolean,
	child: InstallChild,
): Promise<string[]> {
	const path = join(dir, "package.json");
	if (!existsSync(path)) return [];
	let manifest: Record<string, unknown>;
	try {
		manifest = readPackageJson(path);
	} catch (error) {
		throw new UserError(`Cannot install ${source.raw}: ${(error as Error).message.replace(dir, source.repo)}`);
	}
	const name = typeof manifest.name === "string" ? manifest.name : (source.path.split("/").pop() as string);
	const trusted = isTrusted(name);
	const own = trusted ? [] : ownScripts(manifest).map((s) => `${name} (${s})`);
	const hasDeps = ["dependencies", "optionalDependencies"].some(
		(k) => typeof manifest[k] === "object" && manifest[k] !== null && Object.keys(manifest[k] as object).length > 0,
	);
	if (!hasDeps && own.length === 0 && !trusted) return [];
	const bun = !child.npmCommand || child.npmCommand.length === 0;
	const scripts = trusted ? [] : ["--ignore-scripts"];
	const args = bun
		? ["install", "--omit=dev", "--omit=peer", ...scripts]
		: ["install", "--omit=dev", "--legacy-peer-deps", ...scripts];
	if (hasDeps || trusted) {
		const result = await runInstaller(child, args, dir);
		if (result.code !== 0) throw installError(source.raw, `${result.stderr}\n${result.stdout}`, result.code);
	}
	let entries = readLockEntries(dir);
	if (trusted && bun && blockedEntries(dir, entries, new Set()).length > 0) {
		const result = await runInstaller(child, ["pm", "trust", "--all"], dir);
		if (result.code !== 0) throw installError(source.raw, `${result.stderr}\n${result.stdout}`, result.code);
		entries = readLockEntries(dir);
	}
	if (trusted) return [];
	const deps = blockedEntries(dir, entries, new Set()).map((e) => `${e.name}@${e.version}`);
	return [...own, ...new Set(deps)];
}

/** The commit the remote's default branch points at (for `pi update` of a git package without a ref). */
export async function remoteHead(child: InstallChild, source: GitSource, cwd: string): Promise<string> {
	const out = await gitOk(child, source.raw, ["ls-remote", "--", source.repo, "HEAD"], cwd);
	const sha = out.split(/\s+/)[0] ?? "";
	if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new UserError(`Cannot update ${source.raw}: the remote has no HEAD`);
	return sha;
}
