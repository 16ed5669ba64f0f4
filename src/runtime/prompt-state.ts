/**
 * The session's prompt and tool loadout, kept in the transcript as pi 0.86+ does. The options the prompt is built
 * from come from the setup (`base`: tools, resources, flags); a run starts with a copy that `before_agent_start`
 * handlers may edit. Before each request the wanted sections are diffed against those the transcript declares and
 * the difference becomes a system message (the agent loop declares tool changes beside it), so replaying the
 * transcript always gives the prompt and tools of each request. A forced prompt (a handler's `systemPrompt`) is
 * not recorded: it is projected onto the run's requests only.
 */
import type { Agent, AgentMessage, AgentTool } from "../agent/index.ts";
import { getCurrentSystemMessage, type SystemMessage } from "../ai/index.ts";
import {
	buildSystemPrompt,
	buildSystemPromptSections,
	diffSystemPromptSections,
	type NormalizedSystemPromptOptions,
	normalizeSystemPromptOptions,
	type SystemPromptOptions,
} from "./system-prompt.ts";

export interface PromptSources {
	/** The options outside a run, built on each call from the current tools and resources. */
	base: () => SystemPromptOptions;
	/** Every tool the session can activate, for a handler that edits `selectedTools`. */
	registry: () => AgentTool<any>[];
}

export class PromptState {
	private sources: PromptSources | undefined;
	private run: NormalizedSystemPromptOptions | undefined;
	/** The options `before_agent_start` handlers are editing (what `ctx.getSystemPrompt()` renders meanwhile). */
	private pending: NormalizedSystemPromptOptions | undefined;
	private firstTurn = false;
	/** Undoes what a run with a forced prompt changed on the agent. */
	private restoreTransform: (() => void) | undefined;

	constructor(
		private readonly agent: Agent,
		private readonly cwd: string,
	) {}

	/**
	 * Makes the transcript carry the prompt: `agent.state.systemPrompt` is emptied and each turn declares what
	 * changed. Without this (an SDK session built from a plain `systemPrompt`) the agent's own prompt is used.
	 */
	enable(sources: PromptSources): void {
		this.sources = sources;
		this.agent.state.systemPrompt = "";
		this.agent.prepareSystemMessage = (messages) => this.update(messages);
	}

	get enabled(): boolean {
		return this.sources !== undefined;
	}

	/** The options outside a run (a fresh copy). */
	base(): NormalizedSystemPromptOptions {
		const options = this.sources?.base() ?? { cwd: this.cwd, selectedTools: this.activeNames() };
		return normalizeSystemPromptOptions(options);
	}

	/** The options in effect: the run's (as its handlers left them), those being prepared, or the base ones. */
	current(): NormalizedSystemPromptOptions {
		return this.run ?? this.pending ?? this.base();
	}

	/** A fresh copy of the base options for a prompt's `before_agent_start`; `current()` shows it until the run. */
	prepare(): NormalizedSystemPromptOptions {
		this.pending = this.base();
		return this.pending;
	}

	/** The prepared options were abandoned (the prompt was queued, handled or aborted). */
	unprepare(options: NormalizedSystemPromptOptions): void {
		if (this.pending === options) this.pending = undefined;
	}

	/** The prompt text requests of the current run use (a forced prompt included). */
	get text(): string {
		return this.enabled ? buildSystemPrompt(this.current()) : this.agent.state.systemPrompt;
	}

	/** The forced prompt of the current run, if a handler set one. */
	get forced(): string | undefined {
		return this.run?.forceSystemPrompt;
	}

	/**
	 * Starts a run with `options` (after `before_agent_start`). Unless a handler changed `selectedTools`, the live
	 * loadout wins (a `setActiveTools` call in a handler is not undone); the selection becomes the active tools.
	 * A forced prompt is projected onto the run's requests after every other context transformation.
	 */
	startRun(options: NormalizedSystemPromptOptions, toolsBefore: readonly string[]): void {
		this.pending = undefined;
		if (!this.sources) {
			// A session on a fixed prompt: a forced one stands in for it during the run.
			const forced = options.forceSystemPrompt;
			if (forced !== undefined) {
				const fixed = this.agent.state.systemPrompt;
				this.agent.state.systemPrompt = forced;
				this.restoreTransform = () => {
					this.agent.state.systemPrompt = fixed;
				};
			}
			return;
		}
		const edited =
			options.selectedTools.length !== toolsBefore.length ||
			options.selectedTools.some((name, index) => name !== toolsBefore[index]);
		if (!edited) options.selectedTools = this.activeNames();
		const registry = new Map(this.sources.registry().map((tool) => [tool.name, tool]));
		options.selectedTools = [...new Set(options.selectedTools)].filter((name) => registry.has(name));
		this.agent.state.tools = options.selectedTools.map((name) => registry.get(name) as AgentTool<any>);
		this.run = options;
		this.firstTurn = true;
		if (options.forceSystemPrompt !== undefined) {
			const transform = this.agent.transformContext;
			this.restoreTransform = () => {
				this.agent.transformContext = transform;
			};
			this.agent.transformContext = async (messages, signal) =>
				this.project(transform ? await transform(messages, signal) : messages);
		}
	}

	endRun(): void {
		this.restoreTransform?.();
		this.restoreTransform = undefined;
		this.run = undefined;
		this.firstTurn = false;
	}

	/** The loop's per-turn hook: the sections patch for the coming request, if any. */
	update(messages: AgentMessage[]): SystemMessage | undefined {
		let options: NormalizedSystemPromptOptions;
		if (this.run && this.firstTurn) options = this.run;
		else {
			const base = this.base();
			const run = this.run ?? base;
			options = normalizeSystemPromptOptions({
				...run,
				selectedTools: this.activeNames(),
				toolSnippets: { ...base.toolSnippets, ...run.toolSnippets },
				toolGuidelines: { ...base.toolGuidelines, ...run.toolGuidelines },
			});
			if (this.run) this.run = options;
		}
		this.firstTurn = false;
		const declared = getCurrentSystemMessage(messages as { role: string }[])?.sections ?? {};
		const sections = diffSystemPromptSections(declared, buildSystemPromptSections(options));
		return sections ? { role: "system", content: "", sections, timestamp: Date.now() } : undefined;
	}

	/**
	 * The request with a forced prompt in place of the declared one: the system messages collapse into one head
	 * holding the forced text and the current tools. Unchanged without a forced prompt.
	 */
	project(messages: AgentMessage[]): AgentMessage[] {
		const forced = this.forced;
		if (forced === undefined) return messages;
		const current = getCurrentSystemMessage(messages as { role: string }[]);
		const head: SystemMessage = {
			role: "system",
			content: forced,
			...(current?.toolsAdded ? { toolsAdded: current.toolsAdded } : {}),
			timestamp: current?.timestamp ?? Date.now(),
		};
		return [head, ...messages.filter((m) => (m as { role?: string }).role !== "system")];
	}

	/**
	 * Makes the active tools what the transcript declares at the end of `messages` (after moving in the session
	 * tree); declared tools that no longer exist are left out. Nothing changes when the transcript declares none.
	 */
	restoreTools(messages: readonly AgentMessage[]): void {
		const current = getCurrentSystemMessage(messages as readonly { role: string }[]);
		if (!current || !this.sources) return;
		const registry = new Map(this.sources.registry().map((tool) => [tool.name, tool]));
		this.agent.state.tools = (current.toolsAdded ?? []).flatMap((tool) => registry.get(tool.name) ?? []);
	}

	private activeNames(): string[] {
		return this.agent.state.tools.map((tool) => tool.name);
	}
}
