/**
 * Checks for what a session file may hold (the schemas are in schema-source.ts): every line is checked by code
 * compiled ahead of time from those schemas (validators.generated.ts), so opening a session neither builds a
 * schema nor loads TypeBox. Only a failing line loads them, to say what is wrong with it.
 */
import { typebox } from "../util/index.ts";
import type * as Source from "./schema-source.ts";
import { PRECOMPILED } from "./validators.generated.ts";

let source: typeof Source | undefined;
let schemasByName: ReturnType<typeof Source.sessionValidatorSchemas> | undefined;

/** The first problem TypeBox finds with `value` against the named schema. */
function firstError(name: string, value: unknown): string {
	source ??= require("./schema-source.ts") as typeof Source;
	schemasByName ??= source.sessionValidatorSchemas();
	const schema = schemasByName[name];
	const error = schema ? typebox().Errors(schema, [], value).First() : undefined;
	if (!error) return "invalid";
	return `${error.path || "(root)"}: ${error.message}`;
}

function check(name: string, value: unknown): boolean {
	return (PRECOMPILED[name] as (value: unknown) => boolean)(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `type` is one of the entry types this version knows. */
export function isKnownEntryType(type: string): boolean {
	return Object.hasOwn(PRECOMPILED, `entry:${type}`);
}

/** Checks a parsed header line: undefined when valid, else a short reason. */
export function checkHeader(value: unknown): string | undefined {
	if (!isObject(value) || value.type !== "session") return "line 1 is not a session header";
	return check("header", value) ? undefined : `bad session header (${firstError("header", value)})`;
}

/**
 * Checks a parsed entry line: undefined when it may be loaded, else a short reason. Unknown types pass with a
 * valid envelope; messages are checked against their role's schema.
 */
export function checkEntry(value: unknown): string | undefined {
	if (!isObject(value)) return "not a JSON object";
	const type = value.type;
	if (typeof type !== "string") return "no entry type";
	if (!isKnownEntryType(type)) {
		return check("envelope", value) ? undefined : `bad ${type} entry (${firstError("envelope", value)})`;
	}
	const name = `entry:${type}`;
	if (!check(name, value)) return `bad ${type} entry (${firstError(name, value)})`;
	if (type === "message") return checkMessage((value as unknown as { message: { role: string } }).message);
	return undefined;
}

function checkMessage(message: { role: string }): string | undefined {
	const role = message.role;
	const name = `message:${role}`;
	if (typeof role !== "string" || !Object.hasOwn(PRECOMPILED, name)) return undefined;
	return check(name, message) ? undefined : `bad ${role} message (${firstError(name, message)})`;
}
