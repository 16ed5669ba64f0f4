/**
 * Turning a path the model wrote into one on disk: a leading `@` dropped, unusual Unicode spaces made plain, `~`
 * expanded, relative paths resolved against the session's cwd. Paths outside cwd are allowed (as in pi).
 */
import { isAbsolute, resolve } from "node:path";
import { expandHome } from "../util/index.ts";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

export function normalizeToolPath(path: string): string {
	let p = path.trim();
	if (p.startsWith("@")) p = p.slice(1);
	return p.replace(UNICODE_SPACES, " ");
}

export function resolveToolPath(path: string, cwd: string): string {
	const p = expandHome(normalizeToolPath(path));
	return isAbsolute(p) ? p : resolve(cwd, p);
}

/**
 * Other spellings to try when `read` does not find a file: macOS screenshot names (narrow no-break space before
 * AM/PM), NFD normalisation, and a curly apostrophe.
 */
export function readPathVariants(path: string): string[] {
	const variants = new Set<string>();
	variants.add(path.replace(/ (AM|PM)\./g, "\u202F$1."));
	variants.add(path.normalize("NFD"));
	variants.add(path.replace(/'/g, "\u2019"));
	variants.delete(path);
	return [...variants];
}
