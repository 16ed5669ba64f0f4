/**
 * Prompt templates: Markdown files that become `/name` commands. The file name (without `.md`) is the command;
 * frontmatter may give `description` (otherwise the first non-empty body line, cut at 60 characters + "...") and
 * `argument-hint`.
 *
 * Arguments are split like a shell would for simple cases: spaces and tabs separate, `"…"` and `'…'` group
 * (quotes may sit inside a word, `a"b c"` is one argument `ab c`), and there are no escapes. In the body:
 *   `$1`, `$2`, …            one argument ("" when missing)
 *   `$@`, `$ARGUMENTS`       all arguments joined by single spaces
 *   `${N:-default}`          argument N, or `default` when it is missing or empty
 *   `${@:-default}`          all arguments, or `default` when there are none (also `${ARGUMENTS:-default}`)
 *   `${@:N}`                 arguments from the N-th on (N counts from 1; 0 counts as 1)
 *   `${@:N:L}`               L arguments from the N-th
 * Substitution is one pass over the template: text coming from arguments is never substituted again.
 */
import { errorMessage, readFileSync } from "../util/index.ts";
import { stem } from "./collect.ts";
import { parseFrontmatter } from "./frontmatter.ts";
import type { PromptTemplate, ResourceCandidate, ResourceDiagnostic } from "./types.ts";

const DESCRIPTION_LIMIT = 60;

export interface PromptLoad {
	template?: PromptTemplate;
	diagnostics: ResourceDiagnostic[];
}

export function loadPromptFile(candidate: ResourceCandidate): PromptLoad {
	const { path, sourceInfo } = candidate;
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		return { diagnostics: [{ type: "warning", message: `cannot read prompt template: ${errorMessage(error)}`, path }] };
	}
	let parsed: { frontmatter: Record<string, unknown>; body: string };
	try {
		parsed = parseFrontmatter(text);
	} catch (error) {
		const message = `prompt template not loaded: invalid frontmatter: ${errorMessage(error)}`;
		return { diagnostics: [{ type: "warning", message, path }] };
	}
	const { frontmatter, body } = parsed;
	let description = typeof frontmatter.description === "string" ? frontmatter.description : "";
	if (description === "") {
		const first = body.split("\n").find((line) => line.trim() !== "") ?? "";
		description = first.length > DESCRIPTION_LIMIT ? `${first.slice(0, DESCRIPTION_LIMIT)}...` : first;
	}
	const hint = frontmatter["argument-hint"];
	const template: PromptTemplate = { name: stem(path), description, content: body, sourceInfo, filePath: path };
	if (typeof hint === "string" && hint !== "") template.argumentHint = hint;
	return { template, diagnostics: [] };
}

/** Splits an argument string: whitespace separates, single or double quotes group, no escapes; empty arguments are dropped. */
export function parseCommandArgs(input: string): string[] {
	const args: string[] = [];
	let word = "";
	let quote: string | undefined;
	for (const c of input) {
		if (quote !== undefined) {
			if (c === quote) quote = undefined;
			else word += c;
		} else if (c === '"' || c === "'") {
			quote = c;
		} else if (/\s/.test(c)) {
			if (word !== "") args.push(word);
			word = "";
		} else {
			word += c;
		}
	}
	if (word !== "") args.push(word);
	return args;
}

const PLACEHOLDER = /\$\{(@|ARGUMENTS|\d+):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(ARGUMENTS|@|\d+)/g;

/** Replaces the argument placeholders of a template body (see the file comment for the forms). */
export function substituteArgs(content: string, args: readonly string[]): string {
	const all = args.join(" ");
	const positional = (n: string) => args[Number(n) - 1] ?? "";
	return content.replace(
		PLACEHOLDER,
		(_m, defTarget?: string, defValue?: string, start?: string, length?: string, simple?: string) => {
			if (defTarget !== undefined) {
				const value = defTarget === "@" || defTarget === "ARGUMENTS" ? all : positional(defTarget);
				return value === "" ? (defValue ?? "") : value;
			}
			if (start !== undefined) {
				const from = Math.max(Number(start) - 1, 0);
				const slice = length === undefined ? args.slice(from) : args.slice(from, from + Number(length));
				return slice.join(" ");
			}
			return simple === "@" || simple === "ARGUMENTS" ? all : positional(simple ?? "0");
		},
	);
}

/** `/name args` → the template body with its arguments filled in; any other text is returned unchanged. */
export function expandPromptTemplate(text: string, templates: readonly PromptTemplate[]): string {
	const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text);
	if (!match) return text;
	const template = templates.find((t) => t.name === match[1]);
	if (!template) return text;
	return substituteArgs(template.content, parseCommandArgs(match[2] ?? ""));
}
