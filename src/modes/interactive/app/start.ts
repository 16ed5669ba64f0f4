/**
 * Starting the interactive mode: the screen comes up first (so extensions' `session_start` handlers can open
 * dialogs, and early typing lands in the editor); once the runtime exists `run` wires the session to it, draws a
 * resumed session's history and the start-up summary, sends the first prompts given on the command line, and
 * waits for the user to quit. Warnings raised before that are shown in the chat.
 */
import { join } from "node:path";
import {
	type AuthStorage,
	type ImageContent,
	llamaConnection,
	type Model,
	type ModelRegistry,
} from "../../../ai/index.ts";
import { agentPaths, type SettingsStore } from "../../../config/index.ts";
import type { ExtensionError } from "../../../extensions/index.ts";
import { currentTheme, type ResourceLoader } from "../../../resources/index.ts";
import type { ExtensionHost, RuntimeHost } from "../../../runtime/index.ts";
import {
	type AutocompleteProvider,
	CombinedAutocompleteProvider,
	type EditorTheme,
	ProcessTerminal,
	type SlashCommand,
	stripTerminalSequences,
	type Terminal,
	Text,
} from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import {
	bindCommandKeys,
	builtinSlashCommands,
	type CommandContext,
	openResumePicker,
	runBuiltin,
} from "../commands/index.ts";
import { createInteractiveUi, resetInteractiveUi } from "../ui-context.ts";
import { type AppSettings, InteractiveApp } from "./app.ts";
import { createAppSurface } from "./app-surface.ts";
import { captureConsole } from "./console-capture.ts";
import { cycleModel, cycleThinking } from "./cycling.ts";
import { bindSelectionCopy } from "./fullscreen.ts";
import { InputController } from "./input.ts";
import { loadAppKeybindings } from "./keybindings.ts";
import type { DisplaySettings } from "./live-settings.ts";
import { noColorRequested, withoutColourOutput } from "./no-color.ts";
import { SessionView } from "./session-view.ts";
import { collectShortcuts, shortcutDispatcher } from "./shortcuts.ts";
import { startupData } from "./startup-data.ts";
import { StatusArea } from "./status-area.ts";
import { ThemeControl } from "./theme-control.ts";
import { watchThemeFile } from "./theme-watch.ts";
import { tmuxKeyboardWarning } from "./tmux-check.ts";
import { createTranscript } from "./transcript-setup.ts";

export interface StartInteractiveOptions {
	agentDir: string;
	cwd: string;
	version: string;
	settings: AppSettings;
	verbose?: boolean;
	editorTheme(): EditorTheme;
	terminal?: Terminal;
	/** The `externalEditor` setting (Ctrl+G in the editor dialog). */
	externalEditor?: string;
	/** Display settings of the chat (images, padding, notices). */
	transcript?: { showImages?: boolean; imageWidthCells?: number; outputPad?: number; showCacheMissNotices?: boolean };
	saveSetting?(key: "hideThinkingBlock", value: boolean): void;
	saveTheme?(name: string): void;
	/** `--use-theme`, else the `theme` setting (one name or "light/dark"); none: detected from the terminal. */
	themeSetting?: string;
	/** The locked settings store the commands save through. */
	store?: SettingsStore;
	/** `auth.json`, for `/login` and `/logout`. */
	authStorage?: AuthStorage;
}

export interface InteractiveRunContext {
	host: RuntimeHost;
	extensions: ExtensionHost;
	resources: ResourceLoader;
	registry: ModelRegistry;
	/** `--models` / enabledModels, in cycling order; empty = every available model. */
	scopedModels: Model[];
	/** Prompts from the command line, sent in order once the screen is up. */
	initial: { text: string; images?: ImageContent[] }[];
	/** `pi -r`: the session picker opens at start; Escape there quits and calls `onQuit`. */
	resumePicker?: { onQuit(): void };
}

export interface InteractiveHandle {
	/** `ctx.ui` for extensions. */
	readonly ui: Record<string, unknown>;
	/** A warning line for the chat (start-up diagnostics). */
	warn(line: string): void;
	reportExtensionError(error: ExtensionError): void;
	/** An extension's `ctx.shutdown()`: quits now when idle, else once the run has settled. */
	requestShutdown(): void;
	/** Runs until the user quits; the screen is stopped when it returns. */
	run(context: InteractiveRunContext): Promise<number>;
	/** Gives the terminal back (idempotent). */
	stop(): void;
}

