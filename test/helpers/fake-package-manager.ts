/**
 * A package manager for command tests: it keeps settings `packages` in a real SettingsStore (so the commands see
 * what they would see), installs nothing (local sources must exist; npm and git sources are only recorded), and
 * answers `records`/`planUpdate` from what the test gives it. Every call is logged in `calls`.
 */
import { join, relative } from "node:path";
import type { JsonObject, SettingsStore } from "../../src/config/index.ts";
import {
	type ConfiguredPackage,
	type InstallRecord,
	identityOf,
	installedPath,
	PACKAGE_RESOURCE_TYPES,
	type PackageFilters,
	type PackageManager,
	type PackageProgress,
	type PackageScope,
	parseSource,
	type SettingsPackageScope,
	type UpdatePlanItem,
} from "../../src/packages/index.ts";
import { existsSync, UserError } from "../../src/util/index.ts";

export interface FakeManagerOptions {
	store: SettingsStore;
	agentDir: string;
	cwd: string;
	onProgress: (event: PackageProgress) => void;
	records?: Partial<Record<PackageScope, InstallRecord[]>>;
	plan?: UpdatePlanItem[];
	/** Thrown by install/remove/planUpdate (a failing registry, say). */
	failWith?: Error;
	/** A warning the install reports through onProgress (as a real one reports blocked scripts). */
	warning?: string;
}

/** `projectTrusted`: whether the store it was given trusts the project. */
export type FakeManager = PackageManager & { calls: string[]; projectTrusted: boolean };

const settingsScope = (scope: SettingsPackageScope) => (scope === "project" ? "project" : "global");

export function createFakeManager(options: FakeManagerOptions): FakeManager {
	const { store } = options;
	const calls: string[] = [];
	const baseDir = (scope: SettingsPackageScope) => (scope === "user" ? options.agentDir : join(options.cwd, ".pi"));
	const entries = (scope: SettingsPackageScope): unknown[] => {
		if (scope === "project" && !store.isProjectTrusted()) return [];
		return (store.getScope(settingsScope(scope)).packages as unknown[] | undefined) ?? [];
	};
	const sourceOf = (entry: unknown) => (typeof entry === "string" ? entry : (entry as { source: string }).source);
	const identity = (raw: string, dir: string) => identityOf(parseSource(raw, dir));
	const manager: FakeManager = {
		calls,
		projectTrusted: store.isProjectTrusted(),
		async ensureInstalled(source, scope) {
			return installedPath(source, scope, options);
		},
		async install(raw, { scope, trust }) {
			calls.push(`install ${raw} ${scope}${trust ? " trust" : ""}`);
			if (options.failWith) throw options.failWith;
			const parsed = parseSource(raw, options.cwd);
			if (parsed.type === "local" && !existsSync(parsed.path))
				throw new UserError(`Path does not exist: ${parsed.path}`);
			options.onProgress({ type: "resolving", source: raw });
			options.onProgress({ type: "linking", source: raw });
			if (options.warning) options.onProgress({ type: "warning", message: options.warning });
			const id = identityOf(parsed);
			await store.update(settingsScope(scope), (data) => {
				const list = Array.isArray(data.packages) ? data.packages : [];
				// Local paths are written relative to the settings file's folder, as pi writes them.
				const written = parsed.type === "local" ? relative(baseDir(scope), parsed.path) || "." : raw;
				if (!list.some((e) => identity(sourceOf(e), baseDir(scope)) === id)) list.push(written);
				data.packages = list as JsonObject[];
			});
			return {
				identity: id,
				source: raw,
				installedPath: installedPath(parsed, scope, options),
				installedAt: new Date(0).toISOString(),
			};
		},
		async remove(raw, { scope }) {
			calls.push(`remove ${raw} ${scope}`);
			if (options.failWith) throw options.failWith;
			const id = identity(raw, options.cwd);
			let removed = false;
			await store.update(settingsScope(scope), (data) => {
				const list = Array.isArray(data.packages) ? data.packages : [];
				const kept = list.filter((e) => identity(sourceOf(e), baseDir(scope)) !== id);
				removed = kept.length !== list.length;
				if (removed) data.packages = kept;
			});
			return removed;
		},
		async planUpdate(target) {
			calls.push(`plan ${target ?? "*"}`);
			if (options.failWith) throw options.failWith;
			const plan = options.plan ?? [];
			return target ? plan.filter((item) => item.identity === identity(target, options.cwd)) : plan;
		},
		async applyUpdate(plan) {
			calls.push(`apply ${plan.map((item) => `${item.source}:${item.status}`).join(",")}`);
			return [];
		},
		configured() {
			return (["user", "project"] as const).flatMap((scope) =>
				entries(scope).map((entry): ConfiguredPackage => {
					if (typeof entry === "string") return { source: entry, scope, baseDir: baseDir(scope) };
					const object = entry as Record<string, unknown>;
					const filters: PackageFilters = {};
					for (const type of PACKAGE_RESOURCE_TYPES)
						if (Array.isArray(object[type])) filters[type] = object[type] as string[];
					return {
						source: object.source as string,
						scope,
						baseDir: baseDir(scope),
						filters,
						...(object.autoload === false ? { autoload: false } : {}),
					};
				}),
			);
		},
		records(scope) {
			return options.records?.[scope] ?? [];
		},
	};
	return manager;
}
