/**
 * `typebox/compile` as TypeBox 1.x names it (`Compile`, `Validator`), served by @sinclair/typebox 0.34's compiler,
 * so extensions written for either TypeBox line load.
 */
import type { TSchema } from "@sinclair/typebox";
import { TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";

export const Validator = TypeCheck;

export function Compile<T extends TSchema>(schema: T, references: TSchema[] = []) {
	const check = TypeCompiler.Compile(schema, references);
	return Object.assign(check, {
		/** Returns the value when it matches, else throws with the first error. */
		Parse(value: unknown) {
			if (check.Check(value)) return value;
			const first = check.Errors(value).First();
			throw new Error(`${first?.path || "/"}: ${first?.message ?? "value does not match the schema"}`);
		},
	});
}
