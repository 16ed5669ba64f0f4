/**
 * The npm install tree of a scope (`<scopeDir>/npm`: package.json, lockfile, node_modules), rebuilt in a staging
 * copy by Bun's package manager inside our own binary (`process.execPath` with `BUN_BE_BUN=1`; from source that is
 * bun itself), or by the command in settings `npmCommand` (pi's npm arguments).
 *
 * What Bun 1.4.5 does, measured here (`node_modules/.bin/bun` and `dist/pi` with BUN_BE_BUN=1, same results)
 * against a loopback registry:
 * - an explicit `"trustedDependencies": []` in the tree's package.json turns off Bun's default trusted list: a
 *   dependency named `esbuild` with a postinstall is blocked (without the key it runs). Names listed there run.
 * - `install <spec> --omit=peer` works: peers are not installed (bun.lock still lists them, node_modules does not
 *   hold them). Without the flag they are.
 * - registry: `NPM_CONFIG_REGISTRY` and `npm_config_registry` are both read, so is `~/.npmrc` (`registry=`,
 *   `//host/:_authToken=` sent as a Bearer token); a 401 without the token fails with "GET <url> - 401".
 *   `BUN_INSTALL_CACHE_DIR` moves the download cache. We pass the user's environment through and set nothing;
 *   an `.npmrc` (or `bunfig.toml`) put in the tree folder itself is read too and kept across installs.
 * - a tarball whose integrity differs from the packument is refused ("Integrity check failed for tarball",
 *   exit 1) and nothing is linked.
 * - `bun pm trust <names>` runs the blocked scripts of those packages in place and adds them to trustedDependencies.
 * - `bun info <name>@<range> version --json` prints the newest version matching the range (or tag) as a JSON
 *   string, through the same registry configuration: that is how `pi update` asks what is newest.
 * - errors: 404 → "GET <url> - 404"; registry down → "ConnectionRefused downloading package manifest <name>".
 */
import { join } from "node:path";
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "../util/index.ts";
import { installError } from "./errors.ts";
import { LOCKFILES, type LockEntry, readLockEntries } from "./lockfile.ts";
import { blockedEntries, closure, readPackageJson } from "./scripts-policy.ts";
import { freshStaging } from "./staging.ts";
import type { CommandRunner } from "./types.ts";

export interface InstallChild {
	runner: CommandRunner;
	/** Environment of children (BUN_BE_BUN removed; set again only for our own install child). */
	env: Record<string, string | undefined>;
	/** Our binary (`process.execPath`). */
	binary: string;
	/** Settings `npmCommand`, when set: the command and its leading arguments. */
	npmCommand?: string[];
}

export interface TreeChange {
	/** Specs to install (`name`, `name@range`). */
	add: string[];
	/** Names to drop from the tree. */
	remove: string[];
	/** Package names whose scripts (and their dependencies' scripts) may run. */
	trusted: Set<string>;
	/** Label for messages (the source as typed). */
	label: string;
}

export interface StagedTree {
	staging: string;
	entries: LockEntry[];
	/** Top-level dependency names of the tree. */
	dependencies: string[];
	/** Blocked install scripts, `name@version`, by the top-level package whose tree holds them. */
	blocked: Map<string, string[]>;
	/** What the installer said it fetched (`14 packages`), when it said so. */
	fetched?: string;
}

const usesBun = (child: InstallChild): boolean => !child.npmCommand || child.npmCommand.length === 0;

/** Runs our own binary as Bun, or the configured npm command. */
export function runInstaller(child: InstallChild, args: string[], cwd: string) {
	if (usesBun(child)) {
		return child.runner.run(child.binary, args, { cwd, env: { ...child.env, BUN_BE_BUN: "1" } });
	}
	const [command, ...lead] = child.npmCommand as string[];
	return child.runner.run(command as string, [...lead, ...args], { cwd, env: child.env });
}

function treeDependencies(root: string): Record<string, string> {
	const path = join(root, "package.json");
	if (!existsSync(path)) return {};
	const deps = readPackageJson(path).dependencies;
	return typeof deps === "object" && deps !== null ? { ...(deps as Record<string, string>) } : {};
}

