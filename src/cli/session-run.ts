/**
 * What print/JSON and RPC runs share before their loop: the session file (`--session`, `-c`, `--fork`, …) with
 * its diagnostics and `--name`, the resources, the `--models` scope, the runtime factory for the mode, and the
 * runtime host (which fires `session_start`, then `resources_discover`, for every runtime it builds). Whatever the
 * mode does, the host is disposed (`session_shutdown`) or the session file closed at the end.
 */
import type { SettingsStore } from "../config/index.ts";
import type { ExtensionError, ExtensionMode, PackageResources, ScopedModel } from "../extensions/index.ts";
import { detectColorSupport, formatResourceDiagnostic, initTheme, ResourceLoader } from "../resources/index.ts";
import type { ExtensionHost, SessionRuntime, SessionStartInfo } from "../runtime/index.ts";
import { installedCandidates, RuntimeHost } from "../runtime/index.ts";
import { timing } from "../util/index.ts";
import type { ParsedArgs } from "./args.ts";
import { createRuntimeFactory } from "./runtime-factory.ts";
import { resolveScopedModels } from "./scoped-models.ts";
import { chooseSession } from "./session-choice.ts";
import type { Credentials } from "./setup.ts";

export interface SessionRunOptions {
	cwd: string;
	agentDir: string;
	args: ParsedArgs;
	settings: SettingsStore["merged"];
	store: SettingsStore;
	host: ExtensionHost;
	credentials: Credentials;
	trusted: boolean;
	err: (text: string) => void;
}

/** How a mode presents itself to extensions. */
export interface ModeBinding {
	mode: ExtensionMode;
	hasUI: boolean;
	ui: Record<string, unknown>;
	onExtensionError: (error: ExtensionError) => void;
	requestShutdown?: () => void;
}

export interface SessionRun {
	host: RuntimeHost;
	resources: ResourceLoader;
	scopedModels: ScopedModel[];
}

export async function runWithSession(
	o: SessionRunOptions,
	binding: ModeBinding,
	body: (run: SessionRun) => Promise<number>,
): Promise<number> {
	const { cwd, agentDir, args, settings, err } = o;
	const manager = chooseSession({
		cwd,
		agentDir,
		flags: args.flags,
		...(settings.sessionDir ? { settingsSessionDir: settings.sessionDir } : {}),
	});
	let host: RuntimeHost | undefined;
	try {
		for (const line of manager.getDiagnostics()) err(`${line}\n`);
		const name = args.flags.get("name") as string | undefined;
		if (name) manager.appendSessionInfo(name);
		timing("session chosen");
		const resources = createResources(o);
		for (const d of resources.getDiagnostics()) err(`${formatResourceDiagnostic(d)}\n`);
		timing("resources loaded");
		// --models, else the saved enabledModels (a pattern that matches nothing names where it came from).
		const modelsFlag = args.flags.get("models") as string | undefined;
		const scopedModels = resolveScopedModels(
			modelsFlag ?? settings.enabledModels?.join(","),
			o.credentials.registry,
			(line) => err(`${modelsFlag ? line : line.replace("--models", "settings.json enabledModels")}\n`),
		);
		const factory = createRuntimeFactory({
			cwd,
			agentDir,
			args,
			scopedModels,
			settings,
			host: o.host,
			credentials: o.credentials,
			resources,
			trusted: o.trusted,
			...binding,
			warn: (line) => err(`${line}\n`),
		});
		host = await RuntimeHost.start(
			factory,
			manager,
			o.host,
			(line) => err(`${line}\n`),
			(runtime, start) => discoverExtensionResources(runtime, resources, cwd, err, start.reason),
		);
		timing("runtime started");
		return await body({ host, resources, scopedModels });
	} finally {
		timing("mode finished");
		if (host) await host.dispose();
		else manager.close();
		timing("disposed");
	}
}

