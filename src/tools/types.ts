/**
 * Built-in tool contract. Each tool is an `AgentTool` plus the prompt metadata the system prompt lists, and does
 * its I/O through an operations interface so an extension can redirect it (e.g. over ssh) — the defaults use the
 * local machine. Tools throw on failure (the agent turns that into an `isError` result); abort rejects with
 * "Operation aborted" ("Command aborted" for bash).
 */
import type { TSchema } from "@sinclair/typebox";
import type { AgentTool } from "../agent/index.ts";

export type BuiltinToolName = "read" | "bash" | "powershell" | "edit" | "write" | "grep" | "find" | "ls";

export interface BuiltinTool<TParameters extends TSchema = TSchema, TDetails = any>
	extends AgentTool<TParameters, TDetails> {
	/** One line under "Available tools" in the system prompt. */
	promptSnippet?: string;
	/** Bullet points added to the system prompt's guidelines while the tool is active. */
	promptGuidelines?: string[];
}

export interface TruncationResult {
	content: string;
	truncated: boolean;
	truncatedBy: "lines" | "bytes" | null;
	totalLines: number;
	totalBytes: number;
	outputLines: number;
	outputBytes: number;
	/** truncateTail only: the first kept line is the tail of a longer line. */
	lastLinePartial: boolean;
	/** truncateHead only: line 1 alone is over the byte limit, so nothing was kept. */
	firstLineExceedsLimit: boolean;
	maxLines: number;
	maxBytes: number;
}

export interface TruncationOptions {
	maxLines?: number;
	maxBytes?: number;
}
