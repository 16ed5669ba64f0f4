/**
 * Results and typed errors of pi-agent-core's harness API: `ok`/`err` results for expected failures, tagged error
 * classes (`_tag` discriminant, JSON form `{ _tag, message, ...props }`) and the plain error classes its file,
 * shell and session seams return.
 */

/** Result of a fallible operation: expected failures are `ok: false` values, not throws. */
export type Result<TValue, TError> = { ok: true; value: TValue } | { ok: false; error: TError };

export function ok<TValue, TError = never>(value: TValue): Result<TValue, TError> {
	return { ok: true, value };
}

export function err<TValue = never, TError = unknown>(error: TError): Result<TValue, TError> {
	return { ok: false, error };
}

/** The success value, or the failure thrown. */
export function getOrThrow<TValue, TError>(result: Result<TValue, TError>): TValue {
	if (result.ok) return result.value;
	throw result.error;
}

/** The success value or `undefined` (object values only, so a falsy primitive cannot be mistaken for failure). */
export function getOrUndefined<TValue extends object, TError>(result: Result<TValue, TError>): TValue | undefined {
	return result.ok ? result.value : undefined;
}

/** The `Result` namespace object: constructors and guards. */
export const Result = {
	ok<TValue>(value: TValue): Result<TValue, never> {
		return { ok: true, value };
	},
	err<TError>(error: TError): Result<never, TError> {
		return { ok: false, error };
	},
	isOk<TValue, TError>(result: Result<TValue, TError>): result is { ok: true; value: TValue } {
		return result.ok;
	},
	isErr<TValue, TError>(result: Result<TValue, TError>): result is { ok: false; error: TError } {
		return !result.ok;
	},
};

/** Any thrown value as an `Error`: strings become the message, other values their JSON (or `String`) form. */
export function toError(error: unknown): Error {
	if (error instanceof Error) return error;
	if (typeof error === "string") return new Error(error);
	try {
		return new Error(JSON.stringify(error));
	} catch {
		return new Error(String(error));
	}
}

export interface TaggedErrorValue<Tag extends string> extends Error {
	readonly _tag: Tag;
	toJSON(): { _tag: Tag; message: string } & Record<string, unknown>;
}

export interface TaggedErrorFactory<Tag extends string> {
	new <Props extends { message: string }>(props: Props): TaggedErrorValue<Tag> & Readonly<Props>;
	is(value: unknown): value is TaggedErrorValue<Tag>;
}

/** A base class whose instances carry `_tag`, take their props as own fields and serialise with the tag first. */
export function TaggedError<Tag extends string>(tag: Tag): TaggedErrorFactory<Tag> {
	class Tagged extends Error {
		readonly _tag: Tag = tag;
		constructor(props: { message: string }) {
			super(props.message);
			this.name = tag;
			Object.assign(this, props);
		}
		toJSON(): { _tag: Tag; message: string } & Record<string, unknown> {
			const fields: Record<string, unknown> = {};
			for (const key of Object.keys(this)) if (key !== "_tag") fields[key] = (this as Record<string, unknown>)[key];
			return { _tag: tag, message: this.message, ...fields };
		}
		static is(value: unknown): value is TaggedErrorValue<Tag> {
			return value instanceof Tagged;
		}
	}
	return Tagged as unknown as TaggedErrorFactory<Tag>;
}

type OperationKind = "run" | "compaction" | "navigation";
export class LaneBusy extends TaggedError("LaneBusy")<{
	lane: string;
	operationId: string;
	operationKind: OperationKind;
	message: string;
}> {}
export class OperationMismatch extends TaggedError("OperationMismatch")<{
	lane: string;
	expectedOperationId: string;
	currentOperationId?: string;
	lastOperationId?: string;
	message: string;
}> {}
export class NoActiveRun extends TaggedError("NoActiveRun")<{ lane: string; message: string }> {}
export class NoActiveOperation extends TaggedError("NoActiveOperation")<{ lane: string; message: string }> {}
export class NothingToResume extends TaggedError("NothingToResume")<{ lane: string; message: string }> {}
export class NothingToCompact extends TaggedError("NothingToCompact")<{ lane: string; message: string }> {}
export class InvalidMessage extends TaggedError("InvalidMessage")<{ lane: string; reason: string; message: string }> {}
export class InvalidNavigation extends TaggedError("InvalidNavigation")<{
	lane: string;
	reason: string;
	message: string;
}> {}
export class UnknownSkill extends TaggedError("UnknownSkill")<{ name: string; message: string }> {}
export class UnknownTemplate extends TaggedError("UnknownTemplate")<{ name: string; message: string }> {}
export class UnknownTarget extends TaggedError("UnknownTarget")<{ targetId: string; message: string }> {}
export class InvalidLane extends TaggedError("InvalidLane")<{ lane: string; reason: string; message: string }> {}
export class Closed extends TaggedError("Closed")<{ message: string }> {}

/** An unexpected failure inside the harness, with what caused it. */
export class HarnessFault extends Error {
	override readonly cause: unknown;
	constructor(message: string, cause: unknown) {
		super(message);
		this.name = "HarnessFault";
		this.cause = cause;
	}
}

/** The harness was closed while an operation was still active. */
export class HarnessClosed extends Error {
	constructor() {
		super("AgentHarness was closed while the operation was active");
		this.name = "HarnessClosed";
	}
}

/** A part of the harness this build does not provide. */
export class SliceNotImplemented extends Error {
	constructor(operation: string) {
		super(`${operation} is not implemented until its later AgentHarness slice`);
		this.name = "SliceNotImplemented";
	}
}

export type ErrorMatchers<TError extends TaggedErrorValue<string>, TValue> = {
	[Tag in TError["_tag"]]: (error: Extract<TError, { _tag: Tag }>) => TValue;
};

/** Dispatch on a tagged error's `_tag`. */
export function matchError<TError extends TaggedErrorValue<string>, TValue>(
	error: TError,
	matchers: ErrorMatchers<TError, TValue>,
): TValue {
	const handler = (matchers as unknown as Record<string, (e: TError) => TValue>)[error._tag];
	if (!handler) throw new TypeError(`matchError: no handler for ${error._tag}`);
	return handler(error);
}

export type FileErrorCode =
	| "aborted"
	| "not_found"
	| "permission_denied"
	| "not_directory"
	| "is_directory"
	| "invalid"
	| "not_supported"
	| "unknown";

/** A failed file operation of an execution environment. */
export class FileError extends Error {
	code: FileErrorCode;
	path?: string;
	constructor(code: FileErrorCode, message: string, path?: string, cause?: Error) {
		super(message, cause === undefined ? undefined : { cause });
		this.name = "FileError";
		this.code = code;
		this.path = path;
	}
}

export type ExecutionErrorCode =
	| "aborted"
	| "timeout"
	| "shell_unavailable"
	| "spawn_error"
	| "callback_error"
	| "unknown";

/** A failed shell execution of an execution environment. */
export class ExecutionError extends Error {
	code: ExecutionErrorCode;
	constructor(code: ExecutionErrorCode, message: string, cause?: Error) {
		super(message, cause === undefined ? undefined : { cause });
		this.name = "ExecutionError";
		this.code = code;
	}
}
