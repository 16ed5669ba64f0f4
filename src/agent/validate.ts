/**
 * Tool-argument validation against the tool's schema. A TypeBox 0.34 schema (`@sinclair/typebox`, what the
 * built-in tools use) is checked by a validator compiled once per schema: arguments that match pass through as they
 * are; otherwise values are converted where TypeBox can (the string "10" for a number) and checked again. Any other
 * schema — TypeBox 1.x (`typebox`, what pi 0.87.1 extensions build), plain JSON schema, or a mix — goes through
 * pi-ai's own validation on TypeBox 1.x, which coerces by JSON type the way pi 0.87.1 does.
 */
import type { TSchema } from "@sinclair/typebox";
import type { TypeCheck } from "@sinclair/typebox/compiler";
import { validateToolArgumentsCoercing as validateWithTypeBox1 } from "../ai/index.ts";
import { errorMessage, typebox } from "../util/index.ts";

export type ValidationResult = { ok: true; value: unknown } | { ok: false; error: string };

const compiled = new WeakMap<TSchema, TypeCheck<TSchema> | null>();

function validatorFor(schema: TSchema): TypeCheck<TSchema> | null {
	let check = compiled.get(schema);
	if (check === undefined) {
		try {
			check = typebox().TypeCompiler.Compile(schema);
		} catch {
			// Not a TypeBox 0.34 schema throughout: TypeBox 1.x decides (below).
			check = null;
		}
		compiled.set(schema, check);
	}
	return check;
}

export function validateToolArguments(toolName: string, schema: TSchema, args: unknown): ValidationResult {
	const input = args ?? {};
	if (typeof schema !== "object" || schema === null) return { ok: true, value: input };
	const check = validatorFor(schema);
	if (check === null) {
		try {
			return {
				ok: true,
				value: validateWithTypeBox1({ parameters: schema }, { name: toolName, arguments: input as never }),
			};
		} catch (error) {
			return { ok: false, error: errorMessage(error) };
		}
	}
	if (check.Check(input)) return { ok: true, value: input };
	let value: unknown = structuredClone(input);
	try {
		const { Check, Convert, Errors } = typebox();
		value = Convert(schema, value);
		if (Check(schema, value)) return { ok: true, value };
		const problems = [...Errors(schema, value)]
			.slice(0, 10)
			.map((e) => `  - ${e.path.replace(/^\//, "").replace(/\//g, ".") || "(root)"}: ${e.message}`);
		return {
			ok: false,
			error: `Validation failed for tool "${toolName}":\n${problems.join("\n")}\n\nReceived arguments:\n${JSON.stringify(args, null, 2)}`,
		};
	} catch {
		// Not a TypeBox schema (no Kind symbols): nothing to check it with, so the tool gets the arguments as sent.
		return { ok: true, value: input };
	}
}
