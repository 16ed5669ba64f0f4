/**
 * Scenarios for examples that bring their own components: custom editors, overlays, games, settings lists,
 * selectors, tool renderers, and the plan/todo/preset workflows built on them.
 */
import type { InteractiveScenario } from "./interactive-scenarios.ts";
import { reply, settle, submit, toolReply, turnDone } from "./interactive-scenarios.ts";
import {
	aboveEditor,
	belowEditor,
	editorBox,
	normalise,
	rowsFrom,
	rowsMatching,
	ruleRows,
} from "./interactive-scenarios-screen.ts";

const ESC = String.fromCharCode(27);

/** The bottom border of the editor (where a custom editor may draw a label). */
function bottomRule(lines: string[]): string {
	const rules = ruleRows(lines);
	return rules.length ? (lines[rules.at(-1) as number] as string).replace(/─+/g, "─") : "";
}

/** The rows a custom component shows where the editor was: from its first row to the footer's first row. */
function componentRows(lines: string[], first: RegExp, last: RegExp): string[] {
	return rowsFrom(lines, first, last).filter((line) => line.trim() !== "");
}

export const CUSTOM_SCENARIOS: InteractiveScenario[] = [
	{
		name: "modal-editor",
		extension: "modal-editor.ts",
		essential: "editor text and the INSERT/NORMAL label on its border through a vim-style edit",
		async run(app) {
			app.type("hello world");
			const insert = await app.waitFor(/^hello world/m);
			await app.press("escape");
			const normal = await app.waitFor("NORMAL");
			await app.press("0", "x", "i");
			app.type("J");
			const edited = await app.waitFor(/^Jello world/m);
			return [...editorBox(insert), bottomRule(insert), bottomRule(normal), ...editorBox(edited), bottomRule(edited)];
		},
	},
	{
		name: "rainbow-editor",
		extension: "rainbow-editor.ts",
		essential: "editor text, and that 'ultrathink' is drawn in 24-bit colours",
		async run(app) {
			app.type("please ultrathink about it");
			const lines = await app.waitFor(/^please ultrathink about it/m);
			await Bun.sleep(200);
			const coloured = new RegExp(`${ESC}\\[38;2;\\d+;\\d+;\\d+mu`).test(app.output());
			return [...editorBox(lines), `ultrathink in truecolor: ${coloured}`];
		},
	},
	{
		name: "overlay-test",
		extension: "overlay-test.ts",
		essential: "the overlay's rows over the transcript, then the notification with the typed query",
		async run(app) {
			await submit(app, "/overlay-test");
			await app.waitFor("Search");
			// The box only: the transcript and footer show through left and right of it.
			const overlay = (await settle(app)).flatMap((line) => line.match(/[╭│╰].*[╮│╯]/)?.[0] ?? []);
			app.type("abc");
			await app.waitFor("abc");
			await app.press("enter");
			const after = await app.waitFor(/Search: "abc"/);
			return [...overlay, ...rowsMatching(after, /Search: "abc"/)];
		},
	},
	{
		name: "snake",
		extension: "snake.ts",
		essential: "the game's frame: title/score rows, board border rows, help row; closed with escape",
		async run(app) {
			await submit(app, "/snake");
			await app.waitFor(/[Ss]core/);
			const lines = await settle(app, 100, 1000);
			// Border rows and the rows with words (title, score, help); the board rows hold a random food position,
			// and the score counts food the snake happened to reach while the screen settled, so its digits are not compared.
			const frame = lines
				.filter((line) => /^ [╭├╰]/.test(line) || /^ │.*(Score|ESC)/.test(line))
				.map((line) => line.replace(/Score: \d+ │ High: \d+ */, "Score: # │ High: # "));
			await app.press("escape");
			await app.waitFor((rows) => !rows.some((row) => /[Ss]core/.test(row)));
			return frame;
		},
	},
	{
		name: "tic-tac-toe",
		extension: "tic-tac-toe.ts",
		essential:
			"the board after the user plays the centre and the agent's tool call plays a corner, with its status rows",
		options: {
			mock: [
				{
					kind: "reply",
					text: "",
					toolCalls: [{ id: "call_1", name: "tic_tac_toe", arguments: { action: "play" } }],
					usage: { input: 10, output: 5 },
				},
				reply("Your move"),
			],
		},
		async run(app) {
			await submit(app, "/tic-tac-toe");
			await app.waitFor("ENTER play");
			await settle(app);
			await app.press("enter");
			await turnDone(app, 2, "Your move");
			const board = boardRows(await settle(app));
			await app.press("escape");
			await app.waitFor((rows) => !rows.some((row) => row.includes("ENTER play")));
			return board;
		},
	},
	{
		name: "tools",
		extension: "tools.ts",
		essential: "the tool configuration list before and after disabling the first tool",
		async run(app) {
			await submit(app, "/tools");
			await app.waitFor("Tool Configuration");
			const before = componentRows(await settle(app), /Tool Configuration/, /^─{10,}|Esc|esc/);
			await app.press("enter");
			await Bun.sleep(150);
			const after = componentRows(await settle(app), /Tool Configuration/, /^─{10,}|Esc|esc/);
			await app.press("escape");
			await app.waitFor((rows) => !rows.some((row) => row.includes("Tool Configuration")));
			return [...before, ...after];
		},
	},
	{
		name: "todo",
		extension: "todo.ts",
		essential: "the todo tool's rendered call and result, then the /todos list component",
		options: {
			mock: [toolReply("todo", { action: "add", text: "Write the tests" }), reply("Added the todo")],
		},
		async run(app) {
			await submit(app, "remember to write tests");
			const after = await turnDone(app, 2, "Added the todo");
			const tool = rowsFrom(after, /^ todo /, /Added the todo/).filter((line) => line.trim() !== "");
			await submit(app, "/todos");
			await app.waitFor("─── Todos");
			const list = rowsFrom(await settle(app), /─── Todos/, /Press Escape to close/);
			await app.press("escape");
			return [...tool, ...list];
		},
	},
	{
		name: "preset",
		extension: "preset.ts",
		essential: "the preset selector, the activation notice, and the footer after switching",
		options: {
			homeFiles: {
				".pi/agent/presets.json": JSON.stringify({
					careful: { thinkingLevel: "high", tools: ["read", "grep"], instructions: "Be careful." },
					quick: { thinkingLevel: "off" },
				}),
			},
		},
		async run(app) {
			await submit(app, "/preset");
			await app.waitFor("careful");
			const selector = editorBox(await settle(app));
			await app.press("enter");
			const after = await app.waitFor(/Preset "careful" activated/);
			const settled = await settle(app);
			return [...selector, ...rowsMatching(after, /Preset "careful" activated/), ...belowEditor(settled)];
		},
	},
	{
		name: "plan-mode",
		extension: "plan-mode/index.ts",
		essential: "plan mode notice and status, the what-next dialog, the todo widget and progress status",
		options: {
			mock: [
				reply("Plan:\n1. Write the failing test\n2. Fix the parser bug\n"),
				// The plan's step list goes in as a follow-up (one turn), then the execute message (another).
				reply("Noted the plan."),
				reply("Wrote the failing test. [DONE:1]"),
			],
		},
		async run(app) {
			await submit(app, "/plan");
			const enabled = await app.waitFor("Plan mode enabled");
			await submit(app, "fix the parser");
			await app.waitFor("Plan mode - what next?", 15_000);
			const dialog = editorBox(await settle(app));
			await app.press("enter");
			const done = await turnDone(app, 3, "Wrote the failing test");
			return [
				...rowsMatching(enabled, /Plan mode enabled/),
				...rowsMatching(belowEditor(enabled), /plan/),
				...dialog,
				...aboveEditor(done, 2),
				...rowsMatching(belowEditor(done), /📋/),
			];
		},
	},
	{
		name: "built-in-tool-renderer",
		extension: "built-in-tool-renderer.ts",
		essential: "the overridden read and bash renderings of a call and its result",
		options: {
			files: { "notes.txt": "line one\nline two\n" },
			mock: [
				{
					kind: "reply",
					text: "",
					toolCalls: [
						{ id: "call_1", name: "read", arguments: { path: "notes.txt" } },
						{ id: "call_2", name: "bash", arguments: { command: "echo from-bash" } },
					],
					usage: { input: 10, output: 5 },
				},
				reply("Read and ran"),
			],
		},
		async run(app) {
			await submit(app, "look");
			const after = await turnDone(app, 2, "Read and ran");
			return normalise(rowsFrom(after, /^ look$/, /Read and ran/).filter((line) => line.trim() !== ""));
		},
	},
];

/** The tic-tac-toe component: title rule, whose turn, the grid, the key help. */
function boardRows(lines: string[]): string[] {
	return rowsFrom(lines, /─ Tic-Tac-Toe ─/, /ENTER play/).filter((line) => line.trim() !== "");
}
