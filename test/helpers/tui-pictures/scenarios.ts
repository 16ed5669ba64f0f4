/**
 * What to do with each example extension before drawing it: the events, commands and tool calls that make it show
 * components, the keys typed into them, the timer ticks, and sample tool calls/results/messages for its renderers.
 * Plain data, read by both sides of the picture comparison. Erasable TypeScript only (Node strips the types).
 */
import { RENDERER_SCENARIOS } from "./renderer-scenarios.ts";
import { KEY, QUESTION, QUESTIONNAIRE, text } from "./samples.ts";

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

const SESSION_START: PictureStep = { type: "event", name: "session_start", event: { reason: "startup" } };

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
	...RENDERER_SCENARIOS,
];
