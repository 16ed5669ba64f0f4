/**
 * Transcript pictures: the same transcript components (user and assistant messages, tool calls with the built-in
 * renderers and extension renderers, `!command` output, custom messages, summaries) built from the same inputs and
 * rendered at each width. Runs under Node 22 against pi 0.87.1 (node-main.ts) and under Bun against ours
 * (test/e2e/interactive-components-parity.test.ts); it imports nothing, the side passes its classes in `lib`.
 */

// each side passes its own classes
type Any = any;

export interface TranscriptLib {
	UserMessageComponent: Any;
	AssistantMessageComponent: Any;
	ToolExecutionComponent: Any;
	BashExecutionComponent: Any;
	CustomMessageComponent: Any;
	CompactionSummaryMessageComponent: Any;
	BranchSummaryMessageComponent: Any;
	SkillInvocationMessageComponent: Any;
	Text: Any;
	Container: Any;
	/** The built-in tool definitions (with their renderers), by name. */
	tools: Record<string, unknown>;
}

/** case name → width → rendered lines. */
export type TranscriptPictures = Record<string, Record<string, string[]>>;

interface Component {
	render(width: number): string[];
}

const ui = { requestRender() {} };
const lines = (count: number, prefix: string) =>
	Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join("\n");
const text = (value: string) => ({ content: [{ type: "text", text: value }] });

const MARKDOWN = [
	"# Plan",
	"",
	"Here is **bold**, *italic* and `code`, with a [link](https://example.com).",
	"",
	"1. first step that is long enough to wrap at forty columns for sure",
	"2. second",
	"   - nested bullet",
	"",
	"```ts",
	"const answer: number = 42;",
	"console.log(answer);",
	"```",
	"",
	"> a quoted line",
].join("\n");

type CaseFn = (lib: TranscriptLib, cwd: string) => Component | Promise<Component>;

/** The files the edit-preview cases read, written into `cwd` by the test before both sides draw. */
export const PROJECT_FILES: Record<string, string> = {
	"src/app.ts": "import x from 'x';\nconst a = 1;\nconst b = 2;\nexport { a, b };\n",
};

/** An edit call whose arguments are complete: the diff preview is read from disk, then drawn. */
async function editPreview(lib: TranscriptLib, cwd: string, args: unknown): Promise<Component> {
	const component = new lib.ToolExecutionComponent("edit", "call-edit", args, {}, lib.tools.edit, ui, cwd);
	component.setArgsComplete();
	await new Promise((resolve) => setTimeout(resolve, 100));
	return component;
}

function tool(
	lib: TranscriptLib,
	cwd: string,
	name: string,
	args: unknown,
	result?: { content: unknown[]; details?: unknown; isError?: boolean },
	options: { expanded?: boolean; partial?: boolean; definition?: unknown } = {},
): Component {
	const definition = "definition" in options ? options.definition : lib.tools[name];
	const component = new lib.ToolExecutionComponent(name, `call-${name}`, args, {}, definition, ui, cwd);
	if (options.expanded) component.setExpanded(true);
	if (result) component.updateResult({ isError: false, ...result }, options.partial ?? false);
	return component;
}

function both(name: string, make: (expanded: boolean) => CaseFn): Record<string, CaseFn> {
	return { [`${name}-collapsed`]: make(false), [`${name}-expanded`]: make(true) };
}

const PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const grepOutput = lines(18, "src/file.ts:12: match");
const TS_FILE = "function greet(name: string) {\n\treturn 'hi ' + name;\n}\n";

