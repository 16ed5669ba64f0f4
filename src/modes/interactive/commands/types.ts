/**
 * The contract of a built-in slash command: its name and one-line description (the `/` menu), an optional argument
 * hint and completions, and `run`, which gets the command's argument text and everything the app can act on.
 * Each command group lives in its own file and exports a list of these; `index.ts` joins them in menu order.
 */
import type { AuthStorage, Model, ModelRegistry } from "../../../ai/index.ts";
import type { SettingsStore } from "../../../config/index.ts";
import type { ResourceLoader } from "../../../resources/index.ts";
import type { ExtensionHost, RuntimeHost } from "../../../runtime/index.ts";
import type { AutocompleteItem, Component } from "../../../tui/index.ts";
import type { InteractiveApp } from "../app/app.ts";
import type { LiveSettings } from "../app/live-settings.ts";
import type { SessionView } from "../app/session-view.ts";
import type { Shortcut } from "../app/shortcuts.ts";
import type { StatusArea } from "../app/status-area.ts";

/** What a command can act on. One object for the app's lifetime; `scopedModels` is replaced by `/scoped-models`. */
export interface CommandContext {
	app: InteractiveApp;
	host: RuntimeHost;
	view: SessionView;
	status: StatusArea;
	registry: ModelRegistry;
	/** `--models` / `enabledModels` in cycling order; empty = every available model. */
	scopedModels: Model[];
	extensions: ExtensionHost;
	resources: ResourceLoader;
	agentDir: string;
	cwd: string;
	/** The locked settings store (global and project scopes); absent in tests that run without files. */
	store?: SettingsStore;
	/** `auth.json` (API keys and OAuth tokens). */
	authStorage?: AuthStorage;
	/** What `/settings` changes live (display settings, theme); absent in tests without a terminal. */
	live?: LiveSettings;
	/**
	 * Shows `component` (a selector) in the editor's place and focuses it; the returned function puts the editor
	 * back with the text it had.
	 */
	showSelector(component: Component): () => void;
	/** The extension shortcuts in force (`pi.registerShortcut`), for `/hotkeys`. */
	shortcuts(): readonly Shortcut[];
}

export interface BuiltinCommand {
	name: string;
	description: string;
	/** Shown after the name in the `/` menu, e.g. `<provider/model>`. */
	argumentHint?: string;
	/** An app keybinding id (`app.session.tree` …) whose key runs the command without arguments. */
	action?: string;
	/** Runs the command; `args` is the text after the name, trimmed (empty when none). */
	run(c: CommandContext, args: string): Promise<void> | void;
	/** Completions for the argument being typed. */
	complete?(c: CommandContext, prefix: string): AutocompleteItem[] | null | Promise<AutocompleteItem[] | null>;
}
