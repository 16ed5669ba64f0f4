/**
 * Tool arguments against the schemas extensions build: TypeBox 0.34 (`@sinclair/typebox`), TypeBox 1.x
 * (`typebox`), plain JSON schema, and 0.34 objects holding pi-ai's `StringEnum` (TypeBox 1.x). Values are converted
 * where pi 0.87.1 converts them; what still does not match is an error naming the field.
 */
import { describe, expect, test } from "bun:test";
import { Type as Type034 } from "@sinclair/typebox";
import { Type } from "typebox";
import { validateToolArguments } from "../../../src/agent/index.ts";
import { StringEnum } from "../../../src/sdk/pi-ai.ts";

const ok = (value: unknown) => ({ ok: true as const, value });

describe("tool argument validation", () => {
	test("TypeBox 1.x schemas are checked and coerced", () => {
		const schema = Type.Object({
			n: Type.Number(),
			flag: Type.Optional(Type.Boolean()),
			list: Type.Array(Type.Integer()),
		});
		expect(validateToolArguments("t", schema as never, { n: "2", flag: "true", list: ["1", 2] })).toEqual(
			ok({ n: 2, flag: true, list: [1, 2] }),
		);
		const bad = validateToolArguments("t", schema as never, { n: "x", list: [] });
		expect(bad.ok).toBe(false);
		expect(!bad.ok && bad.error).toStartWith('Validation failed for tool "t":\n  - n: must be number');
		const missing = validateToolArguments("t", schema as never, { list: [] });
		expect(!missing.ok && missing.error).toContain("  - n: must have required properties n");
	});

	test("plain JSON schema is checked, and a null optional value is dropped", () => {
		const schema = {
			type: "object",
			properties: { path: { type: "string" }, limit: { type: "integer" } },
			required: ["path"],
		};
		expect(validateToolArguments("t", schema as never, { path: "a", limit: null })).toEqual(ok({ path: "a" }));
		expect(validateToolArguments("t", schema as never, { path: 3 })).toEqual(ok({ path: "3" }));
		expect(validateToolArguments("t", schema as never, {}).ok).toBe(false);
	});

	test("a TypeBox 0.34 object with pi-ai's StringEnum inside", () => {
		const schema = Type034.Object({ mode: StringEnum(["upper", "lower"]) as never, n: Type034.Number() });
		expect(validateToolArguments("t", schema as never, { mode: "upper", n: "3" })).toEqual(ok({ mode: "upper", n: 3 }));
		const bad = validateToolArguments("t", schema as never, { mode: "loud", n: 1 });
		expect(!bad.ok && bad.error).toContain("  - mode: must be equal to one of the allowed values");
	});

	test("pure TypeBox 0.34 schemas keep their fast path", () => {
		const schema = Type034.Object({ n: Type034.Number() });
		const args = { n: 1 };
		const result = validateToolArguments("t", schema, args);
		expect(result.ok && result.value).toBe(args);
		expect(validateToolArguments("t", schema, { n: "4" })).toEqual(ok({ n: 4 }));
	});
});
