/**
 * The package manager's contracts (pi 0.87.1's `pi install` & co., see docs/packages.md of pi).
 *
 * A package source is what a user types (`npm:…`, `git:…`, a git URL, a local path); parsed, it is a `PackageSource`
 * with an identity (npm by name, git by repository URL without ref, local by absolute path) so the same package
 * never loads twice. Installed packages live in one tree per scope: npm packages under `<scopeDir>/npm/node_modules`,
 * git packages under `<scopeDir>/git/<host>/<path>` (scopeDir = the agent dir for `user`, `<cwd>/.pi` for `project`,
 * a cache folder under the agent dir for `temporary`, i.e. `-e npm:…`). What was installed (version and integrity of
 * npm packages, commit of git packages) is recorded per scope in `<scopeDir>/packages.lock.json`.
 */

export type PackageScope = "user" | "project" | "temporary";
/** Scopes that settings files hold. */
export type SettingsPackageScope = Exclude<PackageScope, "temporary">;

export const PACKAGE_RESOURCE_TYPES = ["extensions", "skills", "prompts", "themes"] as const;
export type PackageResourceType = (typeof PACKAGE_RESOURCE_TYPES)[number];

export interface NpmSource {
	type: "npm";
	/** As typed (`npm:@scope/name@^1.2`). */
	raw: string;
	/** `@scope/name` */
	name: string;
	/** The version, range or tag after `@`, if any. */
	version?: string;
	/** What to hand the installer: `name` or `name@version`. */
	spec: string;
	/** An exact version (`1.2.3`) pins; ranges, tags and no version do not (`pi update` moves them). */
	pinned: boolean;
}

export interface GitSource {
	type: "git";
	raw: string;
	/** The URL to clone (`https://github.com/owner/repo`, `ssh://git@host/path`, `git@host:path`, `file:///…`). */
	repo: string;
	/** `github.com` (`local` for file:// URLs). */
	host: string;
	/** `owner/repo` (no `.git`), the install folder below `<scopeDir>/git/<host>/`. */
	path: string;
	ref?: string;
	/** A ref pins (`pi update` re-checks it but never moves it). */
	pinned: boolean;
}

export interface LocalSource {
	type: "local";
	raw: string;
	/** Absolute, resolved against the folder of the settings file that names it (or cwd on the command line). */
	path: string;
}

export type PackageSource = NpmSource | GitSource | LocalSource;

/** Per-type filters of the object form in settings (omitted: all; `[]`: none; globs, `!glob`, `+path`, `-path`). */
export type PackageFilters = Partial<Record<PackageResourceType, string[]>>;

/** One `packages` entry of a settings file, as pi reads it. */
export interface ConfiguredPackage {
	/** The source string as written in settings. */
	source: string;
	scope: SettingsPackageScope;
	/** Object form: its filters (`filtered` in `pi list`). */
	filters?: PackageFilters;
	/** Object form `autoload: false` in project settings: only a filtering delta over the user's entry. */
	autoload?: boolean;
	/** Folder that relative local sources resolve from (the settings file's folder). */
	baseDir: string;
}

/** What `packages.lock.json` records for one installed package. */
export interface InstallRecord {
	/** The identity (`npm:name`, `git:host/path`). */
	identity: string;
	/** The source as configured. */
	source: string;
	/** npm: the resolved version and its integrity (`sha512-…`). */
	version?: string;
	integrity?: string;
	/** git: the checked-out commit. */
	commit?: string;
	ref?: string;
	installedPath: string;
	/** ISO time of the install or last update. */
	installedAt: string;
	/** Dependencies (or the git package itself) whose install scripts were not run. */
	blockedScripts?: string[];
}

/** What a package folder provides, after its manifest/conventions and the settings filters. */
export interface PackageResources {
	extensions: { path: string; file?: string }[];
	skills: string[];
	prompts: string[];
	themes: string[];
}

/** A package ready to load: where it is and what it provides. */
export interface ResolvedPackage {
	configured: ConfiguredPackage | { source: string; scope: "temporary"; baseDir: string };
	parsed: PackageSource;
	identity: string;
	/** The folder the package lives in (installed path, or the local path). */
	root: string;
	resources: PackageResources;
}

/** Progress of an install, remove or update (one line each on the command line). */
export type PackageProgress =
	| { type: "resolving"; source: string }
	| { type: "downloading"; source: string; detail?: string }
	| { type: "linking"; source: string }
	| { type: "cloning"; source: string; repo: string }
	| { type: "done"; source: string; detail?: string }
	| { type: "warning"; message: string };

/** A planned update of one package (`pi update` prints these before it applies them). */
export interface UpdatePlanItem {
	identity: string;
	source: string;
	scope: PackageScope;
	from?: string;
	to?: string;
	/** `pinned`: not moved; `current`: nothing newer. */
	status: "update" | "current" | "pinned" | "missing";
}

/** Runs a subprocess (the install child, git); injectable for tests. */
export interface CommandRunner {
	run(
		command: string,
		args: string[],
		options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number },
	): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** What start-up needs from the installer: a package's folder, installing it first when it is missing. */
export interface PackageInstaller {
	/**
	 * The folder of an npm or git package in `scope`, installed first if missing (returns undefined, with a
	 * warning through `onProgress`, when it is missing and cannot be installed now, e.g. `PI_OFFLINE`).
	 */
	ensureInstalled(source: PackageSource, scope: PackageScope): Promise<string | undefined>;
}

/** The package manager behind `pi install`, `remove`, `list`, `update` and `config`. */
export interface PackageManager extends PackageInstaller {
	/**
	 * Installs (or re-installs) a source and records it in the scope's settings `packages` (string form);
	 * `persist: false` installs the files only (pi's `DefaultPackageManager.install`).
	 */
	install(
		raw: string,
		options: { scope: SettingsPackageScope; trust?: boolean; persist?: boolean },
	): Promise<InstallRecord>;
	/**
	 * Removes a package (by identity) from the scope's settings and its files; false when none matched.
	 * `persist: false` removes the files only, leaving settings as they are.
	 */
	remove(raw: string, options: { scope: SettingsPackageScope; persist?: boolean }): Promise<boolean>;
	/** What `pi update` would change: one item per configured npm/git package (or just `target`). */
	planUpdate(target?: string): Promise<UpdatePlanItem[]>;
	/** Applies the `update` items of a plan (each one atomically). */
	applyUpdate(plan: UpdatePlanItem[]): Promise<InstallRecord[]>;
	/** The packages in settings, user scope first (project ones only when the project is trusted). */
	configured(): ConfiguredPackage[];
	/** What is recorded as installed in a scope. */
	records(scope: PackageScope): InstallRecord[];
}
