/**
 * A recording ExtensionAPI and context for drawing an extension's components without an interactive mode: it keeps
 * what the extension registers (commands, tools, message renderers, event handlers) and every component it hands
 * to the UI (`ctx.ui.custom`, `setWidget`, `setFooter`, `setHeader`, `setEditorComponent`, `tui.showOverlay`).
 * Host-neutral (pi's modules under Node, ours under Bun); erasable TypeScript only, so Node can strip the types.
 */

export interface DrawableComponent {
	render(width: number): string[];
	handleInput?(data: string): void;
	invalidate?(): void;
	dispose?(): void;
}

export interface PictureHost {
	/** The extension's default export. */
	loadFactory(path: string): Promise<(pi: unknown) => unknown>;
	/** The dark theme (`ctx.ui.theme`, the `theme` argument of factories). */
	theme: { fg(color: string, text: string): string };
	/** The app keybindings manager handed to `custom` and editor factories. */
	keybindings: unknown;
	/** The editor theme pi gives `setEditorComponent` factories. */
	editorTheme(): unknown;
}

export interface LiveComponent {
	kind: string;
	component: DrawableComponent;
	closed: boolean;
}

type Handler = (...args: unknown[]) => unknown;

export interface ToolLike {
	name: string;
	execute?: Handler;
	renderCall?: Handler;
	renderResult?: Handler;
}

export interface Recording {
	commands: Map<string, { handler: Handler }>;
	tools: Map<string, ToolLike>;
	messageRenderers: Map<string, Handler>;
	entryRenderers: Map<string, Handler>;
	appendedEntries: Array<{ customType: string; data: unknown }>;
	handlers: Map<string, Handler[]>;
	sentMessages: Array<Record<string, unknown>>;
	notifications: string[];
	live: LiveComponent[];
	widgets: Map<string, LiveComponent>;
	footer?: LiveComponent;
	header?: LiveComponent;
	editor?: LiveComponent;
	/** Width the stub TUI reports while drawing. */
	width: number;
	api: Record<string, unknown>;
	ctx: Record<string, unknown>;
	tui: Record<string, unknown>;
}

const MODEL = {
	provider: "anthropic",
	id: "claude-sonnet-4-5",
	name: "Claude Sonnet 4.5",
	api: "anthropic-messages",
	reasoning: true,
	input: ["text", "image"],
	contextWindow: 200000,
	maxTokens: 64000,
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};

/** A short branch with one assistant turn, so footers have token counts to show. */
const BRANCH = [
	{
		type: "message",
		id: "m1",
		parentId: null,
		timestamp: "2025-01-15T12:00:00.000Z",
		message: { role: "user", content: "hello", timestamp: 1736942400000 },
	},
	{
		type: "message",
		id: "m2",
		parentId: "m1",
		timestamp: "2025-01-15T12:00:01.000Z",
		message: {
			role: "assistant",
			content: [{ type: "text", text: "Hi there" }],
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-sonnet-4-5",
			usage: {
				input: 1234,
				output: 567,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 1801,
				cost: { input: 0.0037, output: 0.0085, cacheRead: 0, cacheWrite: 0, total: 0.0122 },
			},
			stopReason: "stop",
			timestamp: 1736942401000,
		},
	},
];

/** What `ctx.modelRegistry.complete` answers: a short Markdown summary. */
const COMPLETION = {
	role: "assistant",
	content: [
		{
			type: "text",
			text: [
				"## Goal",
				"Make the **picture tests** pass at every width.",
				"",
				"## Progress",
				"- Driver loads each example with a recording API",
				"- Screens compared through `@xterm/headless`",
				"",
				"## Next steps",
				"1. Fix the remaining *border* differences",
				"2. Shrink the known-differences table",
				"",
				"```ts",
				"const widths = [40, 80, 120];",
				"```",
			].join("\n"),
		},
	],
	api: "anthropic-messages",
	provider: "anthropic",
	model: "claude-sonnet-4-5",
	usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 30, cost: { total: 0 } },
	stopReason: "stop",
	timestamp: 1736942402000,
};

const TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"].map((name) => ({
	name,
	description: `${name} tool`,
	parameters: { type: "object", properties: {} },
}));

