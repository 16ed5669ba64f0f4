/**
 * Tool-argument validation against the tool's TypeBox schema: values are converted where TypeBox can (the string
 * "10" for a number), then checked. A schema TypeBox does not know (plain JSON schema) is accepted as is.
 */
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export type ValidationResult = { ok: true; value: unknown } | { ok: false; error: string };

export function validateToolArguments(toolName: string, schema: TSchema, args: unknown): ValidationResult {
	let value: unknown = structuredClone(args ?? {});
	try {
		value = Value.Convert(schema, value);
		if (Value.Check(schema, value)) return { ok: true, value };
		const problems = [...Value.Errors(schema, value)]
			.slice(0, 10)
			.map((e) => `  - ${e.path.replace(/^\//, "").replace(/\//g, ".") || "(root)"}: ${e.message}`);
		return {
			ok: false,
			error: `Validation failed for tool "${toolName}":\n${problems.join("\n")}\n\nReceived arguments:\n${JSON.stringify(args, null, 2)}`,
		};
	} catch {
		// Not a TypeBox schema (no Kind symbols): nothing to check it with, so the tool gets the arguments as sent.
		return { ok: true, value: args ?? {} };
	}
}
