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
import { type SchemaCheck, schemaCheck, typebox } from "../../util/index.ts";
import { v8JsonParseErrorMessage } from "./json-error.ts";
import {
	RPC_COMMAND_TYPES,
	type RpcCommandType,
	type RpcErrorResponse,
	type RpcInbound,
	type RpcResponseData,
	type RpcSuccessResponse,
} from "./types.ts";

/** A field of a command: its schema and how to name what it should be in an error. */
interface FieldSpec {
	schema: TSchema;
	expected: string;
}

interface CommandSpec {
	required?: Record<string, FieldSpec>;
	optional?: Record<string, FieldSpec>;
}

function oneOf(...values: string[]): FieldSpec {
	const { Type } = typebox();
	return {
		schema: Type.Union(values.map((value) => Type.Literal(value))),
		expected: `one of ${values.map((value) => JSON.stringify(value)).join(", ")}`,
	};
}

/**
 * The fields of every command besides `type` and `id`, built on the first command read: print and JSON runs load
 * this module but never read a command.
 */
function buildCommandSpecs(): Record<RpcCommandType, CommandSpec> {
	const { Type } = typebox();
	const STRING: FieldSpec = { schema: Type.String(), expected: "a string" };
	const BOOLEAN: FieldSpec = { schema: Type.Boolean(), expected: "a boolean" };
	const ImageContentSchema = Type.Object({
		type: Type.Literal("image"),
		data: Type.String(),
		mimeType: Type.String(),
	});
	const IMAGES: FieldSpec = {
		schema: Type.Array(ImageContentSchema),
		expected: 'an array of images ({"type":"image","data":<base64>,"mimeType":<string>})',
	};

	const QUEUE_MODE = oneOf("all", "one-at-a-time");
	const MESSAGE = { required: { message: STRING }, optional: { images: IMAGES } };

	return {
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
}

let specs: Record<RpcCommandType, CommandSpec> | undefined;
const commandSpecs = () => {
	specs ??= buildCommandSpecs();
	return specs;
};

function commandSchema(type: RpcCommandType, spec: CommandSpec): TObject {
	const { Type } = typebox();
	const properties: Record<string, TSchema> = { type: Type.Literal(type), id: Type.Optional(Type.Unknown()) };
	for (const [name, field] of Object.entries(spec.required ?? {})) properties[name] = field.schema;
	for (const [name, field] of Object.entries(spec.optional ?? {})) {
		properties[name] = Type.Optional(Type.Union([field.schema, Type.Null()]));
	}
	return Type.Object(properties);
}

/**
 * One TypeBox schema per command type: the shape `parseCommandLine` accepts (extra fields allowed, `id` of any
 * JSON type, optional fields may be null). Built on first use: print and JSON runs load this module but never
 * read a command.
 */
export function rpcCommandSchemas(): Record<RpcCommandType, TObject> {
	schemas ??= Object.fromEntries(
		RPC_COMMAND_TYPES.map((type) => [type, commandSchema(type, commandSpecs()[type])]),
	) as Record<RpcCommandType, TObject>;
	return schemas;
}

let schemas: Record<RpcCommandType, TObject> | undefined;

interface CommandValidator {
	/** Absent for commands without fields: nothing to check. */
	check?: SchemaCheck<TObject>;
	spec: CommandSpec;
	optionalNames: string[];
}

let validators: Map<string, CommandValidator> | undefined;

function commandValidators(): Map<string, CommandValidator> {
	if (validators) return validators;
	validators = new Map();
	for (const type of RPC_COMMAND_TYPES) {
		const spec = commandSpecs()[type];
		const hasFields = spec.required !== undefined || spec.optional !== undefined;
		validators.set(type, {
			check: hasFields ? schemaCheck(rpcCommandSchemas()[type]) : undefined,
			spec,
			optionalNames: Object.keys(spec.optional ?? {}),
		});
	}
	return validators;
}

/** The result of reading one stdin line. On failure, `response` is the exact line to send back. */
export type ParsedCommandLine =
	| { ok: true; command: RpcInbound }
	| { ok: false; error: string; id?: string; command?: string; response: RpcErrorResponse };

function failure(id: unknown, command: unknown, error: string): ParsedCommandLine & { ok: false } {
	const response = errorResponse(id as string | undefined, command as string, error);
	return { ok: false, error, id: id as string | undefined, command: command as string | undefined, response };
}

/** Names the first field of `record` that does not fit `spec` (required fields first, in declaration order). */
function describeInvalid(type: string, record: Record<string, unknown>, spec: CommandSpec): string {
	for (const [name, field] of Object.entries(spec.required ?? {})) {
		const value = record[name];
		if (value === undefined) return `Invalid ${type} command: missing "${name}" (${field.expected})`;
		if (!typebox().Check(field.schema, value)) return `Invalid ${type} command: "${name}" must be ${field.expected}`;
	}
	for (const [name, field] of Object.entries(spec.optional ?? {})) {
		const value = record[name];
		if (value != null && !typebox().Check(field.schema, value)) {
			return `Invalid ${type} command: "${name}" must be ${field.expected}`;
		}
	}
	return `Invalid ${type} command`;
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
	const validator = typeof type === "string" ? commandValidators().get(type) : undefined;
	if (!validator) return failure(id, type, `Unknown command: ${String(type)}`);
	if (validator.check) {
		if (!validator.check.Check(record)) {
			return failure(id, type, describeInvalid(type as string, record, validator.spec));
		}
		for (const name of validator.optionalNames) {
			if (record[name] === null) delete record[name];
		}
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
