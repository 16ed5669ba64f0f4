/**
 * What each example extension of the pinned pi releases registers while its factory runs, written down by reading
 * its source (`.cache/conformance/<release>/package/examples/extensions/<example>`), not by asking our runtime.
 * `conformance-registrations.test.ts` loads every example in the binary and compares.
 *
 * Names are listed in source order; the test compares them as sets. `events` are the `pi.on(name)` names
 * (a name registered twice is listed once). `shortcuts` are key ids (`Key.ctrlAlt("p")` is `ctrl+alt+p`),
 * `providers` the names given to `pi.registerProvider`. Registrations made later (in an event handler or a
 * command) are not in the table; `note` says so where an example does that.
 *
 * `deps`: the example ships a package.json with dependencies; the test installs them with npm first.
 * `skip`: a documented reason the example cannot be checked (none today).
 */

export interface ExampleRegistrations {
	tools?: string[];
	commands?: string[];
	flags?: string[];
	events?: string[];
	shortcuts?: string[];
	providers?: string[];
	deps?: true;
	note?: string;
	skip?: string;
}

export type ReleaseTable = Record<string, ExampleRegistrations>;

/** Examples whose registrations are the same in every pinned release that ships them. */
const SAME = {
	"antigravity-image-gen.ts": { tools: ["generate_image"] },
	"auto-commit-on-exit.ts": { events: ["session_shutdown"] },
	// `...createBashTool(cwd, { spawnHook })`
	"bash-spawn-hook.ts": { tools: ["bash"] },
	"bookmark.ts": { commands: ["bookmark", "unbookmark"] },
	"built-in-tool-renderer.ts": { tools: ["read", "bash", "edit", "write"] },
	"claude-rules.ts": { events: ["session_start", "before_agent_start"] },
	"commands.ts": { commands: ["commands"] },
	"confirm-destructive.ts": { events: ["session_before_switch", "session_before_fork"] },
	"custom-compaction.ts": { events: ["session_before_compact"] },
	"custom-footer.ts": { commands: ["footer"] },
	"custom-header.ts": { commands: ["builtin-header"], events: ["session_start"] },
	"custom-provider-anthropic": { providers: ["custom-anthropic"], deps: true },
	"custom-provider-gitlab-duo": { providers: ["gitlab-duo"] },
	"custom-provider-qwen-cli": { providers: ["qwen-cli"] },
	"dirty-repo-guard.ts": { events: ["session_before_switch", "session_before_fork"] },
	"doom-overlay": { commands: ["doom-overlay"] },
	"dynamic-resources": { events: ["resources_discover"] },
	"dynamic-tools.ts": {
		commands: ["add-echo-tool"],
		events: ["session_start"],
		note: "echo_session is registered by its session_start handler, more tools by /add-echo-tool",
	},
	"entry-renderer.ts": { commands: ["status-card"] },
	// `pi.on("session_start")` twice
	"event-bus.ts": { commands: ["emit"], events: ["session_start"] },
	"file-trigger.ts": { events: ["session_start"] },
	"git-merge-and-resolve.ts": { events: ["agent_end"] },
	"github-issue-autocomplete.ts": { events: ["session_start"] },
	// `...createReadTool(cwd)` and the other six built-ins, each with a VM-backed execute
	gondolin: {
		tools: ["read", "write", "edit", "bash", "ls", "find", "grep"],
		commands: ["gondolin"],
		events: ["session_start", "session_shutdown", "user_bash", "before_agent_start"],
		deps: true,
	},
	"handoff.ts": { commands: ["handoff"] },
	// 0.58.4 inlines the definition, later releases use `defineTool`
	"hello.ts": { tools: ["hello"] },
	"hidden-thinking-label.ts": { commands: ["thinking-label"], events: ["session_start"] },
	"inline-bash.ts": { events: ["input"] },
	"input-transform-streaming.ts": { events: ["input"] },
	"input-transform.ts": { events: ["input"] },
	"interactive-shell.ts": { events: ["user_bash"] },
	"mac-system-theme.ts": { events: ["session_start", "session_shutdown"] },
	"message-renderer.ts": { commands: ["status"] },
	"minimal-mode.ts": { tools: ["read", "bash", "write", "edit", "find", "grep", "ls"] },
	"modal-editor.ts": { events: ["session_start"] },
	"model-status.ts": { events: ["model_select"] },
	"overlay-qa-tests.ts": {
		commands: [
			"overlay-animation",
			"overlay-anchors",
			"overlay-margins",
			"overlay-stack",
			"overlay-overflow",
			"overlay-edge",
			"overlay-percent",
			"overlay-maxheight",
			"overlay-sidepanel",
			"overlay-toggle",
			"overlay-passive",
			"overlay-focus",
			"overlay-streaming",
		],
	},
	"overlay-test.ts": { commands: ["overlay-test"] },
	"permission-gate.ts": { events: ["tool_call"] },
	"pirate.ts": { commands: ["pirate"], events: ["before_agent_start"] },
	"plan-mode": {
		commands: ["plan", "todos"],
		flags: ["plan"],
		events: ["tool_call", "context", "before_agent_start", "turn_end", "agent_end", "session_start"],
		shortcuts: ["ctrl+alt+p"],
	},
	"preset.ts": {
		commands: ["preset"],
		flags: ["preset"],
		events: ["before_agent_start", "session_start", "turn_start"],
		shortcuts: ["ctrl+shift+u"],
	},
	"project-trust.ts": { events: ["project_trust", "session_start"] },
	"prompt-customizer.ts": { events: ["before_agent_start"] },
	"protected-paths.ts": { events: ["tool_call"] },
	"qna.ts": { commands: ["qna"] },
	"question.ts": { tools: ["question"] },
	"questionnaire.ts": { tools: ["questionnaire"] },
	"rainbow-editor.ts": { events: ["session_start"] },
	"reload-runtime.ts": { tools: ["reload_runtime"], commands: ["reload-runtime"] },
	// `...createBashTool(cwd)` relabelled "bash (sandboxed)"
	sandbox: {
		tools: ["bash"],
		commands: ["sandbox"],
		flags: ["no-sandbox"],
		events: ["user_bash", "session_start", "session_shutdown"],
		deps: true,
	},
	"send-user-message.ts": { commands: ["ask", "steer", "followup", "askwith"] },
	"session-name.ts": { commands: ["session-name"] },
	"shutdown-command.ts": { tools: ["finish_and_exit", "deploy_and_exit"], commands: ["quit"] },
	"snake.ts": { commands: ["snake"] },
	"space-invaders.ts": { commands: ["invaders"] },
	// `...createReadTool/WriteTool/EditTool/BashTool(cwd)` with ssh-backed execute
	"ssh.ts": {
		tools: ["read", "write", "edit", "bash"],
		flags: ["ssh"],
		events: ["session_start", "user_bash", "before_agent_start"],
	},
	"structured-output.ts": { tools: ["structured_output"] },
	// `-e subagent` loads only its prompts/ (pi's package rules); the test loads subagent/index.ts itself
	subagent: { tools: ["subagent"] },
	"summarize.ts": { commands: ["summarize"] },
	"system-prompt-header.ts": { events: ["agent_start", "session_shutdown"] },
	"tic-tac-toe.ts": {
		tools: ["tic_tac_toe", "tic_tac_toe_see_board"],
		commands: ["tic-tac-toe"],
		events: ["session_start", "session_tree", "before_agent_start"],
	},
	"timed-confirm.ts": { commands: ["timed", "timed-select", "timed-signal"] },
	"tool-override.ts": { tools: ["read"], commands: ["read-log"] },
	"trigger-compact.ts": { commands: ["trigger-compact"], events: ["turn_end"] },
	"truncated-tool.ts": { tools: ["rg"] },
	"with-deps": { tools: ["parse_duration"], deps: true },
	"working-indicator.ts": { commands: ["working-indicator"], events: ["session_start"] },
	"working-message-test.ts": { events: ["session_start"] },
} satisfies ReleaseTable;

