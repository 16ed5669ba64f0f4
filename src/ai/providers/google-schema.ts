/**
 * Tool parameter schemas for Gemini. `functionDeclarations[].parameters` takes an OpenAPI-style subset of JSON
 * schema and rejects the request on keys it does not know ($schema, additionalProperties, $id, const, ...). The
 * sanitiser keeps the supported keys, rewrites the common JSON-schema idioms Gemini lacks (`const`, type arrays
 * with "null", anyOf over literals) and drops the rest.
 */

type Schema = Record<string, unknown>;

/** Keys whose value is copied as is (when its type fits). */
const SCALAR_KEYS = [
	"type",
	"description",
	"nullable",
	"title",
	"minItems",
	"maxItems",
	"minLength",
	"maxLength",
	"minProperties",
	"maxProperties",
	"minimum",
	"maximum",
	"pattern",
	"default",
	"example",
	"propertyOrdering",
] as const;

/** The formats Gemini accepts per type; it rejects the request on any other (e.g. "uri" on a string). */
const FORMATS: Record<string, string[]> = {
	string: ["enum", "date-time"],
	number: ["float", "double"],
	integer: ["int32", "int64"],
};

function isRecord(value: unknown): value is Schema {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Returns a copy of `schema` that Gemini accepts; anything that is not a schema object becomes `{}`. */
export function sanitizeGeminiSchema(schema: unknown): Schema {
	if (!isRecord(schema)) return {};
	const out: Schema = {};
	for (const key of SCALAR_KEYS) if (schema[key] !== undefined) out[key] = schema[key];

	if (Array.isArray(schema.type)) {
		// JSON schema's ["string", "null"] becomes type "string" + nullable.
		const types = schema.type.filter((t): t is string => typeof t === "string");
		const nonNull = types.filter((t) => t !== "null");
		if (nonNull.length < types.length) out.nullable = true;
		if (nonNull.length === 1) out.type = nonNull[0];
		else {
			delete out.type;
			if (nonNull.length > 1) out.anyOf = nonNull.map((type) => ({ type }));
		}
	}
	const format = schema.format;
	if (typeof format === "string" && FORMATS[String(out.type)]?.includes(format)) out.format = format;

	const enumValues = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
	if (enumValues?.every((v) => typeof v === "string")) {
		out.enum = enumValues;
		out.type ??= "string";
	}

	if (isRecord(schema.properties)) {
		const properties: Schema = {};
		for (const [name, value] of Object.entries(schema.properties)) properties[name] = sanitizeGeminiSchema(value);
		out.properties = properties;
		out.type ??= "object";
		if (Array.isArray(schema.required)) {
			const required = schema.required.filter((r): r is string => typeof r === "string" && r in properties);
			if (required.length > 0) out.required = required;
		}
	}
	if (schema.items !== undefined)
		out.items = sanitizeGeminiSchema(Array.isArray(schema.items) ? schema.items[0] : schema.items);

	const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
	if (union) applyUnion(out, union.map(sanitizeGeminiSchema));
	return out;
}

/** anyOf/oneOf: string literals fold into one enum, a `null` branch into `nullable`, the rest stays anyOf. */
function applyUnion(out: Schema, branches: Schema[]): void {
	const nonNull = branches.filter((b) => b.type !== "null");
	if (nonNull.length < branches.length) out.nullable = true;
	const literals = nonNull.every((b) => Array.isArray(b.enum) && (b.type === undefined || b.type === "string"));
	if (literals && nonNull.length > 0) {
		out.type = "string";
		out.enum = nonNull.flatMap((b) => b.enum as string[]);
	} else if (nonNull.length === 1) {
		Object.assign(out, { ...nonNull[0], ...out });
	} else if (nonNull.length > 1) {
		out.anyOf = nonNull;
	}
}

/** The `parameters` of a function declaration, or undefined when there are none (Gemini rejects empty objects). */
export function toolParameters(schema: unknown): Schema | undefined {
	const sanitized = sanitizeGeminiSchema(schema);
	if (!isRecord(sanitized.properties) || Object.keys(sanitized.properties).length === 0) return undefined;
	return sanitized;
}
