/**
 * pi-ai 0.87.1's tool-call validation (`validateToolCall`, `validateToolArguments`), on TypeBox 1.x (loaded on the
 * first call). Any JSON schema works: TypeBox 1.x compiles plain JSON schema, 1.x schemas and 0.34 schemas alike.
 * Before checking, arguments are repaired the way models need: a `null` for an optional property that does not
 * accept null is dropped, TypeBox converts what it can ("10" → 10), and for schemas not built by TypeBox 0.34
 * values are also coerced by their JSON `type` (also inside unions, arrays and nested objects). The result is the
 * repaired copy; a failure throws one message listing every problem and the arguments as received.
 */
import { typebox1 } from "../util/index.ts";
import type { Tool, ToolCall } from "./types.ts";

type Schema = Record<string, any>;
type Validator = { Check(value: unknown): boolean; Errors(value: unknown): ValidationError[] };
type ValidationError = { keyword: string; instancePath: string; params: Record<string, any>; message: string };

const validators = new WeakMap<object, Validator>();
const TYPEBOX_KIND = Symbol.for("TypeBox.Kind");

function validator(schema: Schema): Validator {
	let compiled = validators.get(schema);
	if (!compiled) {
		compiled = typebox1().compile.Compile(schema as never) as unknown as Validator;
		validators.set(schema, compiled);
	}
	return compiled;
}

function tryValidator(schema: Schema): Validator | undefined {
	try {
		return validator(schema);
	} catch {
		return undefined;
	}
}

function schemaTypes(schema: Schema): string[] {
	if (typeof schema.type === "string") return [schema.type];
	return Array.isArray(schema.type) ? schema.type.filter((type: unknown) => typeof type === "string") : [];
}

function hasJsonType(value: unknown, type: string): boolean {
	switch (type) {
		case "number":
			return typeof value === "number";
		case "integer":
			return typeof value === "number" && Number.isInteger(value);
		case "boolean":
		case "string":
			return typeof value === type;
		case "null":
			return value === null;
		case "array":
			return Array.isArray(value);
		case "object":
			return typeof value === "object" && value !== null && !Array.isArray(value);
		default:
			return false;
	}
}

/** `value` converted to JSON `type` where that is unambiguous; otherwise `value` itself. */
function coercePrimitive(value: unknown, type: string): unknown {
	switch (type) {
		case "number":
		case "integer": {
			if (value === null) return 0;
			if (typeof value === "boolean") return value ? 1 : 0;
			if (typeof value === "string" && value.trim() !== "") {
				const parsed = Number(value);
				if (type === "number" ? Number.isFinite(parsed) : Number.isInteger(parsed)) return parsed;
			}
			return value;
		}
		case "boolean":
			if (value === null) return false;
			if (value === "true" || value === 1) return true;
			if (value === "false" || value === 0) return false;
			return value;
		case "string":
			if (value === null) return "";
			return typeof value === "number" || typeof value === "boolean" ? String(value) : value;
		case "null":
			return value === "" || value === 0 || value === false ? null : value;
		default:
			return value;
	}
}

function coerceUnion(value: unknown, schemas: Schema[]): unknown {
	if (schemas.some((schema) => tryValidator(schema)?.Check(value))) return value;
	for (const schema of schemas) {
		const coerced = coerce(structuredClone(value), schema);
		if (tryValidator(schema)?.Check(coerced)) return coerced;
	}
	return value;
}

/** Coerces `value` (in place for objects and arrays) towards `schema`'s JSON types. */
function coerce(value: unknown, schema: Schema): unknown {
	let next = value;
	if (Array.isArray(schema.allOf)) for (const part of schema.allOf) next = coerce(next, part);
	if (Array.isArray(schema.anyOf)) next = coerceUnion(next, schema.anyOf);
	if (Array.isArray(schema.oneOf)) next = coerceUnion(next, schema.oneOf);
	const types = schemaTypes(schema);
	const matchesOne = types.length > 1 && types.some((type) => hasJsonType(next, type));
	if (types.length > 0 && !matchesOne) {
		for (const type of types) {
			const candidate = coercePrimitive(next, type);
			if (candidate !== next) {
				next = candidate;
				break;
			}
		}
	}
	if (types.includes("object") && hasJsonType(next, "object")) coerceObject(next as Record<string, unknown>, schema);
	if (types.includes("array") && Array.isArray(next)) coerceArray(next, schema);
	return next;
}

