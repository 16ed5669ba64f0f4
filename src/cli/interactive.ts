/**
 * `pi` in a terminal: the interactive chat. The screen starts before the session so extensions' `session_start`
 * handlers can use dialogs; start-up diagnostics are shown in the chat instead of stderr; the session is chosen
 * as for other modes (`-c`, `--session`, …); prompts given on the command line are sent first. After quitting, the
 * command that resumes the session is printed.
 */
import type { ExtensionError } from "../extensions/index.ts";
import type { PromptInput } from "../modes/index.ts";
import { loadInteractiveStyles } from "../sdk/index.ts";
import { VERSION, writeStdout } from "../util/index.ts";
import { runWithSession, type SessionRunOptions } from "./session-run.ts";

export interface InteractiveRunOptions extends SessionRunOptions {
	inputs: PromptInput[];
	verbose: boolean;
}

export async function runInteractive(o: InteractiveRunOptions): Promise<number> {
	// The toolkit, the app and the styles load only for this mode.
	const [{ startInteractive }, styles] = await Promise.all([
		import("../modes/interactive/index.ts"),
		loadInteractiveStyles(),
	]);
	const s = o.settings;
	const handle = startInteractive({
		agentDir: o.agentDir,
		cwd: o.cwd,
		version: VERSION,
		verbose: o.verbose,
		settings: {
			quietStartup: s.quietStartup ?? false,
			hideThinkingBlock: s.hideThinkingBlock ?? false,
			editorPaddingX: s.editorPaddingX ?? 0,
			autocompleteMaxVisible: s.autocompleteMaxVisible ?? 5,
			doubleEscapeAction: s.doubleEscapeAction ?? "tree",
			showHardwareCursor: s.showHardwareCursor ?? false,
			clearOnShrink: s.terminal?.clearOnShrink ?? false,
			...(s.shellPath ? { shellPath: s.shellPath } : {}),
			...(s.externalEditor ? { externalEditor: s.externalEditor } : {}),
			...(s.tuiMode ? { tuiMode: s.tuiMode } : {}),
			...(s.fullscreenExitOutput ? { fullscreenExitOutput: s.fullscreenExitOutput } : {}),
			...(s.fullscreenScrollbar ? { fullscreenScrollbar: s.fullscreenScrollbar } : {}),
			...(s.fullscreenCopyOnSelect !== undefined ? { fullscreenCopyOnSelect: s.fullscreenCopyOnSelect } : {}),
		},
		editorTheme: styles.editorTheme,
		transcript: {
			showImages: s.terminal?.showImages ?? true,
			imageWidthCells: s.terminal?.imageWidthCells ?? 60,
			outputPad: s.outputPad ?? 1,
		},
		...(s.externalEditor ? { externalEditor: s.externalEditor } : {}),
		saveSetting: (key, value) => void o.store.set("global", key, value).catch(() => {}),
		saveTheme: (name) => void o.store.set("global", "theme", name).catch(() => {}),
		store: o.store,
		themeSetting: (o.args.flags.get("use-theme") as string | undefined) ?? s.theme,
		authStorage: o.credentials.authStorage,
	});
	void styles.loadAllHighlightLanguages().catch(() => {});
	const err = (text: string) => {
		for (const line of text.split("\n")) if (line.trim()) handle.warn(line);
	};
	let resumeHint: string | undefined;
	// `pi -r`: the picker opens at start; leaving it without a choice quits as pi does.
	let noSessionChosen = false;
	const onQuit = () => {
		noSessionChosen = true;
	};
	const resumePicker = o.args.flags.get("resume") === true ? { onQuit } : undefined;
	try {
		return await runWithSession(
			{ ...o, err },
			{
				mode: "tui",
				hasUI: true,
				ui: handle.ui,
				onExtensionError: (e: ExtensionError) => handle.reportExtensionError(e),
				requestShutdown: () => handle.requestShutdown(),
			},
			async ({ host, resources, scopedModels }) => {
				const code = await handle.run({
					host,
					extensions: o.host,
					resources,
					registry: o.credentials.registry,
					scopedModels: scopedModels.map((entry) => entry.model),
					initial: o.inputs.map((input) => ({ text: input.text, ...(input.images ? { images: input.images } : {}) })),
					...(resumePicker ? { resumePicker } : {}),
				});
				if (host.manager.getSessionFile() && host.manager.getEntries().length > 0) {
					resumeHint = `pi --session ${host.manager.getSessionId()}`;
				}
				return code;
			},
		);
	} finally {
		handle.stop();
		if (noSessionChosen) writeStdout("\x1b[2mNo session selected\x1b[22m\n");
		else if (resumeHint) writeStdout(`\x1b[2mTo resume this session:\x1b[22m ${resumeHint}\n`);
	}
}
