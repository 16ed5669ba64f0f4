import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { GENERATED_VALIDATORS, renderValidators } from "../../../scripts/gen-validators.ts";
import { checkEntry, checkHeader, isKnownEntryType } from "../../../src/session/schema.ts";
import { sessionValidatorSchemas } from "../../../src/session/schema-source.ts";
import { PRECOMPILED } from "../../../src/session/validators.generated.ts";

describe("precompiled session validators", () => {
	test("every validators.generated.ts is up to date (regenerate: bun scripts/gen-validators.ts)", () => {
		for (const [file, schemas] of Object.entries(GENERATED_VALIDATORS)) {
			const path = join(import.meta.dir, "..", "..", "..", "src", file);
			expect([file, readFileSync(path, "utf8")]).toEqual([file, renderValidators(schemas())]);
		}
	});

	test("each precompiled check agrees with its TypeBox schema on valid and broken values", () => {
		const samples: unknown[] = [
			{ type: "session", version: 3, id: "s1", timestamp: "t", cwd: "/" },
			{ type: "session", id: "" },
			{ type: "message", id: "a1b2c3d4", parentId: null, timestamp: "t", message: { role: "user", content: "hi" } },
			{ type: "message", id: "a1b2c3d4", parentId: null, timestamp: "t", message: { role: "user", content: 5 } },
			{ role: "user", content: [{ type: "text", text: "x" }], timestamp: 1 },
			{ role: "assistant", content: [{ type: "toolCall", id: "c", name: "bash", arguments: {} }] },
			{ role: "toolResult", toolCallId: "c", toolName: "bash", content: [], isError: false, timestamp: 1 },
			{ type: "label", id: "x", parentId: "y", timestamp: "t", targetId: "z", label: "l" },
			{ type: "compaction", id: "x", parentId: "y", timestamp: "t", summary: 3 },
			null,
			"text",
			[],
		];
		const schemas = sessionValidatorSchemas();
		expect(Object.keys(PRECOMPILED).sort()).toEqual(Object.keys(schemas).sort());
		for (const [name, schema] of Object.entries(schemas)) {
			const check = PRECOMPILED[name] as (value: unknown) => boolean;
			for (const sample of samples) expect([name, check(sample)]).toEqual([name, Value.Check(schema, sample)]);
		}
	});
});

describe("reasons for a failing line", () => {
	test("header, entry, message and unknown-type problems name the field TypeBox finds wrong", () => {
		expect(checkHeader({ type: "session" })).toMatch(/^bad session header \(\/id: /);
		expect(checkHeader([])).toBe("line 1 is not a session header");
		const envelope = { id: "a1b2c3d4", parentId: null, timestamp: "2026-01-01T00:00:00Z" };
		expect(checkEntry({ ...envelope, type: "label", targetId: "" })).toMatch(/^bad label entry \(\/targetId: /);
		expect(checkEntry({ ...envelope, type: "message", message: { role: "user", content: 5 } })).toMatch(
			/^bad user message \(\/content: /,
		);
		expect(checkEntry({ ...envelope, type: "future_kind", extra: 1 })).toBeUndefined();
		expect(checkEntry({ ...envelope, type: "future_kind", id: "" })).toMatch(/^bad future_kind entry \(\/id: /);
		expect(checkEntry({ ...envelope, type: "message", message: { role: "narrator" } })).toBeUndefined();
		expect(isKnownEntryType("compaction")).toBe(true);
		expect(isKnownEntryType("future_kind")).toBe(false);
	});
});
