/**
 * The interactive app: one screen (layout.ts) on a regular-mode TUI, the default editor, the header and footer,
 * and — once the runtime is up — the session's events drawn into the chat (session-view.ts) and the user's keys and
 * submissions acted on (input.ts). The TUI starts before extensions bind, so their `session_start` handlers can open
 * dialogs; what is typed before the runtime is ready stays in the editor.
 */
import type { ExtensionHost, RuntimeHost } from "../../../runtime/index.ts";
import {
	type Component,
	CustomEditor,
	type EditorComponent,
	type EditorTheme,
	type KeybindingsManager,
	type Terminal,
	type TuiBase,
} from "../../../tui/index.ts";
import { writeStdout } from "../../../util/index.ts";
import { HeaderComponent, StartupSummary, type StartupSummaryData } from "../chrome/index.ts";
import { editInExternalEditor, externalEditorCommand } from "../dialogs/external-editor.ts";
import type { ChatTranscript } from "../transcript/index.ts";
import { AppScreen, stopAppTui, type TuiModeSettings } from "./fullscreen.ts";
import { AppLayout } from "./layout.ts";

export interface AppSettings extends TuiModeSettings {
	quietStartup: boolean;
	hideThinkingBlock: boolean;
	editorPaddingX: number;
	autocompleteMaxVisible: number;
	doubleEscapeAction: "tree" | "fork" | "none";
	showHardwareCursor: boolean;
	clearOnShrink: boolean;
	shellPath?: string;
	/** Command for Ctrl+G (default: $VISUAL, then $EDITOR). */
	externalEditor?: string;
}

export interface InteractiveAppOptions {
	terminal: Terminal;
	keybindings: KeybindingsManager;
	editorTheme(): EditorTheme;
	version: string;
	appName?: string;
	settings: AppSettings;
	/** --verbose: the header and loaded resources start expanded and show even with quietStartup. */
	verbose?: boolean;
	/** Saves a global setting the app changes itself (`hideThinkingBlock`). */
	saveSetting?(key: "hideThinkingBlock", value: boolean): void;
	/** The chat region. */
	createTranscript(ui: { requestRender(): void }): ChatTranscript;
}

/** What the session-facing parts of the app see once the runtime exists. */
export interface AppRuntime {
	host: RuntimeHost;
	extensions: ExtensionHost;
	cwd: string;
}

export class InteractiveApp {
	/** The regular renderer, or the alternate-screen one in fullscreen mode (one reference across mode switches). */
	readonly tui: TuiBase;
	readonly screen: AppScreen;
	readonly layout: AppLayout;
	readonly defaultEditor: CustomEditor;
	readonly header: HeaderComponent;
	readonly startupSummary: StartupSummary;
	readonly keybindings: KeybindingsManager;
	readonly settings: AppSettings;
	toolsExpanded = false;
	hideThinking: boolean;
	runtime: AppRuntime | undefined;
	/** Resolves the run's exit code (quit). */
	private finish: (code: number) => void = () => {};
	readonly done: Promise<number>;
	private readonly disposers: (() => void)[] = [];

	constructor(readonly options: InteractiveAppOptions) {
		this.settings = options.settings;
		this.keybindings = options.keybindings;
		this.hideThinking = options.settings.hideThinkingBlock;
		this.screen = new AppScreen(options.terminal, options.settings.showHardwareCursor, options.settings);
		this.tui = this.screen.tui;
		this.tui.setClearOnShrink(options.settings.clearOnShrink);
		this.defaultEditor = new CustomEditor(this.tui, options.editorTheme(), options.keybindings, {
			paddingX: options.settings.editorPaddingX,
			autocompleteMaxVisible: options.settings.autocompleteMaxVisible,
			embedWorkingStatus: true,
		});
		const chat = options.createTranscript(this.tui);
		chat.setHideThinking(this.hideThinking);
		this.layout = new AppLayout(this.tui, chat, this.defaultEditor);
		const quiet = options.settings.quietStartup && !options.verbose;
		this.header = new HeaderComponent({
			...(options.appName ? { appName: options.appName } : {}),
			version: options.version,
			expanded: options.verbose ?? false,
			quiet,
		});
		this.layout.header.addChild(this.header);
		this.startupSummary = new StartupSummary(
			{ loaded: [], diagnostics: [] },
			{ quiet: options.settings.quietStartup, force: options.verbose ?? false, expanded: options.verbose ?? false },
		);
		this.layout.resources.addChild(this.startupSummary);
		this.done = new Promise<number>((resolve) => {
			this.finish = resolve;
		});
	}

