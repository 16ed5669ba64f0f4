/**
 * Writes a TypeBox schema (the object TypeBox builds, symbol keys included) as TypeScript source for a generated
 * module, so pi loads schemas as literals instead of building them with TypeBox at start-up. The module the
 * source goes into must begin with `SCHEMA_LITERAL_PRELUDE` (the symbols and the `lit` helper it refers to).
 */

/** TypeBox's registered symbols, by the name the generated module gives them. */
export const SYMBOLS: Record<string, string> = { "TypeBox.Kind": "Kind", "TypeBox.Optional": "OptionalKind" };

const isLeaf = (value: unknown) => value === null || typeof value !== "object";

/** The key/value pairs of a schema node, TypeBox's symbol keys as `[Kind]` / `[OptionalKind]`. */
function fields(record: Record<string | symbol, unknown>): [string, unknown][] {
	const out: [string, unknown][] = [];
	for (const key of Object.getOwnPropertySymbols(record)) {
		const name = SYMBOLS[Symbol.keyFor(key) ?? ""];
		if (name === undefined) throw new Error(`schema-literal: no name for symbol key ${String(key)}`);
		out.push([`[${name}]`, record[key]]);
	}
	for (const key of Object.keys(record)) out.push([JSON.stringify(key), record[key]]);
	return out;
}

/** A plain `Type.Literal(v)` node, written as `lit(v)` (the module defines `lit` to build the same object). */
function literalNode(value: unknown): string | undefined {
	if (isLeaf(value) || Array.isArray(value)) return undefined;
	const pairs = fields(value as Record<string | symbol, unknown>);
	const [kind, constant, type] = pairs;
	if (pairs.length !== 3 || kind?.[0] !== "[Kind]" || kind[1] !== "Literal") return undefined;
	if (constant?.[0] !== '"const"' || type?.[0] !== '"type"' || type[1] !== typeof constant[1]) return undefined;
	return `lit(${JSON.stringify(constant[1])})`;
}

/** The node on one line. */
function inline(value: unknown): string {
	if (isLeaf(value)) return value === Number.MAX_SAFE_INTEGER ? "Number.MAX_SAFE_INTEGER" : JSON.stringify(value);
	const literal = literalNode(value);
	if (literal) return literal;
	if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
	const pairs = fields(value as Record<string | symbol, unknown>);
	return pairs.length === 0 ? "{}" : `{ ${pairs.map(([k, v]) => `${k}: ${inline(v)}`).join(", ")} }`;
}

/**
 * A JSON-like value as TypeScript source. A node holding only plain values stays on one line, and so does any
 * node whose line (with the `lead` before it) fits in 120 characters; the rest is one field per line.
 */
export function source(value: unknown, indent: string, lead = 0): string {
	const short = inline(value);
	if (isLeaf(value)) return short;
	const plain = (v: unknown) => isLeaf(v) || literalNode(v) !== undefined;
	const flat = Array.isArray(value)
		? value.every(plain)
		: fields(value as Record<string, unknown>).every(([, v]) => plain(v));
	if (flat || indent.length * 4 + lead + short.length <= 120) return short;
	const inner = `${indent}\t`;
	if (Array.isArray(value)) return `[\n${value.map((item) => inner + source(item, inner)).join(",\n")},\n${indent}]`;
	const pairs = fields(value as Record<string | symbol, unknown>);
	return `{\n${pairs.map(([k, v]) => `${inner}${k}: ${source(v, inner, k.length + 2)}`).join(",\n")},\n${indent}}`;
}

/** The declarations every module holding `source()` output starts with. */
export const SCHEMA_LITERAL_PRELUDE = [
	...Object.entries(SYMBOLS).map(([key, name]) => `const ${name} = Symbol.for(${JSON.stringify(key)});`),
	'const lit = (value: string | number | boolean) => ({ [Kind]: "Literal", const: value, type: typeof value });',
];
