import { describe, expect, test } from "bun:test";
import {
	isBashToolResult,
	isEditToolResult,
	isFindToolResult,
	isGrepToolResult,
	isLsToolResult,
	isReadToolResult,
	isToolCallEventType,
	isWriteToolResult,
	type ToolCallEvent,
	type ToolResultEvent,
} from "../../../src/sdk/pi-coding-agent.ts";

const call = (toolName: string, input: Record<string, unknown>): ToolCallEvent =>
	({ type: "tool_call", toolCallId: "c1", toolName, input }) as ToolCallEvent;
const result = (toolName: string): ToolResultEvent => ({
	type: "tool_result",
	toolCallId: "c1",
	toolName,
	input: {},
	content: [],
	details: undefined,
	isError: false,
});

describe("tool event guards (exported from pi-coding-agent)", () => {
	test("isToolCallEventType narrows by name: built-in inputs typed, custom tools with their own input type", () => {
		const event = call("bash", { command: "ls" });
		expect(isToolCallEventType("bash", event)).toBe(true);
		expect(isToolCallEventType("read", event)).toBe(false);
		if (isToolCallEventType("bash", event)) {
			const command: string = event.input.command;
			expect(command).toBe("ls");
		}
		const custom = call("todo", { action: "add" });
		if (isToolCallEventType<"todo", { action: string }>("todo", custom)) expect(custom.input.action).toBe("add");
		else throw new Error("custom tool not narrowed");
	});

	test("each is*ToolResult matches its own tool only", () => {
		const guards = {
			bash: isBashToolResult,
			read: isReadToolResult,
			edit: isEditToolResult,
			write: isWriteToolResult,
			grep: isGrepToolResult,
			find: isFindToolResult,
			ls: isLsToolResult,
		};
		for (const [name, guard] of Object.entries(guards)) {
			for (const other of Object.keys(guards)) expect(guard(result(other))).toBe(other === name);
			expect(guard(result("custom"))).toBe(false);
		}
	});
});
