/**
 * What to do with each example extension before drawing it: the events, commands and tool calls that make it show
 * components, the keys typed into them, the timer ticks, and sample tool calls/results/messages for its renderers.
 * Plain data, read by both sides of the picture comparison. Erasable TypeScript only (Node strips the types).
 */

export type PictureStep =
	| { type: "event"; name: string; event?: Record<string, unknown> }
	| { type: "command"; name: string; args?: string }
	| { type: "execute"; tool: string; params: unknown }
	| { type: "keys"; keys: string[] }
	| { type: "tick"; count: number }
	| { type: "draw"; label: string }
	| {
			type: "tool-render";
			tool: string;
			label: string;
			args: Record<string, unknown>;
			result?: { content: unknown[]; details?: unknown; isError?: boolean };
			expanded?: boolean;
			isError?: boolean;
	  }
	| { type: "entry-render"; label: string; customType: string; expanded?: boolean }
	| {
			type: "message-render";
			label: string;
			customType?: string;
			message?: Record<string, unknown>;
			expanded?: boolean;
	  };

export interface PictureScenario {
	/** File name in the examples folder, without `.ts`. */
	extension: string;
	/** Picture prefix when one extension has several scenarios (default: the extension). */
	name?: string;
	steps: PictureStep[];
}

export const KEY = {
	up: "\x1b[A",
	down: "\x1b[B",
	right: "\x1b[C",
	left: "\x1b[D",
	enter: "\r",
	tab: "\t",
	escape: "\x1b",
	space: " ",
} as const;

const SESSION_START: PictureStep = { type: "event", name: "session_start", event: { reason: "startup" } };

const text = (value: string) => ({ type: "text", text: value });

/**
 * The overlay-qa-tests commands, each opened alone and drawn before and after a few ticks and keys.
 * `overlay-overflow` is left out: it shows the output of a real `bash` loop as it arrives, which no clock pins.
 */
const QA_COMMANDS = [
	"overlay-animation",
	"overlay-anchors",
	"overlay-margins",
	"overlay-stack",
	"overlay-edge",
	"overlay-percent",
	"overlay-maxheight",
	"overlay-sidepanel",
	"overlay-toggle",
	"overlay-passive",
	"overlay-focus",
	"overlay-streaming",
];

const QUESTIONNAIRE = {
	questions: [
		{
			id: "lang",
			label: "Language",
			prompt: "Which language should the new service use?",
			options: [
				{ value: "ts", label: "TypeScript", description: "Same as the rest of the monorepo" },
				{ value: "go", label: "Go", description: "Small static binaries" },
			],
		},
		{
			id: "db",
			label: "Database",
			prompt: "Where should it store its data?",
			options: [
				{ value: "pg", label: "Postgres" },
				{ value: "sqlite", label: "SQLite", description: "One file next to the binary" },
			],
			allowOther: false,
		},
	],
};

const QUESTION = {
	question: "Which test runner should the project use for its end-to-end suite?",
	options: [
		{ label: "bun test", description: "Already used for unit tests" },
		{ label: "vitest" },
		{ label: "node:test", description: "No dependency at all" },
	],
};

const SUBAGENT_USAGE = {
	input: 1200,
	output: 340,
	cacheRead: 800,
	cacheWrite: 0,
	cost: 0.0123,
	contextTokens: 2340,
	turns: 2,
};

function subagentRun(agent: string, task: string, answer: string) {
	return {
		agent,
		agentSource: "user",
		task,
		exitCode: 0,
		messages: [
			{
				role: "assistant",
				content: [
					{ type: "text", text: "Looking around." },
					{ type: "toolCall", id: "t1", name: "grep", arguments: { pattern: "drawPictures", path: "test" } },
					{ type: "toolCall", id: "t2", name: "read", arguments: { path: "test/helpers/tui-pictures/driver.ts" } },
				],
			},
			{ role: "assistant", content: [{ type: "text", text: answer }] },
		],
		stderr: "",
		usage: SUBAGENT_USAGE,
		model: "claude-haiku-4-5",
		stopReason: "stop",
	};
}

