/** Extension events about tools, the model, thinking level, user input and user bash. */
import type { ThinkingLevel } from "../agent/index.ts";
import type { ImageContent, Model, TextContent, Usage } from "../ai/index.ts";
import type { BashOperations, BashResult } from "./types.ts";

export interface ToolExecutionStartEvent {
	type: "tool_execution_start";
	toolCallId: string;
	toolName: string;
	args: any;
}
export interface ToolExecutionUpdateEvent {
	type: "tool_execution_update";
	toolCallId: string;
	toolName: string;
	args: any;
	partialResult: any;
}
export interface ToolExecutionEndEvent {
	type: "tool_execution_end";
	toolCallId: string;
	toolName: string;
	result: any;
	isError: boolean;
}
export interface ModelSelectEvent {
	type: "model_select";
	model: Model;
	previousModel: Model | undefined;
	source: "set" | "cycle" | "restore";
}
export interface ThinkingLevelSelectEvent {
	type: "thinking_level_select";
	level: ThinkingLevel;
	previousLevel: ThinkingLevel;
}
export interface BuiltinToolInputs {
	bash: { command: string; timeout?: number };
	powershell: { command: string; timeout?: number };
	read: { path: string; offset?: number; limit?: number };
	edit: { path: string; edits: Array<{ oldText: string; newText: string }> };
	write: { path: string; content: string };
	grep: {
		pattern: string;
		path?: string;
		glob?: string;
		ignoreCase?: boolean;
		literal?: boolean;
		context?: number;
		limit?: number;
	};
	find: { pattern: string; path?: string; limit?: number };
	ls: { path?: string; limit?: number };
}
/** `input` is the live argument object: edit it in place to patch the call (no re-validation follows). */
export type ToolCallEvent =
	| {
			[N in keyof BuiltinToolInputs]: {
				type: "tool_call";
				toolCallId: string;
				toolName: N;
				input: BuiltinToolInputs[N];
			};
	  }[keyof BuiltinToolInputs]
	| { type: "tool_call"; toolCallId: string; toolName: string; input: Record<string, unknown> };
export interface ToolCallEventResult {
	block?: boolean;
	reason?: string;
	/** With `block`: stop after this tool batch if every result in it agrees. */
	terminate?: boolean;
}
export interface ToolResultEvent {
	type: "tool_result";
	toolCallId: string;
	toolName: string;
	input: Record<string, unknown>;
	content: (TextContent | ImageContent)[];
	details: unknown;
	isError: boolean;
	usage?: Usage;
}
export interface ToolResultEventResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
	usage?: Usage;
}
export interface UserBashEvent {
	type: "user_bash";
	command: string;
	/** True for `!!` (output kept out of the model's context). */
	excludeFromContext: boolean;
	cwd: string;
}
export type UserBashEventResult =
	| { operations: BashOperations; result?: never }
	| { operations?: never; result: BashResult };
/** `{}`: run locally. `result`: a handler took over. `error`: a handler failed, so the command must not run. */
export interface UserBashOutcome {
	result?: UserBashEventResult;
	error?: string;
	extensionPath?: string;
}
export interface InputEvent {
	type: "input";
	text: string;
	images?: ImageContent[];
	source: "interactive" | "rpc" | "extension";
	streamingBehavior?: "steer" | "followUp";
}
export type InputEventResult =
	| { action: "continue" }
	| { action: "transform"; text: string; images?: ImageContent[] }
	| { action: "handled" };
