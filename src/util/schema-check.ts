/**
 * A TypeBox validator that starts interpreted and compiles itself once it has earned it. `TypeCompiler.Compile`
 * generates and evaluates code (about 1–5 ms per schema in a fresh process), which costs more than a start-up
 * that checks a handful of values ever needs; `Value.Check` interprets the schema with no set-up cost but is
 * slower per call. The first `COMPILE_AFTER` checks are interpreted, later ones use the compiled code, and both
 * give the same answers.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { TypeCheck, ValueError } from "@sinclair/typebox/compiler";
import { typebox } from "./typebox.ts";

const COMPILE_AFTER = 32;

export interface SchemaCheck<T extends TSchema> {
	Check(value: unknown): value is Static<T>;
	/** The first validation error of `value`, or undefined when it is valid. */
	FirstError(value: unknown): ValueError | undefined;
}

/**
 * `precompiled`: the check compiled ahead of time from this same schema (see scripts/gen-validators.ts); used from
 * the first call when given.
 */
export function schemaCheck<T extends TSchema>(
	schema: T,
	references: TSchema[] = [],
	precompiled?: (value: unknown) => boolean,
): SchemaCheck<T> {
	let calls = 0;
	let compiled: Pick<TypeCheck<T>, "Check"> | undefined = precompiled
		? { Check: (value: unknown): value is Static<T> => precompiled(value) }
		: undefined;
	return {
		Check(value: unknown): value is Static<T> {
			if (compiled) return compiled.Check(value);
			if (++calls > COMPILE_AFTER) {
				compiled = typebox().TypeCompiler.Compile(schema, references);
				return compiled.Check(value);
			}
			return typebox().Check(schema, references, value);
		},
		FirstError(value: unknown): ValueError | undefined {
			return typebox().Errors(schema, references, value).First();
		},
	};
}