/**
 * Installs the change into a staging copy of the tree at `root` and returns it (the caller swaps it in). Throws a
 * one-line `UserError` when the installer fails; the staging folder is then removed and `root` is untouched.
 */
export async function stageTree(root: string, change: TreeChange, child: InstallChild): Promise<StagedTree> {
	const staging = freshStaging(root);
	try {
		return await installStaged(root, staging, change, child);
	} catch (error) {
		rmSync(staging, { recursive: true, force: true });
		throw error;
	}
}

async function installStaged(
	root: string,
	staging: string,
	change: TreeChange,
	child: InstallChild,
): Promise<StagedTree> {
	const dependencies = treeDependencies(root);
	for (const name of change.remove) delete dependencies[name];
	const before = readLockEntries(root);
	const allowedBefore = closure(change.trusted, before);
	const bun = usesBun(child);
	const manifest = {
		name: "pi-packages",
		private: true,
		dependencies,
		...(bun ? { trustedDependencies: [...allowedBefore].sort() } : {}),
	};
	writeFileSync(join(staging, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
	writeFileSync(join(staging, ".gitignore"), "*\n");
	// the lockfile, and registry settings a user put beside the tree (kept across swaps)
	for (const file of [...LOCKFILES, ".npmrc", "bunfig.toml"]) {
		if (existsSync(join(root, file))) copyFileSync(join(root, file), join(staging, file));
	}
	mkdirSync(join(staging, "node_modules"), { recursive: true });
	const names = change.add.map(specName);
	const args = bun
		? ["install", ...change.add, "--omit=peer"]
		: [
				"install",
				...change.add,
				"--prefix",
				staging,
				"--legacy-peer-deps",
				...(names.every((n) => change.trusted.has(n)) && names.length > 0 ? [] : ["--ignore-scripts"]),
			];
	const result = await runInstaller(child, args, staging);
	if (result.code !== 0) throw installError(change.label, `${result.stderr}\n${result.stdout}`, result.code);
	const said = /extracted \[(\d+)\]|added (\d+) packages?/.exec(`${result.stderr}\n${result.stdout}`);
	const fetched = said ? `${said[1] ?? said[2]} packages` : undefined;
	let entries = readLockEntries(staging);
	const allowed = closure(change.trusted, entries);
	if (bun) {
		const toTrust = blockedEntries(staging, entries, allowedBefore).filter((e) => allowed.has(e.name));
		if (toTrust.length > 0) {
			const trust = await runInstaller(child, ["pm", "trust", ...new Set(toTrust.map((e) => e.name))], staging);
			if (trust.code !== 0) throw installError(change.label, `${trust.stderr}\n${trust.stdout}`, trust.code);
			entries = readLockEntries(staging);
		}
	}
	const finalDeps = Object.keys(treeDependencies(staging));
	const stillBlocked = blockedEntries(staging, entries, allowed);
	const blocked = new Map<string, string[]>();
	for (const top of finalDeps) {
		const inTree = closure([top], entries);
		const list = stillBlocked.filter((e) => inTree.has(e.name)).map((e) => `${e.name}@${e.version}`);
		if (list.length > 0) blocked.set(top, [...new Set(list)]);
	}
	return { staging, entries, dependencies: finalDeps, blocked, ...(fetched ? { fetched } : {}) };
}

/** `@scope/name@range` → `@scope/name`. */
export function specName(spec: string): string {
	const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
	return at < 0 ? spec : spec.slice(0, at);
}

/** The newest version matching `spec` in the user's registry (asks the install child). */
export async function latestVersion(spec: string, label: string, cwd: string, child: InstallChild): Promise<string> {
	const args = usesBun(child) ? ["info", spec, "version", "--json"] : ["view", spec, "version", "--json"];
	const result = await runInstaller(child, args, cwd);
	if (result.code !== 0) throw installError(label, `${result.stderr}\n${result.stdout}`, result.code);
	const text = result.stdout.trim();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = text;
	}
	const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter(
		(v): v is string => typeof v === "string" && v !== "",
	);
	const newest = versions.sort((a, b) => Bun.semver.order(b, a))[0];
	if (!newest) throw installError(label, `no version in: ${text.slice(0, 200)}`, 1);
	return newest;
}
