import { type TUnsafe, Type } from "@sinclair/typebox";

/** A string schema limited to `values`, written as a plain `enum` (providers reject TypeBox's anyOf-of-literals). */
export function StringEnum<const T extends readonly string[]>(
	values: T,
	options: { description?: string; default?: T[number] } = {},
): TUnsafe<T[number]> {
	return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}
