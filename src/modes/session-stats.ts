/**
 * What RPC `get_session_stats` / `get_fork_messages` and the interactive `/session` / `/fork` show: the session's
 * message, tool and token counts with cost, and the user messages of the current branch one can fork from.
 */
import { getContextUsage } from "../compaction/index.ts";
import type { RuntimeHost } from "../runtime/index.ts";
import type { SessionEntry } from "../session/index.ts";
import type { RpcForkMessage, SessionStats } from "./rpc/types.ts";

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((b: { type?: string }) => b.type === "text")
		.map((b: { text?: string }) => b.text ?? "")
		.join("");
}

export function forkMessages(branch: SessionEntry[]): RpcForkMessage[] {
	const out: RpcForkMessage[] = [];
	for (const entry of branch) {
		if (entry.type === "message" && entry.message.role === "user") {
			out.push({ entryId: entry.id, text: textOf((entry.message as { content?: unknown }).content) });
		}
	}
	return out;
}

/** Counts over every entry of the file (all branches); usage and cost include summaries and `usage` entries. */
export function sessionStats(host: RuntimeHost): SessionStats {
	const manager = host.manager;
	const stats: SessionStats = {
		sessionFile: manager.getSessionFile(),
		sessionId: manager.getSessionId(),
		userMessages: 0,
		assistantMessages: 0,
		toolCalls: 0,
		toolResults: 0,
		totalMessages: 0,
		tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		cost: 0,
	};
	const addUsage = (usage: unknown) => {
		const u = usage as
			| { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; cost?: { total?: number } }
			| undefined;
		if (!u) return;
		stats.tokens.input += u.input ?? 0;
		stats.tokens.output += u.output ?? 0;
		stats.tokens.cacheRead += u.cacheRead ?? 0;
		stats.tokens.cacheWrite += u.cacheWrite ?? 0;
		stats.cost += u.cost?.total ?? 0;
	};
	for (const entry of manager.getEntries()) {
		const usage = (entry as { usage?: unknown }).usage;
		if (entry.type !== "message") {
			if (usage) addUsage(usage);
			continue;
		}
		const message = entry.message as { role: string; content?: unknown; usage?: unknown };
		stats.totalMessages++;
		if (message.role === "user") stats.userMessages++;
		else if (message.role === "toolResult") stats.toolResults++;
		else if (message.role === "assistant") {
			stats.assistantMessages++;
			if (Array.isArray(message.content)) {
				stats.toolCalls += message.content.filter((b: { type?: string }) => b.type === "toolCall").length;
			}
			addUsage(message.usage);
		}
	}
	const t = stats.tokens;
	t.total = t.input + t.output + t.cacheRead + t.cacheWrite;
	const session = host.session;
	const window = session?.agent.state.model.contextWindow;
	if (session && window) stats.contextUsage = getContextUsage(session.messages, window) as never;
	return stats;
}
