/**
 * Frontmatter as pi-agent-core's env loaders read it: line endings normalised, a `---` first line, YAML up to the
 * next `\n---`, the rest trimmed as the body. A YAML error is returned, not thrown.
 */
import { err, ok, type Result, toError } from "../agent/index.ts";
import { parseYaml } from "./yaml.ts";

export interface EnvFrontmatter {
	frontmatter: Record<string, unknown>;
	body: string;
}

export function parseEnvFrontmatter(content: string): Result<EnvFrontmatter, Error> {
	try {
		const text = content.replace(/\r\n?/g, "\n");
		if (!text.startsWith("---")) return ok({ frontmatter: {}, body: text });
		const end = text.indexOf("\n---", 3);
		if (end === -1) return ok({ frontmatter: {}, body: text });
		const data = parseYaml(text.slice(4, end)) ?? {};
		return ok({ frontmatter: data as Record<string, unknown>, body: text.slice(end + 4).trim() });
	} catch (error) {
		return err(toError(error));
	}
}
