/**
 * `reduceLaneSnapshot`: fold one harness event into a mutable snapshot of a lane (its transcript, tip, operation
 * in progress with streaming message, retry, deferral and running tools, queues, stats, configuration). Events
 * of other lanes are ignored (usage totals apply to all); a finished navigation answers "rebase", since the
 * transcript must then be read again.
 */
import type { AssistantMessage } from "../../../ai/index.ts";
import type { AgentMessage, AgentToolResult } from "../../types.ts";
import type {
	Entry,
	LaneConfiguration,
	OperationError,
	OperationResultRecord,
	SessionStats,
	TerminalStatus,
} from "../session/types.ts";

export type OperationStatus = "running" | "open" | "aborting";
export type LaneSnapshotTool =
	| { status: "running"; toolCallId: string; toolName: string; args: unknown; result?: AgentToolResult<unknown> }
	| {
			status: "settled";
			toolCallId: string;
			toolName: string;
			args: unknown;
			result: AgentToolResult<unknown>;
			isError: boolean;
	  };
export type LaneQueuedItem =
	| { entryId: string; kind: "steer" | "followUp" | "nextRun" | "write"; type: "message"; message: AgentMessage }
	| { entryId: string; kind: "write"; type: "custom"; customType: string; data?: unknown };

export interface LaneSnapshotOperation {
	id: string;
	kind: "run" | "compaction" | "navigation";
	startedAt: number;
	fromTipId: string | null;
	status: OperationStatus;
	retry?: { attempt: number; maxAttempts: number; nextAttemptAt: number };
	deferred?: { handle: unknown; poll: number };
	streamingMessage?: AssistantMessage;
	runningTools: LaneSnapshotTool[];
}

export interface LaneSnapshot {
	lane: string;
	transcript: Entry[];
	tipId: string | null;
	lastResult?: OperationResultRecord;
	configuration: LaneConfiguration;
	stats: SessionStats;
	operation: null | LaneSnapshotOperation;
	queues: LaneQueuedItem[];
	faulted: boolean;
}

/** A harness event as the reducer reads it: its `type` and the fields that type carries. */
export type LaneSnapshotEvent = { type: string; lane?: string } & Record<string, unknown>;
export type LaneSnapshotReduction = "rebase" | undefined;

function openOperation(
	snapshot: LaneSnapshot,
	id: string,
	kind: LaneSnapshotOperation["kind"],
	startedAt: number,
): void {
	snapshot.operation = { id, kind, startedAt, fromTipId: snapshot.tipId, status: "open", runningTools: [] };
}

function finishRecord(
	operation: LaneSnapshotOperation,
	e: Record<string, unknown>,
	fromTipId: string | null,
	tipId: string | null,
): OperationResultRecord {
	const status = e.status as TerminalStatus;
	return {
		operationId: operation.id,
		kind: operation.kind,
		status,
		...(status === "failed" ? { error: e.error as OperationError } : {}),
		fromTipId,
		tipId,
		startedAt: operation.startedAt,
		endedAt: e.endedAt as number,
	};
}

