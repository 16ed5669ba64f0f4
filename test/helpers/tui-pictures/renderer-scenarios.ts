/**
 * Picture scenarios that need no UI: tool call/result renderers and sub-agent results, drawn from sample data.
 * Erasable TypeScript only (Node strips the types).
 */
import { SUBAGENT_PARALLEL, SUBAGENT_SINGLE, SUBAGENT_SINGLE_ARGS, text } from "./samples.ts";
import type { PictureScenario } from "./scenarios.ts";

export const RENDERER_SCENARIOS: PictureScenario[] = [
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