const SUBAGENT_SINGLE_ARGS = { agent: "scout", task: "Find where the pictures are drawn and who calls it" };
const SUBAGENT_ANSWER = "## Found\n\n- `driver.ts` draws every scenario\n- `sides.ts` runs both sides\n\nAll **good**.";
const SUBAGENT_SINGLE = {
	content: [text(SUBAGENT_ANSWER)],
	details: {
		mode: "single",
		agentScope: "user",
		projectAgentsDir: null,
		results: [subagentRun("scout", SUBAGENT_SINGLE_ARGS.task, SUBAGENT_ANSWER)],
	},
};
const SUBAGENT_PARALLEL = {
	content: [text("2/2 succeeded")],
	details: {
		mode: "parallel",
		agentScope: "user",
		projectAgentsDir: null,
		results: [
			subagentRun("scout", SUBAGENT_SINGLE_ARGS.task, SUBAGENT_ANSWER),
			subagentRun("planner", "Plan the fix", "1. Change the border\n2. Run the tests"),
		],
	},
};

export const SCENARIOS: PictureScenario[] = [
	{
		extension: "overlay-test",
		steps: [
			{ type: "command", name: "overlay-test" },
			{ type: "draw", label: "open" },
			{ type: "keys", keys: ["a", "b", "c", KEY.down, KEY.down] },
			{ type: "draw", label: "typed" },
		],
	},
	...QA_COMMANDS.map(
		(command): PictureScenario => ({
			extension: "overlay-qa-tests",
			name: `overlay-qa-tests:${command}`,
			steps: [
				{ type: "command", name: command },
				{ type: "draw", label: "open" },
				{ type: "tick", count: 3 },
				{ type: "keys", keys: [KEY.down, KEY.tab, "x"] },
				{ type: "draw", label: "later" },
			],
		}),
	),
	{
		extension: "questionnaire",
		steps: [
			{ type: "execute", tool: "questionnaire", params: QUESTIONNAIRE },
			{ type: "draw", label: "first" },
			{ type: "keys", keys: [KEY.down, KEY.enter] },
			{ type: "draw", label: "second" },
			{ type: "keys", keys: [KEY.down, KEY.enter] },
			{ type: "draw", label: "submit" },
			{ type: "tool-render", tool: "questionnaire", label: "render", args: QUESTIONNAIRE },
			{
				type: "tool-render",
				tool: "questionnaire",
				label: "answered",
				args: QUESTIONNAIRE,
				result: {
					content: [text("Language: user selected: 2. Go")],
					details: {
						questions: QUESTIONNAIRE.questions,
						answers: [
							{ id: "lang", value: "go", label: "Go", wasCustom: false, index: 2 },
							{ id: "db", value: "my own", label: "my own", wasCustom: true },
						],
						cancelled: false,
					},
				},
			},
		],
	},
	{
		extension: "questionnaire",
		name: "questionnaire:single",
		steps: [
			{ type: "execute", tool: "questionnaire", params: { questions: [QUESTIONNAIRE.questions[0]] } },
			{ type: "draw", label: "open" },
			{ type: "keys", keys: [KEY.down, KEY.down] },
			{ type: "draw", label: "other" },
			{ type: "keys", keys: [KEY.enter, "m", "i", "n", "e"] },
			{ type: "draw", label: "typing" },
		],
	},
	{
		extension: "question",
		steps: [
			{ type: "execute", tool: "question", params: QUESTION },
			{ type: "draw", label: "open" },
			{ type: "keys", keys: [KEY.down] },
			{ type: "draw", label: "moved" },
			{ type: "keys", keys: [KEY.down, KEY.down, KEY.enter, "h", "i"] },
			{ type: "draw", label: "typing" },
			{ type: "tool-render", tool: "question", label: "render", args: QUESTION },
			{
				type: "tool-render",
				tool: "question",
				label: "answered",
				args: QUESTION,
				result: {
					content: [text("User selected: 2. vitest")],
					details: { question: QUESTION.question, options: ["bun test", "vitest", "node:test"], answer: "vitest" },
				},
			},
		],
	},
	{
		extension: "modal-editor",
		steps: [
			SESSION_START,
			{ type: "draw", label: "empty" },
			{ type: "keys", keys: ["i", "h", "e", "l", "l", "o", " ", "w", "o", "r", "l", "d"] },
			{ type: "draw", label: "insert" },
			{ type: "keys", keys: [KEY.escape, "h", "h"] },
			{ type: "draw", label: "normal" },
		],
	},
	{
		extension: "rainbow-editor",
		steps: [
			SESSION_START,
			{ type: "keys", keys: [..."this is ultrathink mode"] },
			{ type: "draw", label: "typed" },
			{ type: "tick", count: 4 },
			{ type: "draw", label: "animated" },
		],
	},
	{
		extension: "snake",
		steps: [
			{ type: "command", name: "snake" },
			{ type: "draw", label: "start" },
			{ type: "tick", count: 3 },
			{ type: "keys", keys: [KEY.down] },
			{ type: "tick", count: 4 },
			{ type: "draw", label: "moving" },
			{ type: "keys", keys: [KEY.escape] },
		],
	},
	{
		extension: "tic-tac-toe",
		steps: [
			SESSION_START,
			{ type: "command", name: "tic-tac-toe" },
			{ type: "draw", label: "start" },
			{ type: "keys", keys: [KEY.right, KEY.down, KEY.enter] },
			{ type: "draw", label: "played" },
			{ type: "message-render", label: "move-message", customType: "tic-tac-toe-move" },
			{ type: "message-render", label: "move-message-expanded", customType: "tic-tac-toe-move", expanded: true },
			{
				type: "tool-render",
				tool: "tic_tac_toe",
				label: "tool",
				args: { action: "move_left" },
				result: { content: [text("Cursor moved left.")], details: undefined },
			},
		],
	},
	{
		extension: "space-invaders",
		steps: [
			{ type: "command", name: "invaders" },
			{ type: "draw", label: "start" },
			{ type: "keys", keys: [KEY.left, KEY.left, KEY.space] },
			{ type: "tick", count: 5 },
			{ type: "draw", label: "playing" },
		],
	},
	{
		extension: "todo",
		steps: [
			SESSION_START,
			{ type: "command", name: "todos" },
			{ type: "draw", label: "empty" },
			{ type: "keys", keys: [KEY.escape] },
			{ type: "execute", tool: "todo", params: { action: "add", text: "Write the picture tests" } },
			{ type: "execute", tool: "todo", params: { action: "add", text: "Fix the borders" } },
			{ type: "execute", tool: "todo", params: { action: "toggle", id: 1 } },
			{ type: "command", name: "todos" },
			{ type: "draw", label: "two" },
			{
				type: "tool-render",
				tool: "todo",
				label: "tool",
				args: { action: "add", text: "Fix the borders" },
				result: {
					content: [text("Added todo #2: Fix the borders")],
					details: {
						action: "add",
						todos: [
							{ id: 1, text: "Write the picture tests", done: true },
							{ id: 2, text: "Fix the borders", done: false },
						],
						nextId: 3,
					},
				},
			},
			{
				type: "tool-render",
				tool: "todo",
				label: "list-expanded",
				expanded: true,
				args: { action: "list" },
				result: {
					content: [text("[x] #1: Write the picture tests\n[ ] #2: Fix the borders")],
					details: {
						action: "list",
						todos: [
							{ id: 1, text: "Write the picture tests", done: true },
							{ id: 2, text: "Fix the borders", done: false },
						],
						nextId: 3,
					},
				},
			},
		],
	},
	{
		extension: "preset",
		steps: [
			SESSION_START,
			{ type: "command", name: "preset" },
			{ type: "draw", label: "selector" },
			{ type: "keys", keys: [KEY.down] },
			{ type: "draw", label: "moved" },
		],
	},
	{
		extension: "tools",
		steps: [
			SESSION_START,
			{ type: "command", name: "tools" },
			{ type: "draw", label: "list" },
			{ type: "keys", keys: [KEY.down, KEY.space, KEY.down] },
			{ type: "draw", label: "toggled" },
		],
	},
	{ extension: "widget-placement", steps: [SESSION_START, { type: "draw", label: "widgets" }] },
	{
		extension: "custom-footer",
		steps: [
			{ type: "command", name: "footer" },
			{ type: "draw", label: "footer" },
		],
	},
	{ extension: "custom-header", steps: [SESSION_START, { type: "draw", label: "header" }] },
	{
		extension: "message-renderer",
		steps: [
			{ type: "command", name: "status", args: "warn disk is almost full on the build machine" },
			{ type: "message-render", label: "warn", customType: "status-update" },
			{ type: "message-render", label: "warn-expanded", customType: "status-update", expanded: true },
			{ type: "command", name: "status", args: "deploy finished" },
			{ type: "message-render", label: "info", customType: "status-update" },
		],
	},
	{
		extension: "built-in-tool-renderer",
		steps: [
			{
				type: "tool-render",
				tool: "read",
				label: "read",
				args: { path: "src/main.ts", offset: 10, limit: 20 },
				result: { content: [text("line one\nline two\nline three")], details: undefined },
				expanded: true,
			},
			{
				type: "tool-render",
				tool: "bash",
				label: "bash",
				args: { command: "npm test -- --reporter=dot", timeout: 60 },
				result: { content: [text("....\n4 passing\n\nExit code: 1")], details: undefined },
			},
			{
				type: "tool-render",
				tool: "edit",
				label: "edit",
				args: { path: "src/util/strings.ts", edits: [{ oldText: "a", newText: "b" }] },
				result: {
					content: [text("Successfully replaced 1 block(s) in src/util/strings.ts.")],
					details: { diff: "-1 const a = 1;\n+1 const a = 2;\n 2 export { a };", firstChangedLine: 1 },
				},
				expanded: true,
			},
			{
				type: "tool-render",
				tool: "write",
				label: "write",
				args: { path: "notes/todo.md", content: "# Todo\n\n- one\n- two\n" },
				result: { content: [text("Successfully wrote 22 bytes to notes/todo.md")], details: undefined },
			},
		],
	},
	{
		extension: "qna",
		steps: [
			{ type: "command", name: "qna" },
			{ type: "draw", label: "loader" },
			{ type: "tick", count: 1 },
			{ type: "draw", label: "done" },
		],
	},
	{
		extension: "handoff",
		steps: [
			{ type: "command", name: "handoff", args: "finish the picture tests" },
			{ type: "draw", label: "loader" },
			{ type: "keys", keys: [KEY.escape] },
			{ type: "draw", label: "cancelled" },
		],
	},
	{
		extension: "summarize",
		steps: [
			{ type: "command", name: "summarize" },
			{ type: "tick", count: 1 },
			{ type: "draw", label: "summary" },
		],
	},
	{
		extension: "border-status-editor",
		steps: [
			SESSION_START,
			{ type: "keys", keys: [..."status in the border"] },
			{ type: "draw", label: "idle" },
			{ type: "event", name: "agent_start" },
			{ type: "tick", count: 2 },
			{ type: "draw", label: "working" },
		],
	},
	{
		extension: "entry-renderer",
		steps: [
			{ type: "command", name: "status-card", args: "Nightly build is green" },
			{ type: "entry-render", label: "card", customType: "status-card" },
		],
	},
	{
		extension: "truncated-tool",
		steps: [
			{
				type: "tool-render",
				tool: "rg",
				label: "matches",
				args: { pattern: "drawPictures", path: "test", glob: "*.ts" },
				result: {
					content: [text("test/a.ts:1:drawPictures()\ntest/b.ts:9:drawPictures(host)")],
					details: { pattern: "drawPictures", matchCount: 2, truncation: { truncated: true } },
				},
				expanded: true,
			},
		],
	},
	{
		extension: "minimal-mode",
		steps: [
			{ type: "tool-render", tool: "read", label: "read", args: { path: "src/tui/index.ts", offset: 5, limit: 10 } },
			{
				type: "tool-render",
				tool: "bash",
				label: "bash",
				args: { command: "ls -la", timeout: 30 },
				result: { content: [text("total 0\ndrwxr-xr-x  2 pi pi 40 .")] },
				expanded: true,
			},
			{ type: "tool-render", tool: "write", label: "write", args: { path: "a/b.txt", content: "one\ntwo" } },
			{ type: "tool-render", tool: "edit", label: "edit", args: { path: "a/b.txt", edits: [] } },
			{ type: "tool-render", tool: "find", label: "find", args: { pattern: "*.ts", path: "src", limit: 5 } },
			{ type: "tool-render", tool: "grep", label: "grep", args: { pattern: "TODO", glob: "*.ts", limit: 3 } },
			{ type: "tool-render", tool: "ls", label: "ls", args: { path: "src", limit: 20 } },
		],
	},
	{
		extension: "subagent/index",
		name: "subagent",
		steps: [
			{ type: "tool-render", tool: "subagent", label: "single", args: SUBAGENT_SINGLE_ARGS, result: SUBAGENT_SINGLE },
			{
				type: "tool-render",
				tool: "subagent",
				label: "single-expanded",
				args: SUBAGENT_SINGLE_ARGS,
				result: SUBAGENT_SINGLE,
				expanded: true,
			},
			{
				type: "tool-render",
				tool: "subagent",
				label: "parallel-expanded",
				args: { tasks: [SUBAGENT_SINGLE_ARGS, { agent: "planner", task: "Plan the fix" }] },
				result: SUBAGENT_PARALLEL,
				expanded: true,
			},
		],
	},
];
