/**
 * pi's `DefaultPackageManager` for SDK users and extensions: `new DefaultPackageManager({ cwd, agentDir,
 * settingsManager })` with pi's methods, over our packages layer (`createPackageManager` installs and removes
 * files, `resolvePackages` reads packages). Settings `packages` are read from and written through the given
 * `SettingsManager` (as pi does: `install`/`remove` touch files only, `*AndPersist` and `add/removeSourceToSettings`
 * edit settings); the installer reads `npmCommand` and `trustedPackageScripts` from the settings files on disk.
 */
import { resolve } from "node:path";
import { type PackageSourceSetting, type SettingsManager, SettingsStore } from "../config/index.ts";
import {
	baseDirOf,
	configuredPackages,
	createPackageManager,
	identityOf,
	installedPath,
	type PackageEntry,
	type PackageInstaller,
	type PackageProgress,
	type PackageScope,
	type PackageSource,
	type PackageManager as PackagesLayerManager,
	parseSource,
	resolvePackages,
	type SettingsPackageScope,
	settingsSource,
} from "../packages/index.ts";
import { existsSync } from "../util/index.ts";
import {
	emptyResolvedPaths,
	packagePaths,
	type ResolvedPaths,
	resolvedPaths,
	settingsFilesOf,
} from "./package-manager-paths.ts";

export type { PathMetadata, ResolvedPaths, ResolvedResource } from "./package-manager-paths.ts";

export type MissingSourceAction = "install" | "skip" | "error";

export interface ProgressEvent {
	type: "start" | "progress" | "complete" | "error";
	action: "install" | "remove" | "update" | "clone" | "pull";
	source: string;
	message?: string;
}

export type ProgressCallback = (event: ProgressEvent) => void;

export interface PackageUpdate {
	source: string;
	displayName: string;
	type: "npm" | "git";
	scope: SettingsPackageScope;
}

export interface ConfiguredPackageInfo {
	source: string;
	scope: SettingsPackageScope;
	filtered: boolean;
	installedPath?: string;
}

export interface DefaultPackageManagerOptions {
	cwd: string;
	agentDir: string;
	settingsManager: SettingsManager;
}

type ScopeOption = { local?: boolean };

const scopeOf = (options?: ScopeOption): SettingsPackageScope => (options?.local ? "project" : "user");
const sourceOf = (entry: PackageSourceSetting): string => (typeof entry === "string" ? entry : entry.source);
const isOffline = (): boolean => /^(1|true|yes)$/i.test(process.env.PI_OFFLINE?.trim() ?? "");

export class DefaultPackageManager {
	private readonly cwd: string;
	private readonly agentDir: string;
	private readonly settingsManager: SettingsManager;
	private progressCallback: ProgressCallback | undefined;
	/** The operation in progress, which the packages layer's intermediate steps are reported under. */
	private current: { action: ProgressEvent["action"]; source: string } = { action: "install", source: "" };

	constructor(options: DefaultPackageManagerOptions) {
		this.cwd = resolve(options.cwd);
		this.agentDir = resolve(options.agentDir);
		this.settingsManager = options.settingsManager;
	}

	setProgressCallback(callback: ProgressCallback | undefined): void {
		this.progressCallback = callback;
	}

	/** Adds `source` to the scope's `packages` (replacing the entry of the same package); whether settings changed. */
	addSourceToSettings(source: string, options?: ScopeOption): boolean {
		const scope = scopeOf(options);
		const current = this.packagesOf(scope);
		const written = settingsSource(parseSource(source, this.cwd), this.baseDir(scope));
		const index = current.findIndex((entry) => this.matches(entry, source, scope));
		if (index >= 0 && sourceOf(current[index] as PackageSourceSetting) === written) return false;
		const next = [...current];
		if (index < 0) next.push(written);
		else {
			const existing = current[index] as PackageSourceSetting;
			next[index] = typeof existing === "string" ? written : { ...existing, source: written };
		}
		this.writePackages(scope, next);
		return true;
	}

	/** Removes every entry of `source`'s package from the scope's `packages`; whether one was there. */
	removeSourceFromSettings(source: string, options?: ScopeOption): boolean {
		const scope = scopeOf(options);
		const current = this.packagesOf(scope);
		const next = current.filter((entry) => !this.matches(entry, source, scope));
		if (next.length === current.length) return false;
		this.writePackages(scope, next);
		return true;
	}

