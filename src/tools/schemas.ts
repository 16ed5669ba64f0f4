/**
 * The built-in tools' parameter schemas (TypeBox), the source of truth for what the model is told. At run time the
 * tools use src/tools/schemas.generated.ts, these same objects as literals written by scripts/gen-tool-schemas.ts,
 * so a start-up builds no schema and loads no TypeBox.
 */
import { Type } from "@sinclair/typebox";

export const readSchema = Type.Object({
	path: Type.String({ description: "File to read: absolute, or relative to the working directory" }),
	offset: Type.Optional(Type.Number({ description: "Line to start at (1 = first line)" })),
	limit: Type.Optional(Type.Number({ description: "Largest number of lines to return" })),
});

export const bashSchema = Type.Object({
	command: Type.String({ description: "Bash command to execute" }),
	timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (optional, no default timeout)" })),
});

const editEntrySchema = Type.Object({
	oldText: Type.String({ description: "Text to replace; must match the file exactly and occur once" }),
	newText: Type.String({ description: "Text to put in its place" }),
});

export const editSchema = Type.Object({
	path: Type.String({ description: "File to edit: absolute, or relative to the working directory" }),
	edits: Type.Array(editEntrySchema, {
		description: "Replacements, each located in the original file; they must not overlap",
	}),
});

export const writeSchema = Type.Object({
	path: Type.String({ description: "File to write: absolute, or relative to the working directory" }),
	content: Type.String({ description: "The complete new content of the file" }),
});

export const grepSchema = Type.Object({
	pattern: Type.String({ description: "Search pattern (regex or literal string)" }),
	path: Type.Optional(Type.String({ description: "Directory or file to search (default: current directory)" })),
	glob: Type.Optional(Type.String({ description: "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" })),
	ignoreCase: Type.Optional(Type.Boolean({ description: "Case-insensitive search (default: false)" })),
	literal: Type.Optional(
		Type.Boolean({ description: "Treat pattern as literal string instead of regex (default: false)" }),
	),
	context: Type.Optional(
		Type.Number({ description: "Number of lines to show before and after each match (default: 0)" }),
	),
	limit: Type.Optional(Type.Number({ description: "Maximum number of matches to return (default: 100)" })),
});

export const findSchema = Type.Object({
	pattern: Type.String({
		description: "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'",
	}),
	path: Type.Optional(Type.String({ description: "Directory to search in (default: current directory)" })),
	limit: Type.Optional(Type.Number({ description: "Maximum number of results (default: 1000)" })),
});

export const lsSchema = Type.Object({
	path: Type.Optional(Type.String({ description: "Directory to list (default: current directory)" })),
	limit: Type.Optional(Type.Number({ description: "Maximum number of entries to return (default: 500)" })),
});