export function reduceLaneSnapshot(snapshot: LaneSnapshot, event: LaneSnapshotEvent): LaneSnapshotReduction {
	if ("lane" in event && event.lane !== undefined && event.lane !== snapshot.lane && event.type !== "usage") return;
	const e = event as Record<string, unknown> & { type: string };
	const op = (id: unknown) => (snapshot.operation?.id === id ? snapshot.operation : undefined);
	switch (e.type) {
		case "run_start":
			openOperation(snapshot, e.runId as string, "run", e.startedAt as number);
			return;
		case "compaction_start":
			if (snapshot.operation === null) openOperation(snapshot, e.runId as string, "compaction", e.startedAt as number);
			return;
		case "navigation_start":
			openOperation(snapshot, e.runId as string, "navigation", e.startedAt as number);
			return;
		case "operation_abort": {
			const operation = op(e.operationId);
			if (operation) operation.status = "aborting";
			return;
		}
		case "run_resume": {
			const operation = op(e.runId);
			if (operation) delete operation.deferred;
			return;
		}
		case "run_suspend": {
			const operation = op(e.runId);
			if (!operation) return;
			delete operation.streamingMessage;
			operation.deferred = { handle: e.deferred, poll: e.poll as number };
			return;
		}
		case "retry_scheduled": {
			const operation = op(e.runId);
			if (operation)
				operation.retry = {
					attempt: e.attempt as number,
					maxAttempts: e.maxAttempts as number,
					nextAttemptAt: e.notBefore as number,
				};
			return;
		}
		case "retry_start":
		case "retry_end": {
			const operation = op(e.runId);
			if (operation) delete operation.retry;
			return;
		}
		case "message_start":
		case "message_update": {
			const message = e.message as AssistantMessage;
			if (message.role !== "assistant") return;
			if (e.type === "message_start" && (e.runId === undefined || message.stopReason !== "pending")) return;
			const operation = op(e.runId);
			if (operation) operation.streamingMessage = message;
			return;
		}
		case "message_end": {
			if (e.runId === undefined) return;
			const operation = op(e.runId);
			if (operation) delete operation.streamingMessage;
			return;
		}
		case "tool_start": {
			const operation = op(e.runId);
			if (!operation) return;
			const tool: LaneSnapshotTool = {
				status: "running",
				toolCallId: e.toolCallId as string,
				toolName: e.toolName as string,
				args: e.args,
			};
			const at = operation.runningTools.findIndex((t) => t.toolCallId === tool.toolCallId);
			if (at === -1) operation.runningTools.push(tool);
			else operation.runningTools[at] = tool;
			return;
		}
		case "tool_update": {
			const tool = op(e.runId)?.runningTools.find((t) => t.toolCallId === e.toolCallId);
			if (tool?.status === "running") tool.result = e.partialResult as AgentToolResult<unknown>;
			return;
		}
		case "tool_end": {
			const operation = op(e.runId);
			if (!operation) return;
			const at = operation.runningTools.findIndex((t) => t.toolCallId === e.toolCallId);
			const current = operation.runningTools[at];
			if (!current) return;
			operation.runningTools[at] = {
				status: "settled",
				toolCallId: e.toolCallId as string,
				toolName: e.toolName as string,
				args: current.args,
				result: e.result as AgentToolResult<unknown>,
				isError: e.isError as boolean,
			};
			return;
		}
		case "entry_added": {
			const entry = e.entry as Entry;
			if (entry.type === "message" && (entry.message as { role: string }).role === "toolResult") {
				const callId = (entry.message as { toolCallId: string }).toolCallId;
				const tools = snapshot.operation?.runningTools;
				const at = tools?.findIndex((t) => t.toolCallId === callId) ?? -1;
				if (tools && at !== -1) tools.splice(at, 1);
			}
			if (entry.type === "compaction") snapshot.transcript.splice(0, snapshot.transcript.length, entry);
			else snapshot.transcript.push(entry);
			snapshot.tipId = entry.id;
			if (entry.type === "message") snapshot.stats.messageCount += 1;
			return;
		}
		case "queue_update":
			snapshot.queues = e.queues as LaneQueuedItem[];
			return;
		case "usage":
			snapshot.stats.usage = e.totals as SessionStats["usage"];
			return;
		case "config_update": {
			if (!("lane" in e) || e.lane !== snapshot.lane) return;
			const config = snapshot.configuration;
			if (e.property === "model") config.model = e.value as LaneConfiguration["model"];
			else if (e.property === "thinkingLevel") config.thinkingLevel = e.value as LaneConfiguration["thinkingLevel"];
			else if (e.property === "activeTools") config.activeToolNames = e.value as string[];
			return;
		}
		case "run_end": {
			const operation = op(e.runId);
			if (operation?.kind !== "run") return;
			snapshot.lastResult = finishRecord(operation, e, e.fromTipId as string | null, e.tipId as string | null);
			snapshot.operation = null;
			snapshot.tipId = e.tipId as string | null;
			return;
		}
		case "compaction_end": {
			const operation = op(e.runId);
			if (operation?.kind !== "compaction") return;
			snapshot.lastResult = finishRecord(operation, e, operation.fromTipId, snapshot.tipId);
			snapshot.operation = null;
			return;
		}
		case "navigation_end":
			return "rebase";
		case "fault":
			snapshot.faulted = true;
			return;
		default:
			return;
	}
}