	/** Where a source of a scope is installed (a local one: where it is), when it exists. */
	getInstalledPath(source: string, scope: "user" | "project"): string | undefined {
		const path = installedPath(parseSource(source, this.baseDir(scope)), scope, this.dirs());
		return existsSync(path) ? path : undefined;
	}

	async resolve(onMissing?: (source: string) => Promise<MissingSourceAction>): Promise<ResolvedPaths> {
		const files = settingsFilesOf(this.settingsManager, this.cwd, this.agentDir);
		const packages = await this.resolveEntries(configuredPackages(files), onMissing);
		return resolvedPaths(files, this.cwd, this.agentDir, packages);
	}

	async resolveExtensionSources(
		sources: string[],
		options?: { local?: boolean; temporary?: boolean },
	): Promise<ResolvedPaths> {
		const scope: PackageScope = options?.temporary ? "temporary" : scopeOf(options);
		const baseDir = scope === "temporary" ? this.cwd : this.baseDir(scope);
		const entries = sources.map((source): PackageEntry => ({ source, scope, baseDir }) as PackageEntry);
		return this.resolveEntries(entries);
	}

	listConfiguredPackages(): ConfiguredPackageInfo[] {
		const out: ConfiguredPackageInfo[] = [];
		for (const scope of ["user", "project"] as const) {
			for (const entry of this.packagesOf(scope)) {
				const source = sourceOf(entry);
				const installed = this.installedPathOrUndefined(source, scope);
				out.push({ source, scope, filtered: typeof entry === "object", installedPath: installed });
			}
		}
		return out;
	}

	/** Installs the files of a source (a local one must exist); settings are not changed. */
	async install(source: string, options?: ScopeOption): Promise<void> {
		const scope = this.trustedScope(options);
		await this.withProgress("install", source, `Installing ${source}...`, async () => {
			await this.manager().install(source, { scope, persist: false });
		});
	}

	async installAndPersist(source: string, options?: ScopeOption): Promise<void> {
		await this.install(source, options);
		this.addSourceToSettings(source, options);
	}

	/** Removes the installed files of a source; settings are not changed. */
	async remove(source: string, options?: ScopeOption): Promise<void> {
		const scope = this.trustedScope(options);
		await this.withProgress("remove", source, `Removing ${source}...`, async () => {
			await this.manager().remove(source, { scope, persist: false });
		});
	}

	async removeAndPersist(source: string, options?: ScopeOption): Promise<boolean> {
		await this.remove(source, options);
		return this.removeSourceFromSettings(source, options);
	}

	/** Updates the configured npm and git packages (or the one of `source`) that have something newer. */
	async update(source?: string): Promise<void> {
		const manager = this.manager();
		if (isOffline()) {
			if (source !== undefined) await this.matchingOrThrow(manager, source);
			return;
		}
		const plan = await manager.planUpdate(source);
		for (const item of plan) {
			if (item.status !== "update" && item.status !== "missing") continue;
			await this.withProgress("update", item.source, `Updating ${item.source}...`, async () => {
				await manager.applyUpdate([item]);
			});
		}
	}

	/** The configured npm and git packages (project entry first when both scopes name one) with a newer version. */
	async checkForAvailableUpdates(): Promise<PackageUpdate[]> {
		if (isOffline()) return [];
		const manager = this.manager();
		const seen = new Set<string>();
		const out: PackageUpdate[] = [];
		const entries = manager.configured();
		for (const entry of [
			...entries.filter((e) => e.scope === "project"),
			...entries.filter((e) => e.scope === "user"),
		]) {
			let parsed: PackageSource;
			try {
				parsed = parseSource(entry.source, entry.baseDir);
			} catch {
				continue;
			}
			const identity = identityOf(parsed);
			if (parsed.type === "local" || parsed.pinned || seen.has(identity)) continue;
			seen.add(identity);
			const plan = await manager.planUpdate(entry.source).catch(() => []);
			const item = plan.find((p) => p.scope === entry.scope && p.status === "update");
			if (!item) continue;
			const displayName = parsed.type === "npm" ? parsed.name : `${parsed.host}/${parsed.path}`;
			out.push({ source: entry.source, displayName, type: parsed.type, scope: entry.scope });
		}
		return out;
	}

	// --- internals ---

	private dirs() {
		return { agentDir: this.agentDir, cwd: this.cwd };
	}

