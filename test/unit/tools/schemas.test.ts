import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderToolSchemasModule } from "../../../scripts/gen-tool-schemas.ts";
import * as literals from "../../../src/tools/schemas.generated.ts";
import * as built from "../../../src/tools/schemas.ts";

/** A schema with its symbol keys spelled out, so two schemas compare equal only when TypeBox would treat them alike. */
function spelled(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(spelled);
	if (value === null || typeof value !== "object") return value;
	const out: Record<string, unknown> = {};
	for (const key of Object.getOwnPropertySymbols(value)) {
		out[`@${Symbol.keyFor(key)}`] = (value as Record<symbol, unknown>)[key];
	}
	for (const [key, item] of Object.entries(value)) out[key] = spelled(item);
	return out;
}

describe("tool parameter schemas", () => {
	test("schemas.generated.ts is up to date (regenerate: bun scripts/gen-tool-schemas.ts)", () => {
		const file = join(import.meta.dir, "..", "..", "..", "src", "tools", "schemas.generated.ts");
		expect(readFileSync(file, "utf8")).toBe(renderToolSchemasModule());
	});

	test("every literal is the object TypeBox builds, symbol keys and JSON alike", () => {
		const table: Record<string, unknown> = { ...literals };
		expect(Object.keys(table).sort()).toEqual(Object.keys(built).sort());
		for (const [name, schema] of Object.entries(built)) {
			const literal = table[name];
			expect([name, spelled(literal)]).toEqual([name, spelled(schema)]);
			expect(JSON.stringify(literal)).toBe(JSON.stringify(schema));
		}
	});
});