export const CASES: Record<string, CaseFn> = {
	"user-markdown": (lib) => new lib.UserMessageComponent(MARKDOWN),
	"user-plain": (lib) => new lib.UserMessageComponent("fix the failing test in src/app.ts please\n3) keep numbering"),
	"assistant-markdown": (lib) => new lib.AssistantMessageComponent({ content: [{ type: "text", text: MARKDOWN }] }),
	"assistant-thinking": (lib) =>
		new lib.AssistantMessageComponent({
			content: [
				{ type: "thinking", thinking: "Let me think about **this** carefully." },
				{ type: "thinking", thinking: "Second thought." },
				{ type: "text", text: "Done thinking." },
			],
		}),
	"assistant-thinking-hidden": (lib) =>
		new lib.AssistantMessageComponent(
			{
				content: [
					{ type: "thinking", thinking: "secret" },
					{ type: "text", text: "Visible answer." },
				],
			},
			true,
		),
	"assistant-thinking-label": (lib) =>
		new lib.AssistantMessageComponent(
			{ content: [{ type: "thinking", thinking: "x" }] },
			true,
			undefined,
			"Pondering…",
		),
	"assistant-error": (lib) =>
		new lib.AssistantMessageComponent({
			content: [{ type: "text", text: "Partial answer" }],
			stopReason: "error",
			errorMessage: "429 rate limited",
		}),
	"assistant-aborted": (lib) =>
		new lib.AssistantMessageComponent({ content: [], stopReason: "aborted", errorMessage: "Request was aborted" }),
	"assistant-length": (lib) =>
		new lib.AssistantMessageComponent({ content: [{ type: "text", text: "Cut" }], stopReason: "length" }),
	"assistant-tool-call": (lib) =>
		new lib.AssistantMessageComponent({
			content: [
				{ type: "text", text: "Reading the file." },
				{ type: "toolCall", id: "1", name: "read", arguments: {} },
			],
			stopReason: "aborted",
		}),
	"assistant-streamed": (lib) => {
		const component = new lib.AssistantMessageComponent();
		component.updateContent({ content: [{ type: "text", text: "Hel" }] }, true);
		component.updateContent({ content: [{ type: "text", text: "Hello, **world**.\n\n- a\n- b" }] }, false);
		return component;
	},
	...both(
		"bash",
		(expanded) => (lib, cwd) =>
			tool(lib, cwd, "bash", { command: "npm test", timeout: 30 }, text(lines(12, "output line")), { expanded }),
	),
	"bash-pending": (lib, cwd) => tool(lib, cwd, "bash", { command: "sleep 1" }),
	"bash-partial": (lib, cwd) => tool(lib, cwd, "bash", { command: "make" }, text("building..."), { partial: true }),
	"bash-error": (lib, cwd) =>
		tool(lib, cwd, "bash", { command: "false" }, { ...text("oops\n\nCommand exited with code 1"), isError: true }),
	"bash-truncated": (lib, cwd) =>
		tool(
			lib,
			cwd,
			"bash",
			{ command: "cat big.log" },
			{
				...text(`${lines(3, "log")}\n\n[Showing lines 1998-2000 of 5000. Full output: /tmp/pi-bash-1.log]`),
				details: {
					truncation: { truncated: true, truncatedBy: "lines", outputLines: 2000, totalLines: 5000 },
					fullOutputPath: "/tmp/pi-bash-1.log",
				},
			},
		),
	"bash-long-line": (lib, cwd) => tool(lib, cwd, "bash", { command: "echo long" }, text("x".repeat(300))),
	...both(
		"read",
		(expanded) => (lib, cwd) => tool(lib, cwd, "read", { path: "notes.txt" }, text(lines(14, "note")), { expanded }),
	),
	"read-range-ts": (lib, cwd) =>
		tool(lib, cwd, "read", { path: "src/greet.ts", offset: 10, limit: 5 }, text(TS_FILE), { expanded: true }),
	"read-error": (lib, cwd) =>
		tool(lib, cwd, "read", { path: "missing.txt" }, { ...text("ENOENT: no such file"), isError: true }),
	"read-truncated": (lib, cwd) =>
		tool(
			lib,
			cwd,
			"read",
			{ path: "big.txt" },
			{
				...text(lines(3, "row")),
				details: {
					truncation: { truncated: true, truncatedBy: "lines", outputLines: 2000, totalLines: 9000, maxLines: 2000 },
				},
			},
			{ expanded: true },
		),
	...both(
		"read-skill",
		(expanded) => (lib, cwd) =>
			tool(lib, cwd, "read", { path: "/skills/deploy/SKILL.md" }, text("# Deploy\nsteps"), { expanded }),
	),
	"read-agents": (lib, cwd) => tool(lib, cwd, "read", { path: "AGENTS.md" }, text("rules")),
	"read-invalid": (lib, cwd) => tool(lib, cwd, "read", { path: 42 }),
	"edit-diff": (lib, cwd) =>
		tool(
			lib,
			cwd,
			"edit",
			{ path: "src/app.ts", oldText: "const a = 1;", newText: "const a = 2;" },
			{
				...text("Successfully replaced text in src/app.ts."),
				details: { diff: "  1 import x;\n- 2 const a = 1;\n+ 2 const a = 2;\n  3 export { a };", firstChangedLine: 2 },
			},
		),
	"edit-multi": (lib, cwd) =>
		tool(
			lib,
			cwd,
			"edit",
			{ path: "a.md", edits: [{ oldText: "a", newText: "b" }] },
			{
				...text("ok"),
				details: { diff: "-1 one\n-2 two\n+1 three\n   ...\n 9 nine", firstChangedLine: 1 },
			},
		),
	"edit-error": (lib, cwd) =>
		tool(
			lib,
			cwd,
			"edit",
			{ path: "a.md", oldText: "zzz", newText: "y" },
			{
				...text("Could not find the exact text in a.md."),
				isError: true,
			},
		),
	"edit-pending": (lib, cwd) => tool(lib, cwd, "edit", { path: "a.md" }),
	"edit-preview": (lib, cwd) =>
		editPreview(lib, cwd, { path: "src/app.ts", oldText: "const a = 1;", newText: "const a = 10;" }),
	"edit-preview-multi": (lib, cwd) =>
		editPreview(lib, cwd, {
			path: "src/app.ts",
			edits: [
				{ oldText: "import x from 'x';", newText: "import y from 'y';" },
				{ oldText: "const b = 2;\n", newText: "" },
			],
		}),
	"edit-preview-missing": (lib, cwd) => editPreview(lib, cwd, { path: "nope.ts", oldText: "a", newText: "b" }),
	"edit-preview-not-found": (lib, cwd) => editPreview(lib, cwd, { path: "src/app.ts", oldText: "zzz", newText: "b" }),
	"bash-streamed": (lib, cwd) => {
		const component = tool(lib, cwd, "bash", { command: "build" }, text("step 1"), { partial: true }) as Any;
		component.updateResult({ ...text("step 1\nstep 2"), isError: false }, true);
		component.updateResult({ ...text(lines(8, "step")), isError: false }, false);
		return component;
	},
	"write-streamed": (lib, cwd) => {
		const component = tool(lib, cwd, "write", { path: "src/x.ts" }) as Any;
		component.updateArgs({ path: "src/x.ts", content: "const a" });
		component.updateArgs({ path: "src/x.ts", content: "const a = 1;\nconst b = 2;\n" });
		component.setArgsComplete();
		component.updateResult({ ...text("ok"), isError: false });
		return component;
	},
	"read-toggled": (lib, cwd) => {
		const component = tool(lib, cwd, "read", { path: "notes.txt" }, text(lines(3, "note")), { expanded: true }) as Any;
		component.setExpanded(false);
		return component;
	},
	"tool-image": (lib, cwd) =>
		tool(
			lib,
			cwd,
			"read",
			{ path: "pixel.png" },
			{
				content: [
					{ type: "text", text: "Read image file [image/png]" },
					{ type: "image", data: PIXEL_PNG, mimeType: "image/png" },
				],
			},
			{ expanded: true },
		),
	"tool-image-hidden": (lib, cwd) => {
		const component = tool(
			lib,
			cwd,
			"shot",
			{},
			{
				content: [{ type: "image", data: PIXEL_PNG, mimeType: "image/png" }],
			},
			{ definition: undefined },
		) as Any;
		component.setShowImages(false);
		return component;
	},
	"assistant-thinking-toggled": (lib) => {
		const component = new lib.AssistantMessageComponent({
			content: [
				{ type: "thinking", thinking: "one" },
				{ type: "text", text: "answer" },
			],
		});
		component.setHideThinkingBlock(true);
		component.setHiddenThinkingLabel("Hidden");
		component.setOutputPad(2);
		return component;
	},
	"user-pad": (lib) => {
		const component = new lib.UserMessageComponent("padded");
		component.setOutputPad(3);
		return component;
	},
	"bash-timed": (lib, cwd) => {
		const component = tool(lib, cwd, "bash", { command: "true" }) as Any;
		component.markExecutionStarted();
		component.updateResult({ content: [{ type: "text", text: "" }], isError: false }, false);
		component.setExpanded(true);
		return component;
	},
	...both(
		"write",
		(expanded) => (lib, cwd) =>
			tool(lib, cwd, "write", { path: "out.txt", content: lines(15, "content") }, text("Wrote 15 lines"), { expanded }),
	),
	"write-ts": (lib, cwd) => tool(lib, cwd, "write", { path: "src/greet.ts", content: TS_FILE }, text("ok")),
	"write-error": (lib, cwd) =>
		tool(lib, cwd, "write", { path: "/srv/x", content: "hi" }, { ...text("EACCES: permission denied"), isError: true }),
	"write-invalid": (lib, cwd) => tool(lib, cwd, "write", { path: "x", content: 5 }),
	...both(
		"grep",
		(expanded) => (lib, cwd) =>
			tool(
				lib,
				cwd,
				"grep",
				{ pattern: "match", path: "src", glob: "*.ts", limit: 50 },
				{
					...text(grepOutput),
					details: { matchLimitReached: 50, linesTruncated: true },
				},
				{ expanded },
			),
	),
	"grep-empty": (lib, cwd) => tool(lib, cwd, "grep", { pattern: "nothing" }, text("No matches found")),
	...both(
		"find",
		(expanded) => (lib, cwd) =>
			tool(
				lib,
				cwd,
				"find",
				{ pattern: "*.ts", limit: 100 },
				{
					...text(lines(24, "src/module")),
					details: { resultLimitReached: 100, truncation: { truncated: true, maxBytes: 51200 } },
				},
				{ expanded },
			),
	),
	...both(
		"ls",
		(expanded) => (lib, cwd) =>
			tool(
				lib,
				cwd,
				"ls",
				{ limit: 500 },
				{ ...text(lines(22, "entry")), details: { entryLimitReached: 500 } },
				{ expanded },
			),
	),
	"ls-path": (lib, cwd) => tool(lib, cwd, "ls", { path: "src" }, text("a.ts\nb.ts")),
	"tool-generic": (lib, cwd) =>
		tool(lib, cwd, "deploy", { env: "prod", dryRun: true }, text("deployed\nversion 3"), { definition: undefined }),
	"tool-generic-error": (lib, cwd) =>
		tool(lib, cwd, "deploy", { env: "prod" }, { ...text("failed"), isError: true }, { definition: undefined }),
	...both(
		"tool-no-renderers",
		(expanded) => (lib, cwd) =>
			tool(lib, cwd, "fetch", { url: "x" }, text(lines(13, "body")), { expanded, definition: { name: "fetch" } }),
	),
	"tool-custom": (lib, cwd) =>
		tool(
			lib,
			cwd,
			"weather",
			{ city: "Oslo" },
			{ ...text("cold"), details: { temp: -3 } },
			{
				definition: {
					renderCall: (args: Any, theme: Any) =>
						new lib.Text(theme.fg("toolTitle", theme.bold(`weather ${args.city}`)), 0, 0),
					renderResult: (result: Any, options: Any, theme: Any) =>
						new lib.Text(theme.fg("success", `${result.details.temp}°C${options.expanded ? " (expanded)" : ""}`), 0, 0),
				},
			},
		),
	"tool-custom-throws": (lib, cwd) =>
		tool(lib, cwd, "weather", { city: "Oslo" }, text("cold\nwind"), {
			definition: {
				renderCall: () => {
					throw new Error("bad");
				},
				renderResult: () => {
					throw new Error("bad");
				},
			},
		}),
	"tool-self-shell": (lib, cwd) =>
		tool(lib, cwd, "status", {}, text("ok"), {
			definition: {
				renderShell: "self",
				renderCall: () => new lib.Text("── status ──", 0, 0),
				renderResult: () => new lib.Text("all good", 2, 0),
			},
		}),
	"bash-exec-done": (lib) => {
		const component = new lib.BashExecutionComponent("ls", ui);
		component.appendOutput("a.txt\nb.txt\n");
		component.setComplete(0, false);
		return component;
	},
	"bash-exec-error": (lib) => {
		const component = new lib.BashExecutionComponent("make", ui, true);
		component.appendOutput("\u001b[31mred error\u001b[0m\r\npart");
		component.appendOutput("ial line");
		component.setComplete(2, false);
		return component;
	},
	"bash-exec-cancelled": (lib) => {
		const component = new lib.BashExecutionComponent("sleep 100", ui);
		component.setComplete(undefined, true);
		return component;
	},
	...both("bash-exec-long", (expanded) => (lib) => {
		const component = new lib.BashExecutionComponent("seq 30", ui);
		component.appendOutput(lines(30, "n"));
		component.setComplete(0, false, { truncated: true }, "/tmp/out.log");
		if (expanded) component.setExpanded(true);
		return component;
	}),
	"custom-default": (lib) =>
		new lib.CustomMessageComponent({ customType: "reminder", content: "Remember **this**.", display: true }),
	"custom-blocks": (lib) =>
		new lib.CustomMessageComponent({
			customType: "note",
			content: [
				{ type: "text", text: "line one" },
				{ type: "image", data: "", mimeType: "image/png" },
				{ type: "text", text: "line two" },
			],
			display: true,
		}),
	...both("custom-renderer", (expanded) => (lib) => {
		const component = new lib.CustomMessageComponent(
			{ customType: "status", content: "x", display: true, details: { n: 3 } },
			(message: Any, options: Any, theme: Any) =>
				new lib.Text(theme.fg("accent", `status ${message.details.n}${options.expanded ? " — details" : ""}`), 1, 0),
		);
		component.setExpanded(expanded);
		return component;
	}),
	"custom-renderer-none": (lib) =>
		new lib.CustomMessageComponent({ customType: "quiet", content: "fallback", display: true }, () => undefined),
	...both("compaction", (expanded) => (lib) => {
		const component = new lib.CompactionSummaryMessageComponent({
			summary: "## Goal\nShip it.\n\n- did a\n- did b",
			tokensBefore: 123456,
		});
		component.setExpanded(expanded);
		return component;
	}),
	...both("branch", (expanded) => (lib) => {
		const component = new lib.BranchSummaryMessageComponent({ summary: "Tried approach A; it failed." });
		component.setExpanded(expanded);
		return component;
	}),
	...both("skill", (expanded) => (lib) => {
		const component = new lib.SkillInvocationMessageComponent({ name: "deploy", content: "1. build\n2. push" });
		component.setExpanded(expanded);
		return component;
	}),
};

export async function drawTranscriptPictures(
	lib: TranscriptLib,
	cwd: string,
	widths: readonly number[],
): Promise<TranscriptPictures> {
	const pictures: TranscriptPictures = {};
	for (const [name, make] of Object.entries(CASES)) {
		const picture: Record<string, string[]> = {};
		try {
			const component = await make(lib, cwd);
			for (const width of widths) picture[String(width)] = component.render(width);
		} catch (error) {
			picture.error = [String(error instanceof Error ? error.stack : error)];
		}
		pictures[name] = picture;
	}
	return pictures;
}
