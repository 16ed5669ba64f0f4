/**
 * A print or JSON run: the session file, resources, the runtime host (which builds the session runtime and
 * replaces it when a command asks for a new session, a fork or a switch), then the mode. `session_start` fires
 * before the first prompt and `session_shutdown` after the last; the session file is closed (lock released) at
 * the end, whatever happened.
 */

import type { SettingsStore } from "../config/index.ts";
import { createNoopUi } from "../extensions/index.ts";
import { type PromptInput, runJsonMode, runPrintMode } from "../modes/index.ts";
import { formatResourceDiagnostic, ResourceLoader } from "../resources/index.ts";
import type { ExtensionHost, SessionRuntime, SessionStartInfo } from "../runtime/index.ts";
import { NothingToCompactError, RuntimeHost } from "../runtime/index.ts";
import { errorMessage, UserError } from "../util/index.ts";
import type { ParsedArgs } from "./args.ts";
import { createRuntimeFactory } from "./runtime-factory.ts";
import { resolveScopedModels } from "./scoped-models.ts";
import { chooseSession } from "./session-choice.ts";
import type { Credentials } from "./setup.ts";

export interface RunOptions {
	cwd: string;
	agentDir: string;
	args: ParsedArgs;
	settings: SettingsStore["merged"];
	store: SettingsStore;
	host: ExtensionHost;
	credentials: Credentials;
	trusted: boolean;
	inputs: PromptInput[];
	json: boolean;
	out: (text: string) => void;
	err: (text: string) => void;
}

export async function runNonInteractive(o: RunOptions): Promise<number> {
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
		const resources = createResources(o);
		for (const d of resources.getDiagnostics()) err(`${formatResourceDiagnostic(d)}\n`);
		const scoped = resolveScopedModels(args.flags.get("models") as string | undefined, o.credentials.registry, (line) =>
			err(`${line}\n`),
		);
		const factory = createRuntimeFactory({
			cwd,
			agentDir,
			args,
			scopedModels: scoped,
			settings,
			host: o.host,
			credentials: o.credentials,
			resources,
			trusted: o.trusted,
			mode: o.json ? "json" : "print",
			hasUI: false,
			ui: createNoopUi(),
			onExtensionError: (e) => err(`Extension error (${e.extensionPath}, ${e.event}): ${e.error}\n`),
			warn: (line) => err(`${line}\n`),
		});
		host = await RuntimeHost.start(
			factory,
			manager,
			o.host,
			(line) => err(`${line}\n`),
			(runtime, start) => discoverExtensionResources(runtime, resources, cwd, err, start.reason),
		);
		const runtimeHost = host;
		const common = {
			session: () => runtimeHost.session,
			inputs: o.inputs,
			findCommand: (commandName: string) =>
				builtinCommand(runtimeHost, commandName, o.out) ?? o.host.findCommand(commandName),
			commandContext: () => runtimeHost.current.bridge.scope.commandContext() as unknown as Record<string, unknown>,
			reportCommandError: (commandName: string, error: unknown) =>
				err(`Extension command /${commandName} failed: ${errorMessage(error).split("\n")[0]}\n`),
			noSession: (): never => {
				throw new UserError(runtimeHost.current.noModelReason ?? "Error: no model available");
			},
		};
		const code = o.json
			? await runJsonMode({
					...common,
					header: manager.getHeader() as unknown as Record<string, unknown>,
					subscribe: (listener) => runtimeHost.subscribe(listener),
					stdout: o.out,
				})
			: await runPrintMode({ ...common, stdout: o.out, stderr: err });
		return code;
	} finally {
		if (host) await host.dispose();
		else manager.close();
	}
}

export function createResources(o: RunOptions): ResourceLoader {
	const flags = o.args.flags;
	return new ResourceLoader({
		cwd: o.cwd,
		agentDir: o.agentDir,
		projectTrusted: o.trusted,
		settingsFiles: o.store.files,
		skillPaths: (flags.get("skill") as string[] | undefined) ?? [],
		promptPaths: (flags.get("prompt-template") as string[] | undefined) ?? [],
		themePaths: (flags.get("theme") as string[] | undefined) ?? [],
		noSkills: flags.get("no-skills") === true,
		noPromptTemplates: flags.get("no-prompt-templates") === true,
		noThemes: flags.get("no-themes") === true,
		noContextFiles: flags.get("no-context-files") === true,
	});
}

/**
 * `resources_discover` after each runtime's `session_start` (reason "reload" after `/reload`, else "startup"):
 * skills, prompt templates and themes that extensions contribute join the loader, and the system prompt (which
 * lists skills) is rebuilt.
 */
export async function discoverExtensionResources(
	runtime: SessionRuntime,
	resources: ResourceLoader,
	cwd: string,
	err: (text: string) => void,
	startReason: SessionStartInfo["reason"],
): Promise<void> {
	const bridge = runtime.bridge;
	if (startReason === "reload") resources.clearExtensionResources();
	if (!bridge.runner.hasHandlers("resources_discover")) {
		runtime.refreshSystemPrompt?.();
		return;
	}
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
	runtime.refreshSystemPrompt?.();
}

/** Built-in commands of print and JSON modes: `/compact [instructions]` and `/reload`. */
function builtinCommand(host: RuntimeHost, name: string, out: (text: string) => void) {
	if (name === "compact" && host.current.compact) {
		return {
			description: "Compact the session",
			handler: (instructions: string) => runCompact(host, instructions, out),
		};
	}
	if (name === "reload") {
		return { description: "Reload extensions, skills, prompts and themes", handler: () => host.reload() };
	}
	return undefined;
}

/** Built-in `/compact [instructions]`: compacts now and says what it did. */
async function runCompact(host: RuntimeHost, instructions: string, out: (text: string) => void): Promise<void> {
	let result: Awaited<ReturnType<NonNullable<SessionRuntime["compact"]>>>;
	try {
		result = await host.current.compact?.(instructions || undefined);
	} catch (error) {
		if (!(error instanceof NothingToCompactError)) throw error;
		result = undefined;
	}
	out(
		result
			? `Compacted: ${result.tokensBefore} tokens of context summarised; kept from entry ${result.firstKeptEntryId}\n`
			: "Nothing to compact\n",
	);
}