export function startInteractive(o: StartInteractiveOptions): InteractiveHandle {
	const { keybindings, warnings } = loadAppKeybindings(agentPaths.keybindings(o.agentDir));
	let runtime: InteractiveRunContext | undefined;
	let appRef: InteractiveApp | undefined;
	const display: DisplaySettings = { ...o.transcript };
	const app: InteractiveApp = new InteractiveApp({
		terminal: noColorRequested()
			? withoutColourOutput(o.terminal ?? new ProcessTerminal())
			: (o.terminal ?? new ProcessTerminal()),
		keybindings,
		editorTheme: o.editorTheme,
		version: o.version,
		settings: o.settings,
		...(o.verbose ? { verbose: true } : {}),
		createTranscript: (ui) =>
			createTranscript(ui, {
				host: () => runtime?.host,
				extensions: () => runtime?.extensions,
				cwd: o.cwd,
				settings: {
					get hideThinkingBlock() {
						return appRef?.hideThinking ?? o.settings.hideThinkingBlock;
					},
					get showImages() {
						return display.showImages;
					},
					get imageWidthCells() {
						return display.imageWidthCells;
					},
					get outputPad() {
						return display.outputPad;
					},
					get showCacheMissNotices() {
						return display.showCacheMissNotices;
					},
				},
				onHistoryUserText: (text) => appRef?.defaultEditor.addToHistory(text),
			}),
		...(o.saveSetting ? { saveSetting: o.saveSetting } : {}),
	});
	appRef = app;
	const status = new StatusArea(app);
	const view = new SessionView(app, o.cwd, status);
	let baseProvider: AutocompleteProvider | undefined;
	const reportError = (source: string, error: unknown) => {
		app.chat.showError(`${source}: ${errorMessage(error)}`);
		app.tui.requestRender();
	};
	const { surface, reset } = createAppSurface({
		app,
		view,
		status,
		resources: {
			getThemes: () => runtime?.resources.getThemes() ?? { themes: [], diagnostics: [] },
			getTheme: (name: string) => runtime?.resources.getTheme(name),
		} as ResourceLoader,
		isStreaming: () => runtime?.host.session?.isStreaming ?? false,
		thinkingLevel: () => view.thinkingLevel(),
		...(o.saveTheme ? { saveTheme: o.saveTheme } : {}),
		baseAutocomplete: () => baseProvider,
		reportError,
	});
	const ui = createInteractiveUi(surface, { externalEditorCommand: () => o.externalEditor }) as unknown as Record<
		string,
		unknown
	>;
	// A component that throws while drawing is shown as one red line in its place; the chat says so once.
	app.tui.onRenderProblem = (notice) =>
		queueMicrotask(() => {
			app.chat.showError(stripTerminalSequences(notice));
			app.tui.requestRender();
		});
	app.start();
	app.onStop(
		captureConsole((line, method) => {
			const theme = currentTheme();
			const color = method === "error" ? "error" : method === "warn" ? "warning" : "dim";
			app.chat.addChild(new Text(theme.fg(color, line), 1, 0));
			app.tui.requestRender();
		}),
	);
	for (const line of warnings) app.chat.showWarning(line);
	let stopped = false;
	let shutdownRequested = false;

	const stop = () => {
		if (stopped) return;
		stopped = true;
		app.stop();
	};

	return {
		ui,
		warn: (line) => {
			app.chat.showWarning(line);
			app.tui.requestRender();
		},
		reportExtensionError: (e) => {
			app.chat.showError(
				`Extension "${e.extensionPath}" error in ${e.event}: ${e.error}${e.location ? ` (at ${e.location})` : ""}`,
			);
			app.tui.requestRender();
		},
		stop,
		requestShutdown() {
			if (!runtime?.host.session?.isStreaming) app.quit(0);
			else shutdownRequested = true;
		},
		async run(context) {
			runtime = context;
			const { host, extensions, resources } = context;
			view.attach(host);
			app.onStop(
				host.subscribe((event) => {
					if (event.type === "agent_settled" && shutdownRequested) app.quit(0);
				}),
			);
			for (const signal of ["SIGTERM", "SIGHUP"] as const) {
				const onSignal = () => app.quit(0);
				process.on(signal, onSignal);
				app.onStop(() => process.off(signal, onSignal));
			}
			const themes = new ThemeControl(
				{
					terminal: app.tui,
					lookup: (name) => resources.getTheme(name),
					redraw: () => {
						app.tui.invalidate();
						view.updateBorderColor();
						app.tui.requestRender();
					},
					save: (setting) => o.store?.set("global", "theme", setting) ?? Promise.resolve(),
					showError: (line) => {
						app.chat.showError(line);
						app.tui.requestRender();
					},
					watch: () =>
						watchThemeFile(
							join(o.agentDir, "themes"),
							() => {
								app.tui.invalidate();
								view.updateBorderColor();
								app.tui.requestRender();
							},
							(line) => {
								app.chat.showError(line);
								app.tui.requestRender();
							},
						),
				},
				o.themeSetting,
			);
			app.onStop(() => themes.dispose());
			void themes.start();
			const home = process.env.HOME || process.env.USERPROFILE;
			app.setStartupSummary(startupData(resources, extensions, o.cwd, home));
			let shortcuts = collectShortcuts(extensions, keybindings, (line) => app.chat.showWarning(line));
			const builtin: CommandContext = {
				app,
				host,
				view,
				status,
				registry: context.registry,
				scopedModels: context.scopedModels,
				extensions,
				resources,
				agentDir: o.agentDir,
				cwd: o.cwd,
				...(o.store ? { store: o.store } : {}),
				...(o.authStorage ? { authStorage: o.authStorage } : {}),
				live: { display, themes },
				showSelector: (component) => app.layout.replaceEditor(component),
				shortcuts: () => shortcuts,
			};
			baseProvider = new CombinedAutocompleteProvider(commandList(builtin), o.cwd, null);
			app.defaultEditor.setAutocompleteProvider(baseProvider);
			const input = new InputController(app, { host, extensions, cwd: o.cwd }, view, status, {
				builtin: (text) => runBuiltin(builtin, text),
				doubleEscape: (action) => void runBuiltin(builtin, `/${action}`),
				extensionError: (source, error) => reportError(`Extension "${source}" error`, error),
			});
			input.install();
			bindCommandKeys(builtin, app.defaultEditor);
			bindSelectionCopy(app.tui, app.defaultEditor);
			app.defaultEditor.onAction("app.model.cycleForward", () => void cycleModel(builtin, "forward"));
			app.defaultEditor.onAction("app.model.cycleBackward", () => void cycleModel(builtin, "backward"));
			app.defaultEditor.onAction("app.thinking.cycle", () => void cycleThinking(builtin));
			app.onStop(
				host.onReplace("before", () => {
					resetInteractiveUi(ui);
					reset();
				}),
			);
			app.onStop(
				host.onReplace("after", () => {
					shortcuts = collectShortcuts(extensions, keybindings, (line) => app.chat.showWarning(line));
					baseProvider = new CombinedAutocompleteProvider(commandList(builtin), o.cwd, null);
					app.defaultEditor.setAutocompleteProvider(baseProvider);
					app.chat.clear();
					status.showPending([], []);
					view.sessionReplaced();
					app.chat.renderHistory(host.manager.buildContextEntries());
					app.tui.requestRender();
				}),
			);
			app.defaultEditor.onExtensionShortcut = shortcutDispatcher(
				() => shortcuts,
				host,
				(error) => app.chat.showError(`Shortcut handler error: ${errorMessage(error)}`),
			);
			app.chat.renderHistory(host.manager.buildContextEntries());
			if (context.resumePicker) openResumePicker(builtin, { atStart: true, onQuit: context.resumePicker.onQuit });
			app.tui.requestRender();
			void tmuxKeyboardWarning().then((warning) => {
				if (!warning) return;
				app.chat.showWarning(warning);
				app.tui.requestRender();
			});
			// As pi refreshes dynamic catalogues once the screen is up: the llama.cpp router's models (not offline).
			if (!process.env.PI_OFFLINE && llamaConnection(context.registry.authStorage))
				void import("../llama/index.ts").then((m) => m.refreshAtStart(builtin));
			void sendInitial(context, app);
			try {
				return await app.done;
			} finally {
				stop();
			}
		},
	};
}

