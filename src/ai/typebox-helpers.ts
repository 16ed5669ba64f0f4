/**
 * pi-ai 0.87.1 exports TypeBox 1.x's `Type` and a `StringEnum` built on it. Both reach TypeBox 1.x only when used:
 * `Type` is a stand-in that loads TypeBox on its first property access and then behaves as TypeBox's `Type`
 * (same members, same functions), so importing pi-ai costs nothing until a schema is built.
 */
import type { Type as TypeBox1Type } from "typebox";
import { typebox1 } from "../util/index.ts";

type TypeNamespace = typeof TypeBox1Type;

const real = (): TypeNamespace => typebox1().root.Type as TypeNamespace;

export const Type: TypeNamespace = new Proxy({} as TypeNamespace, {
	get: (_target, key) => Reflect.get(real(), key),
	has: (_target, key) => Reflect.has(real(), key),
	ownKeys: () => Reflect.ownKeys(real()),
	getOwnPropertyDescriptor: (_target, key) => {
		const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
		return descriptor ? { ...descriptor, configurable: true } : undefined;
	},
	set: () => false,
	defineProperty: () => false,
	deleteProperty: () => false,
});

/**
 * A string schema limited to `values`, written as a plain `enum` (providers such as Google reject the anyOf of
 * literals that `Type.Union` makes). `description` and `default` are kept when given.
 */
export function StringEnum<const T extends readonly string[]>(
	values: T,
	options?: { description?: string; default?: T[number] },
): ReturnType<typeof TypeBox1Type.Unsafe<T[number]>> {
	return real().Unsafe<T[number]>({
		type: "string",
		enum: values,
		...(options?.description && { description: options.description }),
		...(options?.default && { default: options.default }),
	});
}
