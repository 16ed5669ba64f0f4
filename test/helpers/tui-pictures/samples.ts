/**
 * Sample inputs the picture scenarios hand to extensions: key sequences, tool arguments and results, and a
 * sub-agent run. Plain data; erasable TypeScript only (Node strips the types).
 */

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

export const text = (value: string) => ({ type: "text", text: value });

export const QUESTIONNAIRE = {
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

export const QUESTION = {
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

export const SUBAGENT_SINGLE_ARGS = { agent: "scout", task: "Find where the pictures are drawn and who calls it" };
const SUBAGENT_ANSWER = "## Found\n\n- `driver.ts` draws every scenario\n- `sides.ts` runs both sides\n\nAll **good**.";
export const SUBAGENT_SINGLE = {
	content: [text(SUBAGENT_ANSWER)],
	details: {
		mode: "single",
		agentScope: "user",
		projectAgentsDir: null,
		results: [subagentRun("scout", SUBAGENT_SINGLE_ARGS.task, SUBAGENT_ANSWER)],
	},
};
export const SUBAGENT_PARALLEL = {
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
