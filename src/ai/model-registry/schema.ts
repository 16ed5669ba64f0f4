/**
 * The models.json schema (one TypeBox schema for the whole file) and its reader. Every problem becomes one line
 * `<file>: <json path>: <problem>`, e.g. `…/models.json: providers.ollama.models[0].contextWindow: expected a
 * number`. Unknown fields are allowed (newer pi versions add some); `//` and `/* *\/` comments and a BOM are
 * accepted, as pi does.
 */

import type { Static, TSchema } from "@sinclair/typebox";
import type { ValueError } from "@sinclair/typebox/errors";
import { errorMessage, TypeBoxKind as Kind, readFileSync, typebox } from "../../util/index.ts";
import { PRECOMPILED } from "./validators.generated.ts";

/**
 * The models.json schema, built on first use: the file is checked by a validator compiled ahead of time
 * (scripts/gen-validators.ts), so at run time the schema only explains a failure, and building it costs start-up
 * time on every run.
 */
function buildSchemas() {
	const { Type } = typebox();
	const NonEmpty = Type.String({ minLength: 1 });
	const Headers = Type.Record(Type.String(), Type.String());
	const ThinkingValue = Type.Union([Type.String(), Type.Null()]);
	const ThinkingLevelMap = Type.Object({
		off: Type.Optional(ThinkingValue),
		minimal: Type.Optional(ThinkingValue),
		low: Type.Optional(ThinkingValue),
		medium: Type.Optional(ThinkingValue),
		high: Type.Optional(ThinkingValue),
		xhigh: Type.Optional(ThinkingValue),
		max: Type.Optional(ThinkingValue),
	});
	const Input = Type.Array(Type.Union([Type.Literal("text"), Type.Literal("image")]));
	const Cost = Type.Object({
		input: Type.Optional(Type.Number()),
		output: Type.Optional(Type.Number()),
		cacheRead: Type.Optional(Type.Number()),
		cacheWrite: Type.Optional(Type.Number()),
	});
	const Positive = Type.Number({ exclusiveMinimum: 0 });
	const Flag = Type.Optional(Type.Boolean());
	const AnyObject = Type.Record(Type.String(), Type.Unknown());

	/** Compatibility flags of every API in one object; flags for another API are simply unused. */
	const Compat = Type.Object({
		supportsStore: Flag,
		supportsDeveloperRole: Flag,
		supportsReasoningEffort: Flag,
		supportsUsageInStreaming: Flag,
		maxTokensField: Type.Optional(Type.Union([Type.Literal("max_completion_tokens"), Type.Literal("max_tokens")])),
		requiresToolResultName: Flag,
		requiresAssistantAfterToolResult: Flag,
		requiresThinkingAsText: Flag,
		requiresReasoningContentOnAssistantMessages: Flag,
		thinkingFormat: Type.Optional(
			Type.Union(
				[
					"openai",
					"openrouter",
					"together",
					"baseten",
					"deepseek",
					"zai",
					"qwen",
					"chat-template",
					"qwen-chat-template",
					"string-thinking",
					"ant-ling",
				].map((format) => Type.Literal(format)),
			),
		),
		openRouterRouting: Type.Optional(AnyObject),
		vercelGatewayRouting: Type.Optional(AnyObject),
		zaiToolStream: Flag,
		supportsStrictMode: Flag,
		cacheControlFormat: Type.Optional(Type.Literal("anthropic")),
		sendSessionAffinityHeaders: Flag,
		sendSessionIdHeader: Flag,
		supportsLongCacheRetention: Flag,
		supportsEagerToolInputStreaming: Flag,
		supportsFinishReason: Flag,
		supportsMaxOutputTokens: Flag,
		supportsCacheControlOnTools: Flag,
		supportsTemperature: Flag,
		allowEmptySignature: Flag,
		forceAdaptiveThinking: Flag,
		reasoningEffortMap: Type.Optional(Type.Record(Type.String(), Type.String())),
	});

	const ModelFields = {
		name: Type.Optional(NonEmpty),
		api: Type.Optional(NonEmpty),
		baseUrl: Type.Optional(NonEmpty),
		reasoning: Flag,
		thinkingLevelMap: Type.Optional(ThinkingLevelMap),
		input: Type.Optional(Input),
		cost: Type.Optional(Cost),
		contextWindow: Type.Optional(Positive),
		maxTokens: Type.Optional(Positive),
		headers: Type.Optional(Headers),
		compat: Type.Optional(Compat),
	};

	const ModelDefinition = Type.Object({ id: NonEmpty, ...ModelFields });
	const ModelOverride = Type.Object(ModelFields);

	const ProviderEntry = Type.Object({
		name: Type.Optional(NonEmpty),
		baseUrl: Type.Optional(NonEmpty),
		api: Type.Optional(NonEmpty),
		apiKey: Type.Optional(NonEmpty),
		headers: Type.Optional(Headers),
		authHeader: Flag,
		compat: Type.Optional(Compat),
		models: Type.Optional(Type.Array(ModelDefinition)),
		modelOverrides: Type.Optional(Type.Record(Type.String(), ModelOverride)),
	});

	const ModelsJsonSchema = Type.Object({ providers: Type.Record(Type.String(), ProviderEntry) });
	return { ModelsJsonSchema, ProviderEntry, ModelDefinition, ModelOverride };
}

