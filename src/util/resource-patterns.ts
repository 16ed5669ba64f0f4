/**
 * Resource lists in settings (`skills`, `prompts`, `themes`, `extensions`) hold paths and patterns:
 *   - a plain entry is a file or folder to load (relative to the settings file's base dir);
 *   - an entry with `*` or `?` keeps only the listed files it matches;
 *   - `!pattern` drops files matching the glob;
 *   - `+path` puts back one exact path (even if a `!pattern` dropped it);
 *   - `-path` drops one exact path (even if `+path` put it back).
 * The `!`, `+` and `-` entries also apply to the same scope's auto-discovered resources.
 * A pattern is tried against the path relative to the base dir, the file name, and the absolute path; for a
 * `SKILL.md` also against its folder (so `-skills/pdf` disables that skill).
 */
import { basename, dirname, isAbsolute, relative } from "node:path";
import { isGlob, matchGlob } from "./glob.ts";
import { expandHome } from "./home.ts";

export function isOverrideEntry(entry: string): boolean {
	return entry.startsWith("!") || entry.startsWith("+") || entry.startsWith("-");
}

/** Plain entries are paths to load; everything else filters. */
export function isPatternEntry(entry: string): boolean {
	return isOverrideEntry(entry) || entry.includes("*") || entry.includes("?");
}

const posix = (path: string) => path.replace(/\\/g, "/");

/** The names a file can be matched by: relative path, file name, absolute path (and its folder's, for SKILL.md). */
function forms(file: string, baseDir: string): string[] {
	const out = [posix(relative(baseDir, file)), basename(file), posix(file)];
	if (basename(file) === "SKILL.md") {
		const dir = dirname(file);
		out.push(posix(relative(baseDir, dir)), basename(dir), posix(dir));
	}
	return out;
}

function matchesGlob(file: string, pattern: string, baseDir: string): boolean {
	const p = posix(expandHome(pattern));
	return forms(file, baseDir).some((form) => (isGlob(p) ? matchGlob(p, form) : p === form));
}

function matchesExact(file: string, pattern: string, baseDir: string): boolean {
	let p = posix(expandHome(pattern));
	if (p.startsWith("./")) p = p.slice(2);
	p = p.replace(/\/+$/, "");
	const rel = posix(relative(baseDir, file));
	const candidates = [rel, posix(file)];
	if (basename(file) === "SKILL.md") candidates.push(posix(relative(baseDir, dirname(file))), posix(dirname(file)));
	return candidates.includes(isAbsolute(p) ? posix(p) : p);
}

/** Which of `files` (listed by plain entries) stay enabled under the list's pattern entries. */
export function applyPatterns(files: readonly string[], entries: readonly string[], baseDir: string): Set<string> {
	const includes = entries.filter((e) => !isOverrideEntry(e) && isPatternEntry(e));
	const excludes = entries.filter((e) => e.startsWith("!")).map((e) => e.slice(1));
	const forceIn = entries.filter((e) => e.startsWith("+")).map((e) => e.slice(1));
	const forceOut = entries.filter((e) => e.startsWith("-")).map((e) => e.slice(1));
	const enabled = new Set<string>();
	for (const file of files) {
		let on = includes.length === 0 || includes.some((p) => matchesGlob(file, p, baseDir));
		if (on && excludes.some((p) => matchesGlob(file, p, baseDir))) on = false;
		if (!on && forceIn.some((p) => matchesExact(file, p, baseDir))) on = true;
		if (on && forceOut.some((p) => matchesExact(file, p, baseDir))) on = false;
		if (on) enabled.add(file);
	}
	return enabled;
}

/** Whether an auto-discovered file stays enabled under a settings list's `!`, `+` and `-` entries. */
export function enabledByOverrides(file: string, entries: readonly string[], baseDir: string): boolean {
	return applyPatterns([file], entries.filter(isOverrideEntry), baseDir).has(file);
}
