/**
 * An extension folder's package.json: which entry files it declares (`pi.extensions`, globs and `!` exclusions
 * allowed) and whether it lists a host-provided package as its own dependency.
 */

import { join, relative, resolve, sep } from "node:path";
import { errorMessage, isGlob, matchGlob, readdirSync, readFileSync, statSync, typebox } from "../util/index.ts";
import type { ExtensionDiagnostic } from "./types.ts";

/** The package.json fields pi reads, built on first use (only packages with extensions are read). */
let manifestSchema: ReturnType<typeof buildManifest> | undefined;
const buildManifest = () => {
	const { Type } = typebox();
	return Type.Object({
		dependencies: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
		pi: Type.Optional(Type.Object({ extensions: Type.Optional(Type.Array(Type.String())) })),
	});
};
const manifest = () => {
	manifestSchema ??= buildManifest();
	return manifestSchema;
};

export interface ManifestRead {
	/** Declared entry files (absolute), or undefined when the manifest declares none. */
	entries?: string[];
	diagnostics: ExtensionDiagnostic[];
}

/**
 * Reads `<dir>/package.json` if present. `isHostPackage` tells which dependency names pi provides itself
 * (those get a warning: the host copy is used, not the extension's).
 */
export function readManifest(dir: string, isHostPackage: (name: string) => boolean): ManifestRead {
	const file = join(dir, "package.json");
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { diagnostics: [] };
		return { diagnostics: [{ level: "error", path: file, message: `cannot read: ${errorMessage(error)}` }] };
	}
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch (error) {
		return { diagnostics: [{ level: "error", path: file, message: `invalid JSON: ${errorMessage(error)}` }] };
	}
	const { Check, Errors } = typebox();
	if (!Check(manifest(), raw)) {
		const first = Errors(manifest(), raw).First();
		const where = first ? first.path || "/" : "/";
		return {
			diagnostics: [{ level: "error", path: file, message: `invalid manifest at ${where}: ${first?.message}` }],
		};
	}
	const diagnostics: ExtensionDiagnostic[] = [];
	for (const name of Object.keys(raw.dependencies ?? {})) {
		if (isHostPackage(name)) {
			diagnostics.push({
				level: "warning",
				path: file,
				message: `"${name}" is provided by pi; list it in peerDependencies (the bundled copy is used)`,
			});
		}
	}
	const patterns = raw.pi?.extensions;
	if (!patterns) return { diagnostics };
	return { entries: expandEntryPatterns(dir, patterns, diagnostics, file), diagnostics };
}

function expandEntryPatterns(
	dir: string,
	patterns: string[],
	diagnostics: ExtensionDiagnostic[],
	manifestPath: string,
): string[] {
	const include = patterns.filter((p) => !p.startsWith("!"));
	const exclude = patterns.filter((p) => p.startsWith("!")).map((p) => normalize(p.slice(1)));
	const result: string[] = [];
	for (const pattern of include) {
		const matches = isGlob(pattern) ? globFiles(dir, normalize(pattern)) : [resolve(dir, pattern)];
		if (matches.length === 0) {
			diagnostics.push({ level: "warning", path: manifestPath, message: `pi.extensions "${pattern}" matches no file` });
		}
		for (const file of matches) {
			const rel = relative(dir, file).split(sep).join("/");
			if (!exclude.some((ex) => matchGlob(ex, rel)) && !result.includes(file)) result.push(file);
		}
	}
	return result;
}

function normalize(pattern: string): string {
	return pattern.replace(/^\.\//, "");
}

/** Files under `dir` (not node_modules, not dot-folders) whose relative path matches the glob, sorted. */
function globFiles(dir: string, pattern: string): string[] {
	const out: string[] = [];
	const walk = (current: string, rel: string) => {
		let names: string[];
		try {
			names = readdirSync(current).sort();
		} catch {
			// An unreadable folder holds no entries we could load; the "matches no file" warning covers it.
			return;
		}
		for (const name of names) {
			if (name === "node_modules" || name.startsWith(".")) continue;
			const abs = join(current, name);
			const relPath = rel ? `${rel}/${name}` : name;
			if (isDirectory(abs)) walk(abs, relPath);
			else if (matchGlob(pattern, relPath)) out.push(abs);
		}
	};
	walk(dir, "");
	return out;
}

export function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		// Missing or unreadable: not a directory we can descend into.
		return false;
	}
}
