/**
 * Addresses of stored values and lists, the write records that change them, and the reserved `pi.*` addresses
 * lanes, operations, branches, labels and the session name live at.
 */
import type { AgentToolResult } from "../../types.ts";
import type {
	DurableStructuralPreparation,
	JsonValue,
	LaneConfiguration,
	LaneState,
	ListAppendWrite,
	ListDeleteWrite,
	ListReadOptions,
	OperationMeta,
	OperationResultRecord,
	OperationScope,
	OperationState,
	PendingEntry,
	ResolvedListReadOptions,
	Value,
	ValueDeleteWrite,
	ValueList,
	ValueSetWrite,
} from "./types.ts";

function checkAddress(namespace: string, key: string): void {
	if (namespace.length === 0) throw new TypeError("Value namespace must not be empty");
	if (namespace.includes("\u0000")) throw new TypeError("Value namespace must not contain \\u0000");
	if (key.includes("\u0000")) throw new TypeError("Value key must not contain \\u0000");
}

export function value<T>(namespace: string, key = ""): Value<T> {
	checkAddress(namespace, key);
	return Object.freeze({ namespace, key, kind: "value" as const });
}

export function list<T>(namespace: string, key = ""): ValueList<T> {
	checkAddress(namespace, key);
	return Object.freeze({ namespace, key, kind: "list" as const });
}

export function setValue<T>(address: Value<T>, next: NoInfer<T>): ValueSetWrite {
	return { kind: "value", op: "set", namespace: address.namespace, key: address.key, value: next };
}

export function deleteValue<T>(address: Value<T>): ValueDeleteWrite {
	return { kind: "value", op: "delete", namespace: address.namespace, key: address.key };
}

export function appendList<T>(address: ValueList<T>, element: NoInfer<T>): ListAppendWrite {
	return { kind: "list", op: "append", namespace: address.namespace, key: address.key, value: element };
}

export function deleteList<T>(address: ValueList<T>): ListDeleteWrite {
	return { kind: "list", op: "delete", namespace: address.namespace, key: address.key };
}

const DEFAULT_LIST_LIMIT = 1_000;
const MAX_LIST_LIMIT = 10_000;

/** List read options with defaults: ascending, 1000 elements (capped at 10000). */
export function resolveListReadOptions(options: ListReadOptions = {}): ResolvedListReadOptions {
	const limit = options.limit ?? DEFAULT_LIST_LIMIT;
	if (!Number.isSafeInteger(limit) || limit <= 0)
		throw new TypeError("List read limit must be a positive safe integer");
	return {
		...(options.cursor === undefined ? {} : { cursor: options.cursor }),
		order: options.order ?? "asc",
		limit: Math.min(limit, MAX_LIST_LIMIT),
	};
}

export const branchTip = (branch: string): Value<string | null> => value("pi.branch.tip", branch);
export const branchTipInventoryPrefix = (): Value<string | null> => value("pi.branch.tip");
export const laneConfig = (lane: string): Value<LaneConfiguration> => value("pi.lane.config", lane);
export const laneState = (lane: string): Value<LaneState> => value("pi.lane.state", lane);
export const operationResult = (operationId: string): Value<OperationResultRecord> => value("pi.result", operationId);
export const operationMeta = (operationId: string): Value<OperationMeta> => value("pi.op.meta", operationId);
export const operationState = (operationId: string): Value<OperationState> => value("pi.op.state", operationId);
export const operationToolArgs = (
	operationId: string,
	stepId: string,
	sourceIndex: number,
): Value<Record<string, JsonValue>> => value("pi.op.tool_args", `${operationId}:${stepId}:${sourceIndex}`);
export const operationToolMemo = (operationId: string, invocationId: string, name: string): Value<JsonValue> =>
	value("pi.op.tool_memo", `${operationId}:${invocationId}:${name}`);
export const operationPreparation = (operationId: string, taskId: string): Value<DurableStructuralPreparation> =>
	value("pi.op.preparation", `${operationId}:${taskId}`);
export const operationToolArgsPrefix = (operationId: string, stepId?: string): Value<Record<string, JsonValue>> =>
	value("pi.op.tool_args", stepId === undefined ? `${operationId}:` : `${operationId}:${stepId}:`);
export const operationToolMemoPrefix = (operationId: string, invocationId?: string): Value<JsonValue> =>
	value("pi.op.tool_memo", invocationId === undefined ? `${operationId}:` : `${operationId}:${invocationId}:`);
export const operationPreparationPrefix = (operationId: string): Value<DurableStructuralPreparation> =>
	value("pi.op.preparation", `${operationId}:`);
export const pendingEntry = (entryId: string): Value<PendingEntry> => value("pi.pending.entry", entryId);
export const pendingToolOutput = (operationId: string, invocationId: string): Value<AgentToolResult<unknown>> =>
	value("pi.pending.tool_output", `${operationId}:${invocationId}`);
export const pendingAssistantFrames = (operationId: string, responseEntryId: string): ValueList<unknown> =>
	list("pi.pending.assistant_frame", `${operationId}:${responseEntryId}`);
export const pendingToolOutputPrefix = (operationId: string): Value<AgentToolResult<unknown>> =>
	value("pi.pending.tool_output", `${operationId}:`);
export const sessionName: Value<string> = value("pi.session.name");
export const entryLabel = (entryId: string): Value<string> => value("pi.entry.label", entryId);

/** Only the scope every operation state shares (control, settings, latest assistant), for the next state. */
export function operationScopeOf(state: OperationState): OperationScope {
	return { control: state.control, settings: state.settings, latestAssistantEntryId: state.latestAssistantEntryId };
}
