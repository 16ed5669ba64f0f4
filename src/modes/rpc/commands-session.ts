/**
 * RPC commands about the session: replacement (new_session, switch_session, fork, clone), reading it
 * (get_messages, get_entries, get_tree, get_fork_messages, get_last_assistant_text, get_session_stats) and
 * naming it. `export_html` writes the session's page (see export-html.ts).
 */
import type { AgentMessage } from "../../agent/index.ts";
import type { AssistantMessage } from "../../ai/index.ts";
import { exportSessionHtml } from "../export-html.ts";
import { forkMessages, sessionStats } from "../session-stats.ts";
import type { RpcContext, RpcHandler } from "./context.ts";

export const sessionHandlers = {
	new_session: (c, ctx) => ctx.host.newSession(c.parentSession ? { parentSession: c.parentSession } : {}),
	switch_session: (c, ctx) => ctx.host.switchSession(c.sessionPath),
	fork: async (c, ctx) => {
		const result = await ctx.host.fork(c.entryId);
		return result.cancelled ? { cancelled: true } : { text: result.selectedText ?? "", cancelled: false };
	},
	clone: (_c, ctx) => ctx.host.clone(),
	get_messages: (_c, ctx) => ({ messages: messagesOf(ctx) }),
	get_entries: (c, ctx) => {
		const manager = ctx.host.manager;
		const entries = manager.getEntries();
		let from = 0;
		if (c.since !== undefined) {
			const index = entries.findIndex((e) => e.id === c.since);
			if (index < 0) throw new Error(`Entry not found: ${c.since}`);
			from = index + 1;
		}
		return { entries: entries.slice(from), leafId: manager.getLeafId() };
	},
	get_tree: (_c, ctx) => ({ tree: ctx.host.manager.getTree(), leafId: ctx.host.manager.getLeafId() }),
	get_fork_messages: (_c, ctx) => ({ messages: forkMessages(ctx.host.manager.getBranch()) }),
	// As pi: the newest assistant message (an aborted one without content does not count), its text blocks joined
	// and trimmed; without any text the answer has no `text` at all (`data: {}`).
	get_last_assistant_text: (_c, ctx) => {
		const messages = messagesOf(ctx);
		for (let i = messages.length - 1; i >= 0; i--) {
			const m = messages[i] as AssistantMessage;
			if (m.role !== "assistant" || (m.stopReason === "aborted" && m.content.length === 0)) continue;
			const text = m.content
				.filter((b) => b.type === "text")
				.map((b) => (b as { text: string }).text)
				.join("")
				.trim();
			return text === "" ? {} : { text };
		}
		return {};
	},
	set_session_name: async (c, ctx) => {
		const name = c.name.trim();
		if (name === "") throw new Error("Session name cannot be empty");
		ctx.host.manager.appendSessionInfo(name);
		// The event goes out before the response, so a client sees the new name once its request resolves.
		await ctx.host.session?.emitEvent({ type: "session_info_changed", name });
	},
	get_session_stats: (_c, ctx) => sessionStats(ctx.host),
	export_html: (c, ctx) => {
		const session = ctx.host.session;
		const path = exportSessionHtml(ctx.host.manager, {
			cwd: ctx.cwd,
			...(c.outputPath ? { outputPath: c.outputPath } : {}),
			...(session
				? {
						systemPrompt: session.systemPrompt,
						tools: session.agent.state.tools.map((t) => ({ name: t.name, description: t.description })),
					}
				: {}),
		});
		return { path };
	},
} satisfies {
	[K in
		| "new_session"
		| "switch_session"
		| "fork"
		| "clone"
		| "get_messages"
		| "get_entries"
		| "get_tree"
		| "get_fork_messages"
		| "get_last_assistant_text"
		| "set_session_name"
		| "get_session_stats"
		| "export_html"]: RpcHandler<K>;
};

function messagesOf(ctx: RpcContext): AgentMessage[] {
	return ctx.host.session?.messages ?? (ctx.host.manager.buildSessionContext().messages as AgentMessage[]);
}