export function createRecording(host: PictureHost, cwd: string): Recording {
	const rec = {
		commands: new Map(),
		tools: new Map(),
		messageRenderers: new Map(),
		entryRenderers: new Map(),
		appendedEntries: [],
		handlers: new Map(),
		sentMessages: [],
		notifications: [],
		live: [],
		widgets: new Map(),
		width: 80,
	} as unknown as Recording;
	let activeTools = ["read", "bash", "edit", "write"];

	const overlayHandle = (entry: LiveComponent) => {
		let hidden = false;
		let focused = true;
		return {
			hide: () => {
				entry.closed = true;
			},
			setHidden: (value: boolean) => {
				hidden = value;
				entry.closed = value;
			},
			isHidden: () => hidden,
			focus: () => {
				focused = true;
			},
			unfocus: () => {
				focused = false;
			},
			isFocused: () => focused,
		};
	};

	rec.tui = {
		requestRender() {},
		invalidate() {},
		setFocus() {},
		terminal: {
			get columns() {
				return rec.width;
			},
			rows: 24,
			write() {},
		},
		showOverlay(component: DrawableComponent, options?: { nonCapturing?: boolean }) {
			if (!options?.nonCapturing) focus(component);
			const entry = { kind: "overlay", component, closed: false };
			rec.live.push(entry);
			return overlayHandle(entry);
		},
		hideOverlay() {
			const open = rec.live.filter((entry) => entry.kind === "overlay" && !entry.closed);
			const last = open[open.length - 1];
			if (last) last.closed = true;
		},
		hasOverlay: () => rec.live.some((entry) => entry.kind === "overlay" && !entry.closed),
	};

	const ui = {
		theme: host.theme,
		notify(message: string, type = "info") {
			rec.notifications.push(`${type}: ${message}`);
		},
		async custom(factory: Handler, options?: { onHandle?: (handle: unknown) => void }) {
			let resolve: (value: unknown) => void = () => {};
			const result = new Promise((r) => {
				resolve = r;
			});
			const entry: LiveComponent = { kind: "custom", component: undefined as never, closed: false };
			const done = (value: unknown) => {
				entry.closed = true;
				resolve(value);
			};
			entry.component = (await factory(rec.tui, host.theme, host.keybindings, done)) as DrawableComponent;
			focus(entry.component);
			rec.live.push(entry);
			options?.onHandle?.(overlayHandle(entry));
			return result;
		},
		setWidget(key: string, content: unknown, _options?: unknown) {
			if (content === undefined) {
				rec.widgets.delete(key);
				return;
			}
			const component =
				typeof content === "function"
					? ((content as Handler)(rec.tui, host.theme) as DrawableComponent)
					: { render: () => [...(content as string[])] };
			rec.widgets.set(key, { kind: `widget:${key}`, component, closed: false });
		},
		setFooter(factory?: Handler) {
			const footerData = {
				getGitBranch: () => "main",
				onBranchChange: () => () => {},
				getExtensionStatuses: () => new Map(),
				getAvailableProviderCount: () => 1,
			};
			rec.footer = factory
				? { kind: "footer", component: factory(rec.tui, host.theme, footerData) as DrawableComponent, closed: false }
				: undefined;
		},
		setHeader(factory?: Handler) {
			rec.header = factory
				? { kind: "header", component: factory(rec.tui, host.theme) as DrawableComponent, closed: false }
				: undefined;
		},
		setEditorComponent(factory?: Handler) {
			const component = factory?.(rec.tui, host.editorTheme(), host.keybindings) as DrawableComponent | undefined;
			if (component) focus(component);
			rec.editor = component ? { kind: "editor", component, closed: false } : undefined;
		},
		setStatus() {},
		setWorkingMessage() {},
		setTitle() {},
		setEditorText() {},
		getEditorText: () => "",
		pasteToEditor() {},
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		editor: async () => undefined,
		getToolsExpanded: () => false,
		setToolsExpanded() {},
	};

	rec.ctx = {
		mode: "tui",
		hasUI: true,
		cwd,
		ui: acceptingRest(ui),
		model: MODEL,
		modelRegistry: {
			find: (provider: string, id: string) => ({ ...MODEL, provider, id, name: id }),
			getAvailable: () => [MODEL],
			getAll: () => [MODEL],
			hasConfiguredAuth: () => true,
			// The answer arrives on the next clock tick, so a loader shown meanwhile can be drawn.
			complete: () =>
				new Promise((resolve) => {
					setTimeout(() => resolve(COMPLETION), 1000);
				}),
		},
		sessionManager: {
			getEntries: () => BRANCH,
			getBranch: () => BRANCH,
			getSessionFile: () => undefined,
			getSessionId: () => "session-1",
			getLeafId: () => "m2",
			getCwd: () => cwd,
			getSessionName: () => undefined,
		},
		signal: undefined,
		isIdle: () => true,
		abort() {},
		hasPendingMessages: () => false,
		shutdown() {},
		getContextUsage: () => undefined,
		compact() {},
		getSystemPrompt: () => "",
	};

	const api: Record<string, unknown> = {
		registerCommand(name: string, options: { handler: Handler }) {
			rec.commands.set(name, options);
		},
		registerTool(tool: ToolLike) {
			rec.tools.set(tool.name, tool);
		},
		registerMessageRenderer(customType: string, renderer: Handler) {
			rec.messageRenderers.set(customType, renderer);
		},
		registerEntryRenderer(customType: string, renderer: Handler) {
			rec.entryRenderers.set(customType, renderer);
		},
		appendEntry(customType: string, data: unknown) {
			rec.appendedEntries.push({ customType, data });
		},
		on(event: string, handler: Handler) {
			const list = rec.handlers.get(event) ?? [];
			list.push(handler);
			rec.handlers.set(event, list);
		},
		sendMessage(message: Record<string, unknown>) {
			rec.sentMessages.push(message);
		},
		getActiveTools: () => [...activeTools],
		getAllTools: () => TOOLS,
		setActiveTools(names: string[]) {
			activeTools = [...names];
		},
		getFlag: () => undefined,
		getThinkingLevel: () => "medium",
		setThinkingLevel() {},
		setModel: async () => true,
		getSessionName: () => undefined,
		getCommands: () => [],
		exec: async () => ({ stdout: "", stderr: "", code: 0, killed: false }),
		events: { on: () => () => {}, emit() {} },
	};
	rec.api = acceptingRest(api);
	return rec;
}

/** As the TUI does when it gives a Focusable component the focus: it then draws its cursor. */
function focus(component: DrawableComponent): void {
	if (component && typeof component === "object" && "focused" in component) {
		(component as { focused: boolean }).focused = true;
	}
}

/**
 * `target` with every other method an extension may call (registerFlag, registerShortcut, setWorkingVisible, …)
 * accepted and ignored: those draw nothing.
 */
function acceptingRest<T extends object>(target: T): T {
	return new Proxy(target, {
		get(object, key) {
			if (typeof key === "string" && !(key in object)) return () => undefined;
			return (object as Record<string | symbol, unknown>)[key];
		},
	});
}
