/** Describing thrown values: one-line text for messages, structured records for `AssistantMessage.diagnostics`. */
import type { AssistantMessageDiagnostic } from "./types.ts";

export type DiagnosticErrorInfo = NonNullable<AssistantMessageDiagnostic["error"]>;

/** An Error's message (its name when the message is empty), a string as is, anything else through `String`. */
export function formatThrownValue(value: unknown): string {
	if (value instanceof Error) return value.message || value.name;
	return typeof value === "string" ? value : String(value);
}

/** Name, message, stack and a string or numeric `code` of an Error; a non-Error becomes a "ThrownValue". */
export function extractDiagnosticError(error: unknown): DiagnosticErrorInfo {
	if (!(error instanceof Error)) return { name: "ThrownValue", message: formatThrownValue(error) };
	const code = (error as { code?: unknown }).code;
	return {
		name: error.name || undefined,
		message: error.message || error.name,
		stack: error.stack,
		code: typeof code === "string" || typeof code === "number" ? code : undefined,
	};
}

export function createAssistantMessageDiagnostic(
	type: string,
	error: unknown,
	details?: Record<string, unknown>,
): AssistantMessageDiagnostic {
	return { type, timestamp: Date.now(), error: extractDiagnosticError(error), details };
}

/** Adds `diagnostic` to the message's list (a new array, so earlier snapshots keep theirs). */
export function appendAssistantMessageDiagnostic<T extends { diagnostics?: AssistantMessageDiagnostic[] }>(
	message: T,
	diagnostic: AssistantMessageDiagnostic,
): void {
	message.diagnostics = [...(message.diagnostics ?? []), diagnostic];
}

/** The text of message content: a string as is, else its text blocks joined with `separator`. */
export function contentText(content: string | readonly { type: string; text?: string }[], separator = "\n"): string {
	if (typeof content === "string") return content;
	return content
		.filter((block) => block.type === "text")
		.map((block) => block.text ?? "")
		.join(separator);
}
