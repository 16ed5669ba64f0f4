/**
 * Tool-argument validation against the tool's TypeBox schema. Arguments that already match pass through as they
 * are (checked by a validator compiled once per schema); otherwise values are converted where TypeBox can (the
 * string "10" for a number) and checked again. A schema TypeBox does not know (plain JSON schema) is accepted.
 */
import type { TSchema } from "@sinclair/typebox";
import type { TypeCheck } from "@sinclair/typebox/compiler";
import { typebox } from "../util/index.ts";

export type ValidationResult = { ok: true; value: unknown } | { ok: false; error: string };

const compiled = new WeakMap<TSchema, TypeCheck<TSchema> | null>();

function validatorFor(schema: TSchema): TypeCheck<TSchema> | null {
	let check = compiled.get(schema);
	if (check === undefined) {
		try {
			check = typebox().TypeCompiler.Compile(schema);
		} catch {
			// Not compilable (plain JSON schema without TypeBox kinds): the slow path below decides.
			check = null;
		}
		compiled.set(schema, check);
	}
	return check;
}

export function validateToolArguments(toolName: string, schema: TSchema, args: unknown): ValidationResult {
	const input = args ?? {};
	if (validatorFor(schema)?.Check(input)) return { ok: true, value: input };
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
