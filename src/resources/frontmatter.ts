/**
 * Markdown frontmatter: a YAML block between a first line starting with `---` and the next line starting with
 * `---`. Line endings are normalised to `\n` and a byte-order mark is dropped. Text without frontmatter gives `{}`
 * and the whole text as body. Malformed YAML throws (callers decide whether that skips the file).
 */
import { parseYaml, YamlError } from "./yaml.ts";

export interface Frontmatter<T = Record<string, unknown>> {
	frontmatter: T;
	body: string;
}

function normalise(text: string): string {
	return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, "\n");
}

/** Splits the YAML header from the body; `yaml` is undefined when there is no header. */
function split(text: string): { yaml: string | undefined; body: string } {
	const normalised = normalise(text);
	if (!normalised.startsWith("---")) return { yaml: undefined, body: normalised };
	const end = normalised.indexOf("\n---", 3);
	if (end === -1) return { yaml: undefined, body: normalised };
	const firstBreak = normalised.indexOf("\n");
	const bodyStart = normalised.indexOf("\n", end + 4);
	return {
		yaml: normalised.slice(firstBreak + 1, end),
		body: bodyStart === -1 ? "" : normalised.slice(bodyStart + 1).trim(),
	};
}

export function parseFrontmatter<T = Record<string, unknown>>(text: string): Frontmatter<T> {
	const { yaml, body } = split(text);
	if (yaml === undefined) return { frontmatter: {} as T, body };
	const parsed = parseYaml(yaml);
	if (parsed === null) return { frontmatter: {} as T, body };
	if (typeof parsed !== "object" || Array.isArray(parsed)) {
		throw new YamlError("frontmatter must be a mapping of keys to values", 1);
	}
	return { frontmatter: parsed as T, body };
}

/** The body without its frontmatter (never throws). */
export function stripFrontmatter(text: string): string {
	return split(text).body;
}
