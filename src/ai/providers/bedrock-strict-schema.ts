/**
 * pi-ai 0.87.1's strict JSON-schema rule for tools that ask for constrained sampling
 * (`constrainedSampling: { type: "json_schema", strict? }`): when the model supports strict tools and the schema
 * fits the strict subset, a rewritten copy is sent (every property required, optional ones made nullable,
 * `additionalProperties: false`); otherwise the tool is sent as is, unless it insists (`strict: "require"`).
 */
import type { Tool } from "../types.ts";

class NotStrict extends Error {}

const UNSUPPORTED = [
	"$ref",
	"$defs",
	"definitions",
	"allOf",
	"oneOf",
	"patternProperties",
	"dependentSchemas",
	"dependencies",
	"unevaluatedProperties",
	"propertyNames",
	"contains",
	"prefixItems",
	"not",
	"if",
	"then",
	"else",
];

type Schema = Record<string, any>;
const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

function typesOf(schema: Schema): unknown[] {
	return typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
}

function structured(schema: unknown): boolean {
	if (!isSchema(schema)) return false;
	const types = typesOf(schema);
	return (
		types.includes("object") || types.includes("array") || schema.properties !== undefined || schema.items !== undefined
	);
}

function nullable(schema: unknown): boolean {
	if (!isSchema(schema)) return false;
	if (typesOf(schema).includes("null") || schema.const === null) return true;
	if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
	return Array.isArray(schema.anyOf) && schema.anyOf.some(nullable);
}

function tighten(schema: unknown): void {
	if (!isSchema(schema)) throw new NotStrict("boolean schemas are unsupported");
	for (const key of UNSUPPORTED) if (schema[key] !== undefined) throw new NotStrict(`${key} schemas are unsupported`);
	if (schema.anyOf !== undefined) {
		if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0)
			throw new NotStrict("anyOf must contain at least one schema");
		for (const variant of schema.anyOf) {
			if (structured(variant)) throw new NotStrict("object and array unions are unsupported");
			tighten(variant);
		}
	}
	if (schema.items !== undefined) {
		if (Array.isArray(schema.items)) throw new NotStrict("tuple schemas are unsupported");
		tighten(schema.items);
	}
	const object = schema.type === "object";
	if (schema.properties !== undefined && !object) throw new NotStrict("properties require type object");
	if (!object) return;
	if (schema.additionalProperties !== undefined && schema.additionalProperties !== false)
		throw new NotStrict("schema-valued or true additionalProperties is unsupported");
	if (schema.properties !== undefined && !isSchema(schema.properties))
		throw new NotStrict("object properties must be a schema map");
	if (
		schema.required !== undefined &&
		(!Array.isArray(schema.required) || schema.required.some((k: unknown) => typeof k !== "string"))
	)
		throw new NotStrict("object required must be a string array");
	const properties: Schema = schema.properties ?? {};
	const names = Object.keys(properties);
	const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
	if ([...required].some((k) => !names.includes(k))) throw new NotStrict("required contains an unknown property");
	for (const [key, property] of Object.entries(properties)) {
		tighten(property);
		if (!required.has(key) && !nullable(property)) properties[key] = { anyOf: [property, { type: "null" }] };
	}
	schema.required = names;
	schema.additionalProperties = false;
}

function strictCopy(parameters: unknown): Schema {
	const copy = structuredClone(parameters);
	if (!isSchema(copy)) throw new NotStrict("root schema must have type object");
	tighten(copy);
	if (copy.type !== "object") throw new NotStrict("root schema must have type object");
	return copy;
}

/** The strict schema to send for `tool`, or undefined to send its parameters unchanged. */
export function strictToolSchema(tool: Tool, modelSupportsStrict: boolean): Schema | undefined {
	const config = tool.constrainedSampling as { type?: string; strict?: string } | undefined;
	if (!config || config.type !== "json_schema") return undefined;
	if (modelSupportsStrict) {
		try {
			return strictCopy(tool.parameters);
		} catch (error) {
			if (!(error instanceof NotStrict)) throw error;
			if (config.strict !== "require") return undefined;
			throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but ${error.message}.`);
		}
	}
	if (config.strict === "require") {
		throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but strict tools are unsupported.`);
	}
	return undefined;
}
