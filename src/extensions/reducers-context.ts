/**
 * The `context` reducers: `context` handlers see the conversation without system messages (a deep copy) and the
 * prompt and tools come back afterwards; `context_with_system` handlers own the whole transcript.
 */
import type { AgentMessage } from "../agent/index.ts";
import { getCurrentSystemMessage } from "../ai/index.ts";
import { describe, type Reducer, readable } from "./reducer-kit.ts";

const isSystem = (message: unknown) => (message as { role?: unknown }).role === "system";
const sameList = (a: readonly unknown[], b: readonly unknown[]) =>
	a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * After a `context` handler changed the conversation, the prompt and tools it did not see come back as one
 * leading system message replayed from the transcript, so pruning or slicing cannot drop them.
 */
function replayedHead(current: AgentMessage[], conversation: AgentMessage[]): AgentMessage[] {
	const head = getCurrentSystemMessage(current);
	return head ? [head, ...conversation] : conversation;
}

interface ContextState {
	messages: AgentMessage[];
	restore: (current: AgentMessage[], conversation: AgentMessage[]) => AgentMessage[];
	visible: AgentMessage[];
	snapshot: AgentMessage[];
}
export const context: Reducer<ContextState> = {
	start: (payload) => ({
		messages: structuredClone(payload.messages),
		restore: payload.restoreSystemMessages ?? replayedHead,
		visible: [],
		snapshot: [],
	}),
	idle: (payload) => payload.messages,
	event(s) {
		s.visible = s.messages.filter((message) => !isSystem(message));
		s.snapshot = s.visible.slice();
		return { type: "context", messages: s.visible };
	},
	apply(s, value, _path, report) {
		let returned: unknown = s.visible;
		if (value !== undefined && readable(value, "{ messages }", report) && value.messages !== undefined) {
			if (Array.isArray(value.messages)) returned = value.messages;
			else report(`ignored messages: expected an array, got ${describe(value.messages)}`);
		}
		const list = returned as AgentMessage[];
		if (!sameList(list, s.snapshot)) s.messages = s.restore(s.messages, list);
		return false;
	},
	finish: (s) => s.messages,
};

export const contextWithSystem: Reducer<{ messages: AgentMessage[]; hadSystemHead: boolean }> = {
	start: (payload) => ({ messages: structuredClone(payload.messages), hadSystemHead: false }),
	idle: (payload) => payload.messages,
	event(s) {
		s.hadSystemHead = s.messages.length > 0 && isSystem(s.messages[0]);
		return { type: "context_with_system", messages: s.messages };
	},
	apply(s, value, _path, report) {
		if (value !== undefined && readable(value, "{ messages }", report) && value.messages !== undefined) {
			if (Array.isArray(value.messages)) s.messages = value.messages;
			else report(`ignored messages: expected an array, got ${describe(value.messages)}`);
		}
		if (s.hadSystemHead && !(s.messages.length > 0 && isSystem(s.messages[0]))) {
			report("the handler removed the leading system message; the request now has no prompt or tool declarations");
		}
		return false;
	},
	finish: (s) => s.messages,
};
