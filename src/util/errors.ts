/**
 * Errors a user can cause. `UserError` carries a one-line message that `main` prints as is (no stack),
 * with the exit code it asks for. Anything else reaching `main` is a bug and is reported with its stack.
 */
export class UserError extends Error {
	override readonly name = "UserError";
	constructor(
		message: string,
		readonly exitCode = 1,
	) {
		super(message);
	}
}

/** The message of any thrown value, without a stack; never throws itself. */
export function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	if (typeof error === "string") return error;
	try {
		return JSON.stringify(error) ?? String(error);
	} catch {
		// Circular or exotic values: String() is the best one-line form left.
		return String(error);
	}
}

/** First line of a message, trimmed: diagnostics must stay one line. */
export function firstLine(text: string): string {
	const line = text.split("\n").find((l) => l.trim() !== "") ?? text;
	return line.trim();
}