function coerceObject(value: Record<string, unknown>, schema: Schema): void {
	const properties: Record<string, Schema> | undefined = schema.properties;
	for (const [key, property] of Object.entries(properties ?? {})) {
		if (key in value) value[key] = coerce(value[key], property);
	}
	const extra = schema.additionalProperties;
	if (!extra || typeof extra !== "object") return;
	for (const [key, item] of Object.entries(value)) {
		if (!properties || !Object.hasOwn(properties, key)) value[key] = coerce(item, extra);
	}
}

function coerceArray(value: unknown[], schema: Schema): void {
	if (Array.isArray(schema.items)) {
		for (let i = 0; i < value.length; i++) if (schema.items[i]) value[i] = coerce(value[i], schema.items[i]);
	} else if (schema.items && typeof schema.items === "object") {
		for (let i = 0; i < value.length; i++) value[i] = coerce(value[i], schema.items);
	}
}

/** Drops `null` from optional properties whose schema rejects null (models send null for "not given"). */
function dropOptionalNulls(value: unknown, schema: Schema): void {
	if (Array.isArray(value)) {
		if (Array.isArray(schema.items)) {
			for (let i = 0; i < value.length; i++) if (schema.items[i]) dropOptionalNulls(value[i], schema.items[i]);
		} else if (schema.items) {
			for (const item of value) dropOptionalNulls(item, schema.items);
		}
		return;
	}
	if (typeof value !== "object" || value === null || !schema.properties) return;
	const object = value as Record<string, unknown>;
	const required = new Set<string>(schema.required ?? []);
	for (const [key, property] of Object.entries(schema.properties as Record<string, Schema>)) {
		if (!(key in object)) continue;
		const dropsNull =
			object[key] === null &&
			!required.has(key) &&
			typeof property.$ref !== "string" &&
			tryValidator(property)?.Check(null) === false;
		if (dropsNull) delete object[key];
		else dropOptionalNulls(object[key], property);
	}
}

function errorPath(error: ValidationError): string {
	const base = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
	const missing = error.keyword === "required" ? error.params.requiredProperties?.[0] : undefined;
	if (missing) return base ? `${base}.${missing}` : missing;
	return base || "root";
}

function validate(
	tool: Pick<Tool, "parameters">,
	toolCall: Pick<ToolCall, "name" | "arguments">,
	coerceAll: boolean,
): any {
	const schema = tool.parameters as Schema;
	const args = structuredClone(toolCall.arguments) as any;
	dropOptionalNulls(args, schema);
	typebox1().value.Value.Convert(schema as never, args);
	const check = validator(schema);
	if (coerceAll || !Object.getOwnPropertySymbols(schema).includes(TYPEBOX_KIND)) {
		const coerced = coerce(args, schema);
		if (coerced !== args) {
			const bothObjects = typeof args === "object" && args !== null && typeof coerced === "object" && coerced !== null;
			if (!bothObjects) return check.Check(coerced) ? coerced : args;
			for (const key of Object.keys(args)) delete args[key];
			Object.assign(args, coerced);
		}
	}
	if (check.Check(args)) return args;
	const problems =
		check
			.Errors(args)
			.map((error) => `  - ${errorPath(error)}: ${error.message}`)
			.join("\n") || "Unknown validation error";
	throw new Error(
		`Validation failed for tool "${toolCall.name}":\n${problems}\n\nReceived arguments:\n${JSON.stringify(toolCall.arguments, null, 2)}`,
	);
}

/** The repaired arguments of `toolCall` when they match `tool.parameters`; throws a readable error otherwise. */
export function validateToolArguments(
	tool: Pick<Tool, "parameters">,
	toolCall: Pick<ToolCall, "name" | "arguments">,
): any {
	return validate(tool, toolCall, false);
}

/**
 * Like `validateToolArguments`, but values are coerced by JSON type for TypeBox 0.34 schemas too. That is what pi
 * 0.87.1 does for the same extension source: there `@sinclair/typebox` is TypeBox 1.x as well, so no schema
 * carries 0.34's `Kind`. The agent uses it for schemas TypeBox 0.34 cannot check on its own.
 */
export function validateToolArgumentsCoercing(
	tool: Pick<Tool, "parameters">,
	toolCall: Pick<ToolCall, "name" | "arguments">,
): any {
	return validate(tool, toolCall, true);
}

/** Finds the tool named by `toolCall` and validates its arguments; throws when there is no such tool. */
export function validateToolCall(
	tools: readonly Pick<Tool, "name" | "parameters">[],
	toolCall: Pick<ToolCall, "name" | "arguments">,
): any {
	const tool = tools.find((candidate) => candidate.name === toolCall.name);
	if (!tool) throw new Error(`Tool "${toolCall.name}" not found`);
	return validateToolArguments(tool, toolCall);
}
