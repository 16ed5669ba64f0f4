/**
 * Footer states drawn by both sides of the chrome picture test (pi 0.87.1's FooterComponent under Node 22, ours
 * under Bun), and the driver that turns them into rendered lines. Imports nothing from either implementation: each
 * side passes its classes in (`ChromeLib`). Node runs this file with type stripping, so only erasable syntax here.
 */

export const HOME = "/home/tester";
export const WIDTHS = [40, 80, 120] as const;

interface Usage {
	input: number;
	output: number;
	cacheRead?: number;
	cacheWrite?: number;
	cost?: number;
}

interface FooterCase {
	name: string;
	cwd: string;
	branch?: string;
	sessionName?: string;
	/** Assistant turns' usage, in order. */
	turns?: Usage[];
	/** Extra entries carrying usage (tool results, compaction). */
	extra?: { type: "toolResult" | "compaction" | "usage"; usage: Usage }[];
	model?: { id: string; provider: string; reasoning?: boolean; contextWindow?: number };
	thinkingLevel?: string;
	/** percent null = unknown (right after compaction); absent = no usage known. */
	context?: { percent: number | null; contextWindow: number };
	providers?: number;
	statuses?: Record<string, string>;
	autoCompact?: boolean;
	subscription?: boolean;
}

const SONNET = { id: "claude-sonnet-4-5", provider: "anthropic", reasoning: true, contextWindow: 200_000 };
const MOCK = { id: "mock-text", provider: "mock", contextWindow: 200_000 };

export const FOOTER_CASES: FooterCase[] = [
	{ name: "fresh", cwd: `${HOME}/proj`, model: MOCK, context: { percent: 0, contextWindow: 200_000 } },
	{ name: "no-model", cwd: "/srv/elsewhere", autoCompact: false },
	{ name: "home-itself", cwd: HOME, model: MOCK, branch: "main" },
	{
		name: "one-turn",
		cwd: `${HOME}/proj`,
		branch: "main",
		turns: [{ input: 1512, output: 9, cost: 0.0042 }],
		model: MOCK,
		context: { percent: 0.7, contextWindow: 200_000 },
		providers: 1,
	},
	{
		name: "cached-reasoning",
		cwd: `${HOME}/code/pi`,
		branch: "feature/footer",
		sessionName: "refactor footer",
		turns: [
			{ input: 12_000, output: 800, cacheWrite: 9_000, cost: 0.12 },
			{ input: 300, output: 2_400, cacheRead: 21_000, cacheWrite: 400, cost: 0.0456 },
		],
		extra: [{ type: "toolResult", usage: { input: 50, output: 5, cost: 0.001 } }],
		model: SONNET,
		thinkingLevel: "high",
		context: { percent: 74.25, contextWindow: 200_000 },
		providers: 3,
	},
	{
		name: "thinking-off-error",
		cwd: `${HOME}/w`,
		turns: [{ input: 9_500_000, output: 12_345_678, cacheRead: 999, cost: 123.4567 }],
		extra: [{ type: "compaction", usage: { input: 1000, output: 200, cost: 0.5 } }],
		model: SONNET,
		thinkingLevel: "off",
		context: { percent: 95.5, contextWindow: 1_000_000 },
		providers: 2,
	},
	{
		name: "after-compaction",
		cwd: `${HOME}/proj`,
		turns: [{ input: 40_000, output: 3_000, cost: 0.2 }],
		extra: [{ type: "usage", usage: { input: 7, output: 3, cost: 0 } }],
		model: { ...SONNET, id: "gpt-5", provider: "openai" },
		thinkingLevel: "medium",
		context: { percent: null, contextWindow: 400_000 },
		providers: 2,
	},
	{
		name: "subscription",
		cwd: `${HOME}/proj`,
		model: { id: "kimi-k2", provider: "kimi-coding", contextWindow: 128_000 },
		context: { percent: 12.5, contextWindow: 128_000 },
		subscription: false,
	},
	{
		name: "sub-auth",
		cwd: `${HOME}/proj`,
		turns: [{ input: 100, output: 20, cost: 0 }],
		model: SONNET,
		context: { percent: 1, contextWindow: 200_000 },
		subscription: true,
	},
	{
		name: "long-everything",
		cwd: `${HOME}/projects/a-really-long-folder-name/with/many/levels/inside/it`,
		branch: "feature/an-extremely-long-branch-name-that-goes-on",
		sessionName: "the session with the very long name",
		turns: [{ input: 123_456, output: 65_432, cacheRead: 5_432_100, cacheWrite: 76_543, cost: 9.87654 }],
		model: { ...SONNET, id: "claude-opus-4-5-20251101-with-a-long-suffix" },
		thinkingLevel: "xhigh",
		context: { percent: 55.55, contextWindow: 200_000 },
		providers: 4,
		statuses: {
			zeta: "last\tone",
			alpha: "first status\nwith a newline",
			mid: "  a status that is long enough to need cutting at the narrow widths of the test  ",
		},
	},
	{
		name: "statuses",
		cwd: "/tmp/x",
		model: MOCK,
		statuses: { b: "\x1b[32m●\x1b[39m build ok", a: "plan mode" },
		autoCompact: false,
	},
];

