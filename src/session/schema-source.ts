/**
 * TypeBox schemas for what a session file may hold. One union for the entry types; messages inside `message`
 * entries are checked by role in a second step. The schemas require what this layer and its consumers read and
 * accept everything else (extra fields, unknown content blocks, unknown roles, usages without `totalTokens` as old
 * pi wrote them), so real pi files load. Entry types this version does not know only need the envelope (`type`,
 * `id`, `parentId`, `timestamp`) and are passed through.
 * This module is the source of truth, not a run-time dependency: scripts/gen-validators.ts compiles these schemas
 * into validators.generated.ts, which schema.ts checks lines with; schema.ts loads this module (and TypeBox) only
 * to describe why a line failed.
 */
import { type TSchema, Type } from "@sinclair/typebox";

const Str = Type.String();
const OptStr = Type.Optional(Type.String());
const Id = Type.String({ minLength: 1 });
const Block = Type.Object({ type: Type.String() });
const Blocks = Type.Array(Block);
const UserContent = Type.Union([Type.String(), Blocks]);
const Loose = Type.Object({});

function entry<T extends string, P extends Record<string, TSchema>>(type: T, props: P) {
	return Type.Object({
		type: Type.Literal(type),
		id: Id,
		parentId: Type.Union([Id, Type.Null()]),
		timestamp: Str,
		...props,
	});
}

export const SessionHeaderSchema = Type.Object({
	type: Type.Literal("session"),
	id: Id,
	version: Type.Optional(Type.Number()),
	timestamp: OptStr,
	cwd: OptStr,
	parentSession: OptStr,
});

export const SystemMessageSchema = Type.Object({
	role: Type.Literal("system"),
	content: UserContent,
	sections: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()]))),
	toolsAdded: Type.Optional(Type.Array(Type.Object({ name: Str }))),
	toolsRemoved: Type.Optional(Type.Array(Type.Object({ name: Str }))),
});

/** The entry union (discriminated on `type`). */
export const SessionEntrySchema = Type.Union([
	entry("message", { message: Type.Object({ role: Str }) }),
	entry("thinking_level_change", { thinkingLevel: Str }),
	entry("model_change", { provider: Str, modelId: Str }),
	entry("usage", { kind: Str, provider: Str, model: Str, usage: Loose, note: OptStr }),
	entry("compaction", {
		summary: Str,
		firstKeptEntryId: Id,
		tokensBefore: Type.Number(),
		usage: Type.Optional(Loose),
		fromHook: Type.Optional(Type.Boolean()),
		systemMessage: Type.Optional(SystemMessageSchema),
	}),
	entry("branch_summary", {
		fromId: Str,
		summary: Str,
		usage: Type.Optional(Loose),
		fromHook: Type.Optional(Type.Boolean()),
	}),
	entry("custom", { customType: Str }),
	entry("custom_message", { customType: Str, content: UserContent, display: Type.Boolean() }),
	entry("context_edit", {
		targetId: Id,
		replacement: Type.Union([Type.Null(), Type.Object({ content: UserContent })]),
	}),
	entry("label", { targetId: Id, label: Type.Optional(Type.Union([Type.String(), Type.Null()])) }),
	entry("session_info", { name: Type.Optional(Type.Union([Type.String(), Type.Null()])) }),
]);

/** Envelope every entry needs, known type or not. */
export const EntryEnvelopeSchema = Type.Object({
	type: Str,
	id: Id,
	parentId: Type.Union([Id, Type.Null()]),
	timestamp: Str,
});

const OptNumber = Type.Optional(Type.Number());

/** Stored messages by role; roles not listed here only need `role`. */
export const MessageSchemas: Record<string, TSchema> = {
	user: Type.Object({ role: Type.Literal("user"), content: UserContent, timestamp: OptNumber }),
	assistant: Type.Object({
		role: Type.Literal("assistant"),
		content: Blocks,
		provider: OptStr,
		model: OptStr,
		usage: Type.Optional(Loose),
		stopReason: OptStr,
	}),
	toolResult: Type.Object({ role: Type.Literal("toolResult"), toolCallId: Str, content: Blocks }),
	bashExecution: Type.Object({ role: Type.Literal("bashExecution"), command: Str, output: Str }),
	custom: Type.Object({ role: Type.Literal("custom"), customType: Str, content: UserContent }),
	branchSummary: Type.Object({ role: Type.Literal("branchSummary"), summary: Str }),
	compactionSummary: Type.Object({ role: Type.Literal("compactionSummary"), summary: Str }),
	system: SystemMessageSchema,
};

/**
 * Every schema a session file is checked against, by name ("header", "envelope", "entry:<type>",
 * "message:<role>"). scripts/gen-validators.ts compiles them ahead of time into validators.generated.ts, so
 * opening a session never pays TypeBox's run-time compilation (10–30 ms for these schemas in a fresh process).
 */
export function sessionValidatorSchemas(): Record<string, TSchema> {
	const out: Record<string, TSchema> = { header: SessionHeaderSchema, envelope: EntryEnvelopeSchema };
	for (const variant of SessionEntrySchema.anyOf) out[`entry:${variant.properties.type.const}`] = variant;
	for (const [role, schema] of Object.entries(MessageSchemas)) out[`message:${role}`] = schema;
	return out;
}
