/**
 * Type guards extensions use to narrow tool events by tool name: `isToolCallEventType("bash", event)` types
 * `event.input` as the bash arguments; `isBashToolResult(event)` and its siblings do the same for `tool_result`.
 * They compare names only, so a tool that overrides a built-in (same name) is narrowed the same way.
 */
import type { BuiltinToolInputs, ToolCallEvent, ToolResultEvent } from "./events.ts";

type BuiltinName = keyof BuiltinToolInputs;
type BuiltinCall<N extends BuiltinName> = Extract<ToolCallEvent, { toolName: N }>;

export function isToolCallEventType<N extends BuiltinName>(toolName: N, event: ToolCallEvent): event is BuiltinCall<N>;
export function isToolCallEventType<TName extends string, TInput extends Record<string, unknown>>(
	toolName: TName,
	event: ToolCallEvent,
): event is ToolCallEvent & { toolName: TName; input: TInput };
export function isToolCallEventType(toolName: string, event: ToolCallEvent): boolean {
	return event.toolName === toolName;
}

/** A `tool_result` event of one built-in tool, its input typed. */
export type BuiltinToolResultEvent<N extends BuiltinName> = ToolResultEvent & {
	toolName: N;
	input: BuiltinToolInputs[N];
};

const resultOf =
	<N extends BuiltinName>(name: N) =>
	(event: ToolResultEvent): event is BuiltinToolResultEvent<N> =>
		event.toolName === name;

export const isBashToolResult = resultOf("bash");
export const isPowerShellToolResult = resultOf("powershell");
export const isReadToolResult = resultOf("read");
export const isEditToolResult = resultOf("edit");
export const isWriteToolResult = resultOf("write");
export const isGrepToolResult = resultOf("grep");
export const isFindToolResult = resultOf("find");
export const isLsToolResult = resultOf("ls");