type Style = (text: string) => string;
interface Renderable {
	render(width: number): string[];
}
interface Indicator extends Renderable {
	renderInBorder(width: number): string;
	renderSpinnerInBorder(width: number): string;
	dispose(): void;
}

/** One side's classes and helpers. */
export interface ChromeLib {
	Footer: new (session: unknown, footerData: unknown) => Renderable & { setAutoCompactEnabled(enabled: boolean): void };
	DynamicBorder: new (color?: Style) => Renderable;
	keyHint(binding: string, description: string): string;
	rawKeyHint(key: string, description: string): string;
	working(message: string | undefined): Indicator;
	compaction(reason: "manual" | "threshold" | "overflow"): Indicator;
	branchSummary(): Indicator;
	retry(attempt: number, max: number, delayMs: number): Indicator;
	/** The default editor (embeds the working status in its top border), on a 24-row terminal. */
	editor(): Renderable & { setText(text: string): void; setWorkingStatusIndicator(indicator: unknown): void };
}

/** A terminal-less TUI stand-in for the editor: 24 rows, redraw requests ignored. */
export const FAKE_TUI = { requestRender: () => {}, terminal: { rows: 24, columns: 120 } };

/** Picture name → width → rendered lines. */
export type ChromePictures = Record<string, Record<number, string[]>>;

function entriesOf(c: FooterCase): unknown[] {
	const usage = (u: Usage) => ({
		input: u.input,
		output: u.output,
		cacheRead: u.cacheRead ?? 0,
		cacheWrite: u.cacheWrite ?? 0,
		totalTokens: u.input + u.output,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: u.cost ?? 0 },
	});
	const entries: unknown[] = [{ type: "message", message: { role: "user", content: "hi" } }];
	for (const turn of c.turns ?? [])
		entries.push({ type: "message", message: { role: "assistant", usage: usage(turn) } });
	for (const extra of c.extra ?? []) {
		if (extra.type === "toolResult")
			entries.push({ type: "message", message: { role: "toolResult", usage: usage(extra.usage) } });
		else entries.push({ type: extra.type, usage: usage(extra.usage) });
	}
	return entries;
}

function sessionOf(c: FooterCase): unknown {
	const entries = entriesOf(c);
	return {
		state: { model: c.model, thinkingLevel: c.thinkingLevel },
		getContextUsage: () => (c.context ? { tokens: null, ...c.context } : undefined),
		sessionManager: {
			getCwd: () => c.cwd,
			getSessionName: () => c.sessionName,
			getEntries: () => entries,
		},
		modelRuntime: { isUsingSubscription: () => c.subscription === true },
	};
}

function footerDataOf(c: FooterCase): unknown {
	return {
		getGitBranch: () => c.branch ?? null,
		getExtensionStatuses: () => new Map(Object.entries(c.statuses ?? {})),
		getAvailableProviderCount: () => c.providers ?? 1,
	};
}

export function drawChrome(lib: ChromeLib, widths: readonly number[] = WIDTHS): ChromePictures {
	const out: ChromePictures = {};
	const each = (name: string, draw: (width: number) => string[]) => {
		out[name] = {};
		for (const width of widths) out[name][width] = draw(width);
	};
	for (const c of FOOTER_CASES) {
		const footer = new lib.Footer(sessionOf(c), footerDataOf(c));
		if (c.autoCompact === false) footer.setAutoCompactEnabled(false);
		each(`footer:${c.name}`, (width) => footer.render(width));
	}
	each("border:default", (width) => new lib.DynamicBorder().render(width));
	each("border:coloured", (width) => new lib.DynamicBorder((t) => `\x1b[33m${t}\x1b[39m`).render(width));
	each("hints", () => [
		lib.keyHint("app.interrupt", "to interrupt"),
		lib.keyHint("app.tools.expand", "to expand tools"),
		lib.rawKeyHint("ctrl+c twice", "to exit"),
		lib.rawKeyHint("/", "for commands"),
	]);
	const indicators: [string, () => Indicator][] = [
		["working", () => lib.working(undefined)],
		["working-message", () => lib.working("Reading the whole repository before answering the question...")],
		["compaction-manual", () => lib.compaction("manual")],
		["compaction-threshold", () => lib.compaction("threshold")],
		["compaction-overflow", () => lib.compaction("overflow")],
		["branch-summary", () => lib.branchSummary()],
		["retry", () => lib.retry(2, 5, 4_200)],
	];
	for (const [name, make] of indicators) {
		const indicator = make();
		each(`status:${name}`, (width) => [
			...indicator.render(width),
			indicator.renderInBorder(Math.max(1, width - 5)),
			indicator.renderSpinnerInBorder(width),
		]);
		indicator.dispose();
	}
	const bordered: [string, () => Indicator, string][] = [
		["working-empty", () => lib.working(undefined), ""],
		[
			"long-scrolled",
			() => lib.working("Reading the whole repository before answering the question..."),
			"line\n".repeat(14),
		],
		["compaction-scrolled", () => lib.compaction("overflow"), "x\n".repeat(20)],
	];
	for (const [name, make, text] of bordered) {
		const indicator = make();
		const editor = lib.editor();
		editor.setText(text);
		editor.setWorkingStatusIndicator(indicator);
		each(`editor-border:${name}`, (width) => editor.render(width).slice(0, 1));
		indicator.dispose();
	}
	return out;
}
