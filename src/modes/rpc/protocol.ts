/**
 * Reading one stdin line of the RPC protocol: JSON parsing, command validation, and the exact failure responses
 * pi 0.87.1 gives (docs/rpc.md "Errors"; observed behaviour in pi-surface.md §4.3):
 *
 * - not JSON: `{type:"response", command:"parse", success:false, error:"Failed to parse command: <msg>"}`, no id,
 *   `<msg>` worded as Node's `JSON.parse` words it (see json-error.ts).
 * - unknown or missing `type`: `{id, type:"response", command:<type>, success:false,
 *   error:"Unknown command: <type>"}` (pi 0.87.1 echoes the id; `command` is absent when `type` is).
 * - `{"type":"extension_ui_response", ...}` is not a command: it is returned as is, for the dialog it answers.
 *
 * pi itself does not validate fields; a command with a missing or mistyped required field fails inside its
 * handler with a handler-specific message. We validate up front instead (TypeBox, one schema per command) and
 * answer `Invalid <type> command: ...` with the id echoed — the same envelope, a clearer text. Optional fields
 * that are `null` count as absent and are removed. `id` is echoed whatever its JSON type, as pi does.
 */
import type { TObject, TSchema } from "@sinclair/typebox";
import { typebox, v8JsonParseErrorMessage } from "../../util/index.ts";
import {
	RPC_COMMAND_TYPES,
	type RpcCommandType,
	type RpcErrorResponse,
	type RpcInbound,
	type RpcResponseData,
	type RpcSuccessResponse,
} from "./types.ts";

/**
 * What a command field must hold: a string, a boolean, an array of images, or one of a few strings. Kept as plain
 * data so reading a command needs no schema library; `rpcCommandSchemas()` builds the same rules as TypeBox
 * schemas for those who want them (a test checks both agree).
 */
type FieldKind = "string" | "boolean" | "images" | readonly string[];

/** A field of a command: what it must hold and how to name that in an error. */
interface FieldSpec {
	kind: FieldKind;
	expected: string;
}

interface CommandSpec {
	required?: Record<string, FieldSpec>;
	optional?: Record<string, FieldSpec>;
}

function oneOf(...values: string[]): FieldSpec {
	return { kind: values, expected: `one of ${values.map((value) => JSON.stringify(value)).join(", ")}` };
}

const STRING: FieldSpec = { kind: "string", expected: "a string" };
const BOOLEAN: FieldSpec = { kind: "boolean", expected: "a boolean" };
const IMAGES: FieldSpec = {
	kind: "images",
	expected: 'an array of images ({"type":"image","data":<base64>,"mimeType":<string>})',
};
const QUEUE_MODE = oneOf("all", "one-at-a-time");
const MESSAGE = { required: { message: STRING }, optional: { images: IMAGES } };

/** The fields of every command besides `type` and `id`. */
const COMMAND_SPECS: Record<RpcCommandType, CommandSpec> = {
	prompt: {
		required: MESSAGE.required,
		optional: { ...MESSAGE.optional, streamingBehavior: oneOf("steer", "followUp") },
	},
	steer: MESSAGE,
	follow_up: MESSAGE,
	abort: {},
	clear_queue: {},
	new_session: { optional: { parentSession: STRING } },
	get_state: {},
	set_model: { required: { provider: STRING, modelId: STRING } },
	cycle_model: {},
	get_available_models: {},
	set_thinking_level: { required: { level: oneOf("off", "minimal", "low", "medium", "high", "xhigh", "max") } },
	cycle_thinking_level: {},
	get_available_thinking_levels: {},
	set_steering_mode: { required: { mode: QUEUE_MODE } },
	set_follow_up_mode: { required: { mode: QUEUE_MODE } },
	compact: { optional: { customInstructions: STRING } },
	set_auto_compaction: { required: { enabled: BOOLEAN } },
	set_auto_retry: { required: { enabled: BOOLEAN } },
	abort_retry: {},
	bash: { required: { command: STRING }, optional: { excludeFromContext: BOOLEAN } },
	abort_bash: {},
	get_session_stats: {},
	export_html: { optional: { outputPath: STRING } },
	switch_session: { required: { sessionPath: STRING } },
	fork: { required: { entryId: STRING } },
	clone: {},
	get_fork_messages: {},
	get_entries: { optional: { since: STRING } },
	get_tree: {},
	get_last_assistant_text: {},
	set_session_name: { required: { name: STRING } },
	get_messages: {},
	get_commands: {},
};

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldMatches(kind: FieldKind, value: unknown): boolean {
	if (kind === "string") return typeof value === "string";
	if (kind === "boolean") return typeof value === "boolean";
	if (kind === "images") {
		return (
			Array.isArray(value) &&
			value.every(
				(item) =>
					isRecord(item) && item.type === "image" && typeof item.data === "string" && typeof item.mimeType === "string",
			)
		);
	}
	return typeof value === "string" && kind.includes(value);
}

