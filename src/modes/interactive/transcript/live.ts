/**
 * The agent's events as they arrive: a user or custom message shows when it starts; an assistant message is one
 * component updated in place while it streams; each tool call gets its box as soon as its block appears in the
 * stream, with the arguments updated live, complete at the message's end, and the result when the tool finishes.
 * A reply that was aborted or failed puts its reason into every tool call still waiting.
 */
import type { AgentEvent } from "../../../agent/index.ts";
import type { AssistantMessage } from "../../../ai/index.ts";
import type { ToolExecutionComponent } from "../components/index.ts";
import { abortedToolText, addMessage } from "./history.ts";
import type { ChatState } from "./state.ts";

/** Handles an agent event; false when it is not one the chat shows. */
export function handleAgentEvent(state: ChatState, event: AgentEvent): boolean {
	switch (event.type) {
		case "agent_start":
			state.pendingTools.clear();
			return true;
		case "message_start":
			if (event.message.role === "custom" || event.message.role === "user") addMessage(state, event.message);
			else if (event.message.role === "assistant") {
				const component = state.factory.assistant();
				state.streaming = component;
				state.chat.addChild(component);
				component.updateContent(event.message, true);
			}
			return true;
		case "message_update":
			if (state.streaming && event.message.role === "assistant") {
				state.streaming.updateContent(event.message, true);
				showToolCalls(state, event.message);
			}
			return true;
		case "message_end":
			if (state.streaming && event.message.role === "assistant") endMessage(state, event.message);
			return true;
		case "tool_execution_start": {
			let component = state.pendingTools.get(event.toolCallId);
			if (!component) {
				component = state.factory.tool(event.toolName, event.toolCallId, event.args);
				state.chat.addChild(component);
				state.pendingTools.set(event.toolCallId, component);
			}
			component.markExecutionStarted();
			return true;
		}
		case "tool_execution_update":
			state.pendingTools.get(event.toolCallId)?.updateResult({ ...event.partialResult, isError: false }, true);
			return true;
		case "tool_execution_end": {
			const component = state.pendingTools.get(event.toolCallId);
			if (component) {
				component.updateResult({ ...event.result, isError: event.isError });
				state.pendingTools.delete(event.toolCallId);
			}
			return true;
		}
		case "agent_end":
			// A reply that never ended (the run stopped under it) is taken away.
			if (state.streaming) {
				state.chat.removeChild(state.streaming);
				state.streaming = undefined;
			}
			state.pendingTools.clear();
			return true;
		default:
			return false;
	}
}

function showToolCalls(state: ChatState, message: AssistantMessage): void {
	for (const block of message.content) {
		if (block.type !== "toolCall") continue;
		const existing = state.pendingTools.get(block.id);
		if (existing) {
			existing.updateArgs(block.arguments);
			continue;
		}
		const component = state.factory.tool(block.name, block.id, block.arguments);
		state.chat.addChild(component);
		state.pendingTools.set(block.id, component);
	}
}

function endMessage(state: ChatState, message: AssistantMessage): void {
	const streaming = state.streaming;
	if (!streaming) return;
	const failed = message.stopReason === "aborted" || message.stopReason === "error";
	// An abort is told as pi tells it (with the retry attempts), whatever the provider's wording.
	const shown =
		message.stopReason === "aborted" ? { ...message, errorMessage: abortedToolText(state, message) } : message;
	streaming.updateContent(shown, false);
	const waiting: ToolExecutionComponent[] = [...state.pendingTools.values()];
	if (failed) {
		const text = abortedToolText(state, message);
		for (const component of waiting) component.updateResult({ content: [{ type: "text", text }], isError: true });
		state.pendingTools.clear();
	} else for (const component of waiting) component.setArgsComplete();
	state.streaming = undefined;
}
