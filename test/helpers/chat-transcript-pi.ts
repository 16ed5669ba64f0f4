/**
 * pi 0.87.1's side of the chat-transcript comparison, run by Node 22 (type stripping). pi's InteractiveMode cannot
 * be started piecewise, so its own `handleEvent`, `renderSessionEntries` and `show*` methods run on an object made
 * from its prototype with the few fields they read (a chat container, the pending-tools map, settings and session
 * seams) and the screen-chrome methods (status indicator, pending area, bug-report hints) made no-ops. Input from
 * PI_CHAT (JSON: modules, cwd, width, scenarios path, out); writes each scenario's chat lines as JSON to `out`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

interface Step {
	event?: unknown;
	call?: "showStatus" | "showWarning" | "showError" | "showExtensionError" | "renderHistory";
	args?: unknown[];
}

const input = JSON.parse(process.env.PI_CHAT ?? "{}") as {
	modules: string;
	cwd: string;
	width: number;
	scenarios: string;
	out: string;
};
const load = (path: string) => import(pathToFileURL(path).href);
const dist = join(input.modules, "@earendil-works", "pi-coding-agent", "dist");
const agent = await load(join(dist, "index.js"));
const themeModule = await load(join(dist, "modes", "interactive", "theme", "theme.js"));
const { KeybindingsManager } = await load(join(dist, "core", "keybindings.js"));
const tui = await load(join(input.modules, "@earendil-works", "pi-tui", "dist", "index.js"));

themeModule.initTheme("dark");
tui.setKeybindings(new KeybindingsManager());

const cwd = input.cwd;
const tools: Record<string, unknown> = {
	bash: agent.createBashToolDefinition(cwd),
	read: agent.createReadToolDefinition(cwd),
	edit: agent.createEditToolDefinition(cwd),
	write: agent.createWriteToolDefinition(cwd),
};
const noop = () => {};

function chatMode() {
	const mode = Object.create(agent.InteractiveMode.prototype);
	Object.assign(mode, {
		isInitialized: true,
		footer: { invalidate: noop },
		chatContainer: new tui.Container(),
		pendingTools: new Map(),
		// `session`, `settingsManager` and `sessionManager` are getters over the runtime host
		runtimeHost: {
			session: {
				retryAttempt: 0,
				extensionRunner: { getMessageRenderer: noop, getEntryRenderer: noop, getMarkdownTransformers: () => [] },
				getToolDefinition: (name: string) => tools[name],
				settingsManager: {
					getShowTerminalProgress: () => false,
					getShowImages: () => true,
					getImageWidthCells: () => 60,
					getShowCacheMissNotices: () => false,
					getCodeBlockIndent: () => "  ",
				},
				sessionManager: { getCwd: () => cwd, getBranch: () => [], getEntries: () => [] },
			},
		},
		workingVisible: false,
		ui: { requestRender: noop, terminal: { setProgress: noop } },
		hideThinkingBlock: false,
		hiddenThinkingLabel: "Thinking...",
		outputPad: 1,
		toolOutputExpanded: false,
		defaultEditor: {},
		entriesRenderedByBoundaryCompaction: new Set(),
	});
	for (const name of [
		"clearStatusIndicator",
		"showWorkingStatusIndicator",
		"showStatusIndicator",
		"updatePendingMessagesDisplay",
		"maybeSuggestBugReport",
		"maybeShowThinkingDropNotice",
		"maybeShowCacheMissNotice",
		"checkShutdownRequested",
		"flushCompactionQueue",
	])
		mode[name] = noop;
	mode.getMarkdownTransformers = () => [];
	return mode;
}

const scenarios = JSON.parse(readFileSync(input.scenarios, "utf8")) as Record<string, Step[]>;
const out: Record<string, string[] | { error: string }> = {};
for (const [name, steps] of Object.entries(scenarios)) {
	try {
		const mode = chatMode();
		for (const step of steps) {
			if (step.event) await mode.handleEvent(step.event);
			else if (step.call === "renderHistory") mode.renderSessionEntries(...(step.args ?? []));
			else if (step.call) mode[step.call](...(step.args ?? []));
		}
		// edit previews are read from disk after the arguments are complete
		await new Promise((resolve) => setTimeout(resolve, 100));
		out[name] = mode.chatContainer.render(input.width);
	} catch (error) {
		out[name] = { error: String((error as Error)?.stack ?? error) };
	}
}
writeFileSync(input.out, JSON.stringify(out));
process.exit(0);