type Schemas = ReturnType<typeof buildSchemas>;
let schemas: Schemas | undefined;

/** The models.json schema (TypeBox). */
export function modelsJsonSchema(): Schemas["ModelsJsonSchema"] {
	schemas ??= buildSchemas();
	return schemas.ModelsJsonSchema;
}

export type ModelsJson = Static<Schemas["ModelsJsonSchema"]>;
export type ModelsJsonProvider = Static<Schemas["ProviderEntry"]>;
export type ModelsJsonModel = Static<Schemas["ModelDefinition"]>;
export type ModelsJsonOverride = Static<Schemas["ModelOverride"]>;

export interface ModelsJsonLoad {
	/** The validated file, or undefined when it is missing or has any problem. */
	config?: ModelsJson;
	/** One line per problem; empty when the file is fine or absent. */
	errors: string[];
}

/** Reads and validates the file; never throws. A missing file is not an error. */
export function readModelsJson(path: string): ModelsJsonLoad {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { errors: [] };
		return { errors: [`${path}: cannot read: ${errorMessage(error)}; custom models are ignored`] };
	}
	return parseModelsJson(path, text);
}

export function parseModelsJson(path: string, text: string): ModelsJsonLoad {
	let raw: unknown;
	try {
		raw = JSON.parse(stripJsonComments(text.replace(/^\uFEFF/, "")));
	} catch (error) {
		return { errors: [`${path}: invalid JSON: ${errorMessage(error)}; custom models are ignored`] };
	}
	// The check compiled ahead of time (scripts/gen-validators.ts); TypeBox itself only explains a failure.
	if ((PRECOMPILED["models-json"] as (value: unknown) => boolean)(raw))
		return { config: raw as ModelsJson, errors: [] };
	const seen = new Set<string>();
	const errors: string[] = [];
	for (const error of typebox().Errors(modelsJsonSchema(), raw)) {
		const where = jsonPath(raw, error.path);
		if (seen.has(where)) continue;
		seen.add(where);
		errors.push(`${path}: ${where}: ${describeError(error)}`);
	}
	return { errors };
}

/** `/providers/a.b/models/0/id` → `providers["a.b"].models[0].id` (array indexes found by walking the value). */
export function jsonPath(root: unknown, pointer: string): string {
	if (pointer === "") return "(root)";
	let out = "";
	let node: unknown = root;
	for (const encoded of pointer.slice(1).split("/")) {
		const key = encoded.replace(/~1/g, "/").replace(/~0/g, "~");
		if (Array.isArray(node)) {
			out += `[${key}]`;
			node = node[Number(key)];
			continue;
		}
		out += /^[A-Za-z_$][\w$-]*$/.test(key) ? `${out === "" ? "" : "."}${key}` : `[${JSON.stringify(key)}]`;
		node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
	}
	return out;
}

function describeError(error: ValueError): string {
	const { ValueErrorType } = typebox();
	const schema = error.schema as TSchema & Record<string, unknown>;
	switch (error.type) {
		case ValueErrorType.ObjectRequiredProperty:
			return "required field is missing";
		case ValueErrorType.StringMinLength:
			return "must not be empty";
		case ValueErrorType.NumberExclusiveMinimum:
			return `expected a number greater than ${schema.exclusiveMinimum}`;
		case ValueErrorType.NumberMinimum:
			return `expected a number of at least ${schema.minimum}`;
		default:
			return `expected ${describeSchema(schema)}`;
	}
}

/** "a number", "\"text\" or \"image\"", "a string or null", … */
function describeSchema(schema: TSchema): string {
	switch (schema[Kind]) {
		case "Number":
		case "Integer":
			return "a number";
		case "String":
			return "a string";
		case "Boolean":
			return "true or false";
		case "Null":
			return "null";
		case "Literal":
			return JSON.stringify(schema.const);
		case "Array":
			return "an array";
		case "Object":
		case "Record":
			return "an object";
		case "Union": {
			const options = (schema.anyOf as TSchema[]).map(describeSchema);
			return options.length <= 2 ? options.join(" or ") : `one of ${options.join(", ")}`;
		}
		default:
			return "a different value";
	}
}

/** Removes `//` and `/* *\/` comments outside strings, keeping line breaks so JSON error positions still fit. */
export function stripJsonComments(text: string): string {
	let out = "";
	let i = 0;
	while (i < text.length) {
		const ch = text[i] as string;
		if (ch === '"') {
			let j = i + 1;
			while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
			out += text.slice(i, j + 1);
			i = j + 1;
		} else if (ch === "/" && text[i + 1] === "/") {
			while (i < text.length && text[i] !== "\n") i++;
		} else if (ch === "/" && text[i + 1] === "*") {
			const end = text.indexOf("*/", i + 2);
			const stop = end < 0 ? text.length : end + 2;
			out += text.slice(i, stop).replace(/[^\n]/g, " ");
			i = stop;
		} else {
			out += ch;
			i++;
		}
	}
	return out;
}
