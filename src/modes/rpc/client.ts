/**
 * `RpcClient`: pi 0.87.1's public client API over `RpcClientCore` — one typed method per RPC command, resolving
 * with that command's response data (see client-core.ts for the process, timeout and failure contract).
 */
import type { ThinkingLevel } from "../../agent/index.ts";
import type { ImageContent } from "../../ai/index.ts";
import { RpcClientCore } from "./client-core.ts";
import type { JsonAgentSessionEvent, RpcQueueMode, RpcResponseData, RpcStreamingBehavior } from "./types.ts";

export class RpcClient extends RpcClientCore {
	// ---- commands ----------------------------------------------------------------------------------------------

	/** Sends a prompt; resolves once it is accepted (use `onEvent`/`waitForIdle` for the run itself). */
	async prompt(
		message: string,
		images?: ImageContent[],
		options: { streamingBehavior?: RpcStreamingBehavior } = {},
	): Promise<void> {
		await this.request({ type: "prompt", message, images, streamingBehavior: options.streamingBehavior });
	}

	/** Queues a steering message for the running agent. */
	async steer(message: string, images?: ImageContent[]): Promise<void> {
		await this.request({ type: "steer", message, images });
	}

	/** Queues a message for after the agent finishes. */
	async followUp(message: string, images?: ImageContent[]): Promise<void> {
		await this.request({ type: "follow_up", message, images });
	}

	/** Aborts the current operation; resolves when the session is idle. */
	async abort(): Promise<void> {
		await this.request({ type: "abort" });
	}

	/** Removes queued steering and follow-up messages and returns their text. */
	clearQueue(): Promise<RpcResponseData<"clear_queue">> {
		return this.data({ type: "clear_queue" });
	}

	/** Starts a fresh session (`cancelled` when an extension vetoed it). */
	newSession(parentSession?: string): Promise<RpcResponseData<"new_session">> {
		return this.data({ type: "new_session", parentSession });
	}

	getState(): Promise<RpcResponseData<"get_state">> {
		return this.data({ type: "get_state" });
	}

	setModel(provider: string, modelId: string): Promise<RpcResponseData<"set_model">> {
		return this.data({ type: "set_model", provider, modelId });
	}

	/** null when there is only one model. */
	cycleModel(): Promise<RpcResponseData<"cycle_model">> {
		return this.data({ type: "cycle_model" });
	}

	async getAvailableModels(): Promise<RpcResponseData<"get_available_models">["models"]> {
		return (await this.data({ type: "get_available_models" })).models;
	}

	async setThinkingLevel(level: ThinkingLevel): Promise<void> {
		await this.request({ type: "set_thinking_level", level });
	}

	/** null when the model has no thinking support. */
	cycleThinkingLevel(): Promise<RpcResponseData<"cycle_thinking_level">> {
		return this.data({ type: "cycle_thinking_level" });
	}

	async getAvailableThinkingLevels(): Promise<ThinkingLevel[]> {
		return (await this.data({ type: "get_available_thinking_levels" })).levels;
	}

	async setSteeringMode(mode: RpcQueueMode): Promise<void> {
		await this.request({ type: "set_steering_mode", mode });
	}

	async setFollowUpMode(mode: RpcQueueMode): Promise<void> {
		await this.request({ type: "set_follow_up_mode", mode });
	}

	compact(customInstructions?: string): Promise<RpcResponseData<"compact">> {
		return this.data({ type: "compact", customInstructions });
	}

	async setAutoCompaction(enabled: boolean): Promise<void> {
		await this.request({ type: "set_auto_compaction", enabled });
	}

	async setAutoRetry(enabled: boolean): Promise<void> {
		await this.request({ type: "set_auto_retry", enabled });
	}

	async abortRetry(): Promise<void> {
		await this.request({ type: "abort_retry" });
	}

	/** Runs a shell command whose output joins the next prompt's context (unless `excludeFromContext`). */
	bash(command: string, options: { excludeFromContext?: boolean } = {}): Promise<RpcResponseData<"bash">> {
		return this.data({ type: "bash", command, excludeFromContext: options.excludeFromContext });
	}

	async abortBash(): Promise<void> {
		await this.request({ type: "abort_bash" });
	}

	getSessionStats(): Promise<RpcResponseData<"get_session_stats">> {
		return this.data({ type: "get_session_stats" });
	}

	exportHtml(outputPath?: string): Promise<RpcResponseData<"export_html">> {
		return this.data({ type: "export_html", outputPath });
	}

	switchSession(sessionPath: string): Promise<RpcResponseData<"switch_session">> {
		return this.data({ type: "switch_session", sessionPath });
	}

	fork(entryId: string): Promise<RpcResponseData<"fork">> {
		return this.data({ type: "fork", entryId });
	}

	clone(): Promise<RpcResponseData<"clone">> {
		return this.data({ type: "clone" });
	}

	async getForkMessages(): Promise<RpcResponseData<"get_fork_messages">["messages"]> {
		return (await this.data({ type: "get_fork_messages" })).messages;
	}

	/** Entries in append order; with `since`, only those after that entry id. */
	getEntries(since?: string): Promise<RpcResponseData<"get_entries">> {
		return this.data({ type: "get_entries", since });
	}

	getTree(): Promise<RpcResponseData<"get_tree">> {
		return this.data({ type: "get_tree" });
	}

	async getLastAssistantText(): Promise<string | null> {
		return (await this.data({ type: "get_last_assistant_text" })).text ?? null;
	}

	async setSessionName(name: string): Promise<void> {
		await this.request({ type: "set_session_name", name });
	}

	async getMessages(): Promise<RpcResponseData<"get_messages">["messages"]> {
		return (await this.data({ type: "get_messages" })).messages;
	}

	async getCommands(): Promise<RpcResponseData<"get_commands">["commands"]> {
		return (await this.data({ type: "get_commands" })).commands;
	}

	/** Sends a prompt and resolves with its events through `agent_settled` (subscribed before sending). */
	async promptAndWait(message: string, images?: ImageContent[], timeout = 60_000): Promise<JsonAgentSessionEvent[]> {
		const cancel = new AbortController();
		const events = this.collectEvents(timeout, { signal: cancel.signal });
		try {
			await this.prompt(message, images);
		} catch (error) {
			cancel.abort();
			events.catch(() => {});
			throw error;
		}
		return events;
	}
}