type SameName = keyof typeof SAME;

function release(names: SameName[], own: ReleaseTable): ReleaseTable {
	const table: ReleaseTable = {};
	for (const name of names) table[name] = SAME[name];
	return { ...table, ...own };
}

/** In every release. */
const EVERYWHERE: SameName[] = [
	"auto-commit-on-exit.ts",
	"bash-spawn-hook.ts",
	"bookmark.ts",
	"built-in-tool-renderer.ts",
	"claude-rules.ts",
	"commands.ts",
	"confirm-destructive.ts",
	"custom-compaction.ts",
	"custom-footer.ts",
	"custom-header.ts",
	"custom-provider-anthropic",
	"custom-provider-gitlab-duo",
	"dirty-repo-guard.ts",
	"doom-overlay",
	"dynamic-resources",
	"dynamic-tools.ts",
	"event-bus.ts",
	"file-trigger.ts",
	"handoff.ts",
	"hello.ts",
	"inline-bash.ts",
	"input-transform.ts",
	"interactive-shell.ts",
	"mac-system-theme.ts",
	"message-renderer.ts",
	"minimal-mode.ts",
	"modal-editor.ts",
	"model-status.ts",
	"overlay-qa-tests.ts",
	"overlay-test.ts",
	"permission-gate.ts",
	"pirate.ts",
	"plan-mode",
	"preset.ts",
	"protected-paths.ts",
	"qna.ts",
	"question.ts",
	"questionnaire.ts",
	"rainbow-editor.ts",
	"reload-runtime.ts",
	"sandbox",
	"send-user-message.ts",
	"session-name.ts",
	"shutdown-command.ts",
	"snake.ts",
	"space-invaders.ts",
	"ssh.ts",
	"subagent",
	"summarize.ts",
	"system-prompt-header.ts",
	"timed-confirm.ts",
	"tool-override.ts",
	"trigger-compact.ts",
	"truncated-tool.ts",
	"with-deps",
];