/** The first field of `record` that does not fit `spec` (required fields first, in declaration order). */
function invalidField(record: Record<string, unknown>, spec: CommandSpec): string | undefined {
	for (const [name, field] of Object.entries(spec.required ?? {})) {
		const value = record[name];
		if (value === undefined) return `missing "${name}" (${field.expected})`;
		if (!fieldMatches(field.kind, value)) return `"${name}" must be ${field.expected}`;
	}
	for (const [name, field] of Object.entries(spec.optional ?? {})) {
		const value = record[name];
		if (value != null && !fieldMatches(field.kind, value)) return `"${name}" must be ${field.expected}`;
	}
	return undefined;
}

function fieldSchema(kind: FieldKind): TSchema {
	const { Type } = typebox();
	if (kind === "string") return Type.String();
	if (kind === "boolean") return Type.Boolean();
	if (kind === "images") {
		return Type.Array(Type.Object({ type: Type.Literal("image"), data: Type.String(), mimeType: Type.String() }));
	}
	return Type.Union(kind.map((value) => Type.Literal(value)));
}

function commandSchema(type: RpcCommandType, spec: CommandSpec): TObject {
	const { Type } = typebox();
	const properties: Record<string, TSchema> = { type: Type.Literal(type), id: Type.Optional(Type.Unknown()) };
	for (const [name, field] of Object.entries(spec.required ?? {})) properties[name] = fieldSchema(field.kind);
	for (const [name, field] of Object.entries(spec.optional ?? {})) {
		properties[name] = Type.Optional(Type.Union([fieldSchema(field.kind), Type.Null()]));
	}
	return Type.Object(properties);
}

let schemas: Record<RpcCommandType, TObject> | undefined;

/**
 * One TypeBox schema per command type: the shape `parseCommandLine` accepts (extra fields allowed, `id` of any
 * JSON type, optional fields may be null). Built on first use; reading commands does not need them.
 */
export function rpcCommandSchemas(): Record<RpcCommandType, TObject> {
	schemas ??= Object.fromEntries(
		RPC_COMMAND_TYPES.map((type) => [type, commandSchema(type, COMMAND_SPECS[type])]),
	) as Record<RpcCommandType, TObject>;
	return schemas;
}

/** The result of reading one stdin line. On failure, `response` is the exact line to send back. */
export type ParsedCommandLine =
	| { ok: true; command: RpcInbound }
	| { ok: false; error: string; id?: string; command?: string; response: RpcErrorResponse };

function failure(id: unknown, command: unknown, error: string): ParsedCommandLine & { ok: false } {
	const response = errorResponse(id as string | undefined, command as string, error);
	return { ok: false, error, id: id as string | undefined, command: command as string | undefined, response };
}

/**
 * Parses and validates one stdin line (already without its LF). Never throws.
 * `ok: true` gives a valid `RpcCommand`, or an `RpcExtensionUIResponse` (check `command.type`).
 */
export function parseCommandLine(line: string): ParsedCommandLine {
	let parsed: unknown;
	try {
		parsed = JSON.parse(line);
	} catch (error) {
		const message = v8JsonParseErrorMessage(line) ?? (error instanceof Error ? error.message : String(error));
		return failure(undefined, "parse", `Failed to parse command: ${message}`);
	}
	// pi reads `id` and `type` off whatever the line held; for a non-object both are undefined.
	const record = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
	const { id, type } = record;
	if (type === "extension_ui_response") return { ok: true, command: record as unknown as RpcInbound };
	const spec =
		typeof type === "string" && Object.hasOwn(COMMAND_SPECS, type) ? COMMAND_SPECS[type as RpcCommandType] : undefined;
	if (!spec) return failure(id, type, `Unknown command: ${String(type)}`);
	const problem = invalidField(record, spec);
	if (problem) return failure(id, type, `Invalid ${type} command: ${problem}`);
	for (const name of Object.keys(spec.optional ?? {})) {
		if (record[name] === null) delete record[name];
	}
	return { ok: true, command: record as unknown as RpcInbound };
}

/** A success response in pi's key order (`id, type, command, success, data`); `data` omitted when undefined. */
export function successResponse<T extends RpcCommandType>(
	id: string | undefined,
	command: T,
	data?: RpcResponseData<T>,
): RpcSuccessResponse<T> {
	const response: Record<string, unknown> = { id, type: "response", command, success: true };
	if (data !== undefined) response.data = data;
	return response as RpcSuccessResponse<T>;
}

/** A failure response in pi's key order (`id, type, command, success, error`). */
export function errorResponse(id: string | undefined, command: string, error: string): RpcErrorResponse {
	return { id, type: "response", command, success: false, error };
}