/** The resource loader, and the run's theme (`--use-theme`, else the `theme` setting) looked up in it. */
function createResources(o: SessionRunOptions): ResourceLoader {
	const flags = o.args.flags;
	const colorSupport = detectColorSupport(process.env, o.settings.terminal?.trueColor ?? "auto");
	const resources = new ResourceLoader({
		cwd: o.cwd,
		agentDir: o.agentDir,
		projectTrusted: o.trusted,
		settingsFiles: o.store.files,
		skillPaths: (flags.get("skill") as string[] | undefined) ?? [],
		promptPaths: (flags.get("prompt-template") as string[] | undefined) ?? [],
		themePaths: (flags.get("theme") as string[] | undefined) ?? [],
		packaged: packagedCandidates(o.host.packageResources),
		installed: installedCandidates(o.host.settingsPackageResources),
		noSkills: flags.get("no-skills") === true,
		noPromptTemplates: flags.get("no-prompt-templates") === true,
		noThemes: flags.get("no-themes") === true,
		noContextFiles: flags.get("no-context-files") === true,
		colorSupport,
	});
	const themeName = (flags.get("use-theme") as string | undefined) ?? o.settings.theme;
	initTheme(themeName, { source: resources, support: colorSupport });
	return resources;
}

/**
 * The source info pi 0.87.1 gives the resources of a `-e <folder>` package: prompt templates and themes keep the
 * package's (`source` is the `-e` value, origin "package", the folder as base dir); skills are listed as
 * command-line resources (source "cli", origin "top-level").
 */
function packagedCandidates(resources: PackageResources) {
	const packaged = (list: PackageResources["prompts"]) =>
		list.map((r) => ({
			path: r.path,
			sourceInfo: {
				path: r.path,
				source: r.source,
				scope: "temporary" as const,
				origin: "package" as const,
				baseDir: r.baseDir,
			},
		}));
	return {
		skills: resources.skills.map((r) => ({
			path: r.path,
			sourceInfo: { path: r.path, source: "cli", scope: "temporary" as const, origin: "top-level" as const },
		})),
		prompts: packaged(resources.prompts),
		themes: packaged(resources.themes),
	};
}

/**
 * `resources_discover` after each runtime's `session_start` (reason "reload" after `/reload`, else "startup"):
 * skills, prompt templates and themes that extensions contribute join the loader, and the system prompt (which
 * lists skills) is rebuilt.
 */
async function discoverExtensionResources(
	runtime: SessionRuntime,
	resources: ResourceLoader,
	cwd: string,
	err: (text: string) => void,
	startReason: SessionStartInfo["reason"],
): Promise<void> {
	const bridge = runtime.bridge;
	if (startReason === "reload") resources.clearExtensionResources();
	// The prompt is built from the resources at each request, so what is added here reaches the next one.
	if (!bridge.runner.hasHandlers("resources_discover")) return;
	const before = new Set(resources.getDiagnostics().map(formatResourceDiagnostic));
	const reason = startReason === "reload" ? "reload" : "startup";
	const found = await bridge.runner.emit("resources_discover", { cwd, reason }, bridge.scope.context());
	const byExtension = new Map<string, { skillPaths: string[]; promptPaths: string[]; themePaths: string[] }>();
	const add = (kind: "skillPaths" | "promptPaths" | "themePaths", items: { path: string; extensionPath: string }[]) => {
		for (const { path, extensionPath } of items) {
			const entry = byExtension.get(extensionPath) ?? { skillPaths: [], promptPaths: [], themePaths: [] };
			entry[kind].push(path);
			byExtension.set(extensionPath, entry);
		}
	};
	add("skillPaths", found.skillPaths);
	add("promptPaths", found.promptPaths);
	add("themePaths", found.themePaths);
	for (const [extensionPath, paths] of byExtension) resources.addExtensionResources(extensionPath, paths);
	for (const line of resources.getDiagnostics().map(formatResourceDiagnostic)) if (!before.has(line)) err(`${line}\n`);
}
