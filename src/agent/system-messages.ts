/**
 * Declaring the tool loadout in the transcript. What the agent can execute is `context.tools`; what the model is
 * told it may call is what the transcript's system messages declare. Before each request the difference becomes
 * `toolsAdded` / `toolsRemoved` on a system message among the messages about to be added: on the last pending
 * system message when there is one (its own tool fields are replaced, so replaying always gives exactly the
 * executable set), otherwise on a new one placed before the first pending message that is not a system message.
 */
import {
	getCurrentTools,
	getToolStateChanges,
	type SystemMessage,
	type ToolStateChanges,
	toToolDeclaration,
} from "../ai/index.ts";
import type { AgentContext, AgentMessage } from "./types.ts";

const NONE: ToolStateChanges = { toolsAdded: [], toolsRemoved: [] };

function withChanges(message: SystemMessage, changes: ToolStateChanges): SystemMessage {
	const { toolsAdded: _added, toolsRemoved: _removed, ...rest } = message;
	return {
		...rest,
		...(changes.toolsAdded.length > 0 ? { toolsAdded: changes.toolsAdded } : {}),
		...(changes.toolsRemoved.length > 0 ? { toolsRemoved: changes.toolsRemoved } : {}),
	};
}

function isSystem(message: AgentMessage): message is SystemMessage {
	return (message as { role?: string }).role === "system";
}

/** `pending` with the loadout change declared (the same array when nothing changes). */
export function declareToolChanges(context: AgentContext, pending: AgentMessage[]): AgentMessage[] {
	let at = -1;
	for (let i = pending.length - 1; i >= 0; i--) {
		if (isSystem(pending[i] as AgentMessage)) {
			at = i;
			break;
		}
	}
	const existing = at >= 0 ? (pending[at] as SystemMessage) : undefined;
	const baseline = existing ? pending.map((m, i) => (i === at ? withChanges(existing, NONE) : m)) : pending;
	const declared = getCurrentTools([...context.messages, ...baseline] as { role: string }[]);
	const changes = getToolStateChanges(declared, (context.tools ?? []).map(toToolDeclaration));
	const unchanged = changes.toolsAdded.length === 0 && changes.toolsRemoved.length === 0;
	if (existing) {
		if (unchanged && !existing.toolsAdded?.length && !existing.toolsRemoved?.length) return pending;
		return baseline.map((m, i) => (i === at ? withChanges(existing, changes) : m));
	}
	if (unchanged) return pending;
	const update = withChanges({ role: "system", content: "", timestamp: Date.now() }, changes);
	const first = pending.findIndex((m) => !isSystem(m));
	const index = first === -1 ? pending.length : first;
	return [...pending.slice(0, index), update, ...pending.slice(index)];
}