/** New in 0.73 (still in 0.87). */
const SINCE_0_73: SameName[] = [
	"github-issue-autocomplete.ts",
	"hidden-thinking-label.ts",
	"prompt-customizer.ts",
	"structured-output.ts",
	"tic-tac-toe.ts",
	"working-indicator.ts",
	"working-message-test.ts",
];

/** Examples whose registrations changed between releases: pi 0.58 still had session_switch/session_fork. */
const BEFORE_0_87: ReleaseTable = {
	"git-checkpoint.ts": { events: ["tool_result", "turn_start", "session_before_fork", "agent_end"] },
	"notify.ts": { events: ["agent_end"] },
	"titlebar-spinner.ts": { events: ["agent_start", "agent_end", "session_shutdown"] },
};

const TODO_TOOL = { tools: ["todo"], commands: ["todos"] };
const RPC_DEMO_COMMANDS = ["rpc-input", "rpc-editor", "rpc-prefill"];

export const REGISTRATION_TABLE: Record<string, ReleaseTable> = {
	"@earendil-works/pi-coding-agent@0.87.1": release(
		[
			...EVERYWHERE,
			...SINCE_0_73,
			"entry-renderer.ts",
			"git-merge-and-resolve.ts",
			"gondolin",
			"input-transform-streaming.ts",
			"project-trust.ts",
		],
		{
			// in 0.87 these listen to agent_settled where 0.73 and 0.58 used agent_end
			"border-status-editor.ts": { events: ["agent_start", "agent_settled", "session_shutdown", "session_start"] },
			"git-checkpoint.ts": { events: ["tool_result", "turn_start", "session_before_fork", "agent_settled"] },
			"notify.ts": { events: ["agent_settled"] },
			"titlebar-spinner.ts": { events: ["agent_start", "agent_settled", "session_shutdown"] },
			"provider-payload.ts": { events: ["before_provider_request", "after_provider_response"] },
			"rpc-demo.ts": {
				commands: RPC_DEMO_COMMANDS,
				events: ["session_start", "turn_start", "turn_end", "tool_call", "session_before_switch"],
			},
			"status-line.ts": { events: ["session_start", "turn_start", "turn_end"] },
			"todo.ts": { ...TODO_TOOL, events: ["session_start", "session_tree"] },
			"tools.ts": { commands: ["tools"], events: ["session_start", "session_tree"] },
			"widget-placement.ts": { events: ["session_start"] },
		},
	),
	"@mariozechner/pi-coding-agent@0.73.1": release([...EVERYWHERE, ...SINCE_0_73], {
		...BEFORE_0_87,
		"border-status-editor.ts": { events: ["agent_start", "agent_end", "session_shutdown", "session_start"] },
		"provider-payload.ts": { events: ["before_provider_request", "after_provider_response"] },
		"rpc-demo.ts": {
			commands: RPC_DEMO_COMMANDS,
			events: ["session_start", "turn_start", "turn_end", "tool_call", "session_before_switch"],
		},
		"status-line.ts": { events: ["session_start", "turn_start", "turn_end"] },
		"todo.ts": { ...TODO_TOOL, events: ["session_start", "session_tree"] },
		"tools.ts": { commands: ["tools"], events: ["session_start", "session_tree"] },
		"widget-placement.ts": { events: ["session_start"] },
	}),
	"@mariozechner/pi-coding-agent@0.58.4": release(
		[...EVERYWHERE, "antigravity-image-gen.ts", "custom-provider-qwen-cli"],
		{
			...BEFORE_0_87,
			"provider-payload.ts": { events: ["before_provider_request"] },
			"rpc-demo.ts": {
				commands: RPC_DEMO_COMMANDS,
				events: ["session_start", "session_switch", "turn_start", "turn_end", "tool_call", "session_before_switch"],
			},
			"status-line.ts": { events: ["session_start", "turn_start", "turn_end", "session_switch"] },
			"todo.ts": { ...TODO_TOOL, events: ["session_start", "session_switch", "session_fork", "session_tree"] },
			"tools.ts": { commands: ["tools"], events: ["session_start", "session_tree", "session_fork"] },
			"widget-placement.ts": { events: ["session_start", "session_switch"] },
		},
	),
};
