/** A package manager over temp dirs and the loopback registry, for the installer's tests. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SettingsStore } from "../../src/config/index.ts";
import { type CommandRunner, createPackageManager, type PackageProgress } from "../../src/packages/index.ts";
import { type FakeRegistry, registryEnv } from "../support/npm-registry.ts";
import { makeTempDir } from "./tmp.ts";

export interface Fixture {
	agentDir: string;
	cwd: string;
	home: string;
	store: SettingsStore;
	events: PackageProgress[];
	warnings: () => string[];
	manager: ReturnType<typeof createPackageManager>;
	settings: (scope: "user" | "project") => Record<string, unknown>;
	read: (path: string) => string | undefined;
}

/** The environment of the install child: PATH, and the registry's private HOME, caches and registry address. */
export const childEnv = (reg: FakeRegistry | { url: string }, home: string): Record<string, string> => ({
	PATH: process.env.PATH ?? "/usr/bin:/bin",
	...registryEnv(reg as FakeRegistry, home),
});

export function fixture(
	reg: FakeRegistry | { url: string },
	extra: { runner?: CommandRunner; env?: Record<string, string>; reuse?: Fixture } = {},
): Fixture {
	const home = extra.reuse?.home ?? makeTempDir("pi-pkg-home-");
	const agentDir = extra.reuse?.agentDir ?? join(home, ".pi", "agent");
	const cwd = extra.reuse?.cwd ?? makeTempDir("pi-pkg-cwd-");
	const store = new SettingsStore({ agentDir, cwd, projectTrusted: true });
	const events: PackageProgress[] = [];
	const manager = createPackageManager({
		agentDir,
		cwd,
		store,
		env: { ...childEnv(reg, home), ...extra.env },
		onProgress: (p) => events.push(p),
		...(extra.runner ? { runner: extra.runner } : {}),
	});
	const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);
	return {
		agentDir,
		cwd,
		home,
		store,
		events,
		warnings: () => events.flatMap((e) => (e.type === "warning" ? [e.message] : [])),
		manager,
		settings: (scope) => JSON.parse(read(store.pathFor(scope === "user" ? "global" : "project")) ?? "{}"),
		read,
	};
}