	get chat(): ChatTranscript {
		return this.layout.chat;
	}

	/** The editor in use (the default one, or an extension's). */
	get editor(): EditorComponent & Component {
		return this.layout.editor;
	}

	/** Mounts the screen and starts drawing; input typed now waits in the editor. */
	start(): void {
		this.layout.mount();
		this.screen.mount(this.layout);
		this.defaultEditor.onSubmit = (text) => {
			this.defaultEditor.setText(text);
			this.chat.showStatus("Startup is still in progress");
			this.tui.requestRender();
		};
		this.tui.setFocus(this.defaultEditor);
		this.tui.start();
	}

	setStartupSummary(data: StartupSummaryData): void {
		this.startupSummary.setData(data);
		this.tui.requestRender();
	}

	/** `tuiMode` changed while running (/settings): false while an overlay is open (nothing changes then). */
	setTuiMode(mode: "regular" | "fullscreen"): boolean {
		return this.screen.switchMode(mode, this.layout);
	}

	/** Runs `dispose` when the app stops. */
	onStop(dispose: () => void): void {
		this.disposers.push(dispose);
	}

	/** Ends the run with `code` (the caller stops the TUI and disposes the runtime). */
	quit(code = 0): void {
		this.finish(code);
	}

	/** Ctrl+O: one flag for every tool box, summary, the header and the loaded-resources list. */
	setToolsExpanded(expanded: boolean): void {
		if (expanded === this.toolsExpanded) return;
		this.toolsExpanded = expanded;
		this.header.setExpanded(expanded);
		this.startupSummary.setExpanded(expanded);
		this.chat.setToolsExpanded(expanded);
		this.chat.showStatus(`Tool output: ${expanded ? "expanded" : "collapsed"}`);
		this.tui.requestRender();
	}

	/** Ctrl+T: hides or shows thinking in every message, and saves the choice. */
	toggleThinking(): void {
		this.hideThinking = !this.hideThinking;
		this.chat.setHideThinking(this.hideThinking);
		this.options.saveSetting?.("hideThinkingBlock", this.hideThinking);
		this.chat.showStatus(`Thinking blocks: ${this.hideThinking ? "hidden" : "visible"}`);
		this.tui.requestRender();
	}

	/**
	 * Ctrl+Z: gives the terminal back and stops the process group; on SIGCONT draws everything again. Where the stop
	 * is discarded (an orphaned process group, as in a terminal with no job-control shell), the chat comes back at once.
	 */
	suspend(): void {
		if (process.platform === "win32") {
			this.chat.showStatus("Suspend to background is not supported on Windows");
			this.tui.requestRender();
			return;
		}
		const ignoreInt = () => {};
		let resumed = false;
		const resume = () => {
			if (resumed) return;
			resumed = true;
			process.off("SIGINT", ignoreInt);
			process.off("SIGCONT", resume);
			this.tui.start();
			this.tui.requestRender(true);
		};
		process.on("SIGINT", ignoreInt);
		process.on("SIGCONT", resume);
		this.tui.stop();
		process.kill(0, "SIGTSTP");
		// Stopped, this runs only after SIGCONT; not stopped, it brings the screen back.
		setTimeout(resume, 100);
	}

	/** Ctrl+G: the editor's text in the `externalEditor` setting, $VISUAL or $EDITOR; what is saved replaces it. */
	async openExternalEditor(): Promise<void> {
		const editor = this.editor;
		const content = editor.getExpandedText?.() ?? editor.getText();
		this.tui.stop();
		try {
			const result = await editInExternalEditor({
				command: externalEditorCommand(this.settings.externalEditor),
				content,
				write: writeStdout,
			});
			if (result.status === "complete") editor.setText(result.content);
			else this.chat.showError(`External editor failed: ${result.reason}; the text was left as it was`);
		} finally {
			this.tui.start();
			this.tui.requestRender(true);
		}
	}

	/** Stops drawing and gives the terminal back; the last frame (fullscreen: as fullscreenExitOutput says) stays. */
	stop(): void {
		for (const dispose of this.disposers.splice(0)) {
			try {
				dispose();
			} catch {
				// stopping continues
			}
		}
		stopAppTui(this.tui, this.settings);
	}
}