async function sendInitial(context: InteractiveRunContext, app: InteractiveApp): Promise<void> {
	for (const { text, images } of context.initial) {
		const session = context.host.session;
		if (!session) {
			app.chat.showError(context.host.current.noModelReason ?? "No model available");
			app.tui.requestRender();
			return;
		}
		try {
			await session.prompt(text, images ? { images } : {});
		} catch (error) {
			app.chat.showError(errorMessage(error));
			app.tui.requestRender();
		}
	}
}

/** Slash commands for autocomplete: built-ins, extension commands (with their argument completions), templates, skills. */
function commandList(c: CommandContext): SlashCommand[] {
	const { extensions, resources } = c;
	const list: SlashCommand[] = builtinSlashCommands(c);
	for (const [name, { command }] of extensions.commands()) {
		list.push({
			name,
			...(command.description ? { description: command.description } : {}),
			...(command.getArgumentCompletions
				? { getArgumentCompletions: (prefix: string) => command.getArgumentCompletions?.(prefix) as never }
				: {}),
		});
	}
	for (const template of resources.getPrompts().prompts) {
		list.push({ name: template.name, ...(template.description ? { description: template.description } : {}) });
	}
	for (const skill of resources.getSkills().skills) {
		list.push({ name: `skill:${skill.name}`, description: skill.description });
	}
	return list;
}