	private baseDir(scope: SettingsPackageScope): string {
		if (scope === "project") this.assertTrusted(scope);
		return baseDirOf(scope, this.agentDir, this.cwd);
	}

	private assertTrusted(scope: SettingsPackageScope): void {
		if (scope === "project" && !this.settingsManager.isProjectTrusted()) {
			throw new Error("Project is not trusted; refusing to access project package storage");
		}
	}

	private trustedScope(options?: ScopeOption): SettingsPackageScope {
		const scope = scopeOf(options);
		this.assertTrusted(scope);
		return scope;
	}

	private installedPathOrUndefined(source: string, scope: SettingsPackageScope): string | undefined {
		try {
			return this.getInstalledPath(source, scope);
		} catch {
			return undefined;
		}
	}

	private packagesOf(scope: SettingsPackageScope): PackageSourceSetting[] {
		const settings =
			scope === "project" ? this.settingsManager.getProjectSettings() : this.settingsManager.getGlobalSettings();
		return [...((settings.packages ?? []) as PackageSourceSetting[])];
	}

	private writePackages(scope: SettingsPackageScope, packages: PackageSourceSetting[]): void {
		if (scope === "project") this.settingsManager.setProjectPackages(packages);
		else this.settingsManager.setPackages(packages);
	}

	/** Whether a settings entry of `scope` names the same package as `input` (typed relative to cwd). */
	private matches(entry: PackageSourceSetting, input: string, scope: SettingsPackageScope): boolean {
		try {
			const left = identityOf(parseSource(sourceOf(entry), this.baseDir(scope)));
			return left === identityOf(parseSource(input, this.cwd));
		} catch {
			return false;
		}
	}

	private async matchingOrThrow(manager: PackagesLayerManager, source: string): Promise<void> {
		const identity = identityOf(parseSource(source, this.cwd));
		const found = manager
			.configured()
			.some((entry) => identityOf(parseSource(entry.source, entry.baseDir)) === identity);
		if (!found) throw new Error(`No matching package found for ${source}`);
	}

	/** The packages layer's manager over the settings files on disk (settings first written out). */
	private manager(): PackagesLayerManager {
		const store = new SettingsStore({
			agentDir: this.agentDir,
			cwd: this.cwd,
			projectTrusted: this.settingsManager.isProjectTrusted(),
		});
		return createPackageManager({
			agentDir: this.agentDir,
			cwd: this.cwd,
			store,
			onProgress: (progress) => this.forward(progress),
		});
	}

	private forward(progress: PackageProgress): void {
		const source = progress.type === "warning" ? this.current.source : progress.source;
		const message =
			progress.type === "warning" ? progress.message : "detail" in progress ? progress.detail : progress.type;
		this.progressCallback?.({
			type: "progress",
			action: progress.type === "cloning" ? "clone" : this.current.action,
			source,
			...(message ? { message } : {}),
		});
	}

	private async withProgress(
		action: ProgressEvent["action"],
		source: string,
		message: string,
		operation: () => Promise<void>,
	): Promise<void> {
		this.current = { action, source };
		this.progressCallback?.({ type: "start", action, source, message });
		try {
			await operation();
			this.progressCallback?.({ type: "complete", action, source });
		} catch (error) {
			const text = error instanceof Error ? error.message : String(error);
			this.progressCallback?.({ type: "error", action, source, message: text });
			throw error;
		}
	}

	/** Resolves package entries, asking `onMissing` (default: install) about each one not installed. */
	private async resolveEntries(
		entries: readonly PackageEntry[],
		onMissing?: (source: string) => Promise<MissingSourceAction>,
	): Promise<ResolvedPaths> {
		if (entries.length === 0) return emptyResolvedPaths();
		let failure: Error | undefined;
		const installer = async (): Promise<PackageInstaller> => ({
			ensureInstalled: async (source, scope) => {
				if (failure) return undefined;
				const action = onMissing ? await onMissing(source.raw) : "install";
				if (action === "skip") return undefined;
				if (action === "error") {
					failure = new Error(`Missing source: ${source.raw}`);
					return undefined;
				}
				return this.manager().ensureInstalled(source, scope);
			},
		});
		const resolution = await resolvePackages(entries, { ...this.dirs(), installer });
		if (failure) throw failure;
		return packagePaths(resolution);
	}
}

/** pi's `PackageManager` interface: what `DefaultPackageManager` offers. */
export type PackageManager = Omit<DefaultPackageManager, "checkForAvailableUpdates">;
