/**
 * Folders as pi 0.87.1 reads them for extensions and package resources.
 *
 * `extensionEntriesOf(dir)` — one extension folder: its package.json `pi.extensions` (the listed files that exist),
 * else `index.ts`, else `index.js`.
 * `autoExtensionEntries(dir)` — a folder of extensions (`~/.pi/agent/extensions`, `.pi/extensions`, a folder named
 * in settings): the folder's own entries if it is an extension folder, else its `.ts`/`.js` files and the entries
 * of its sub-folders, one level deep.
 * `resolvePackageFolder(dir)` — a folder given as a package source (`-e <dir>`):
 *   1. package.json with a `pi` object: exactly what its lists name (folders in a list are searched by the rules
 *      of their kind; globs expand; `!`, `+` and `-` entries filter);
 *   2. otherwise the conventional `extensions/`, `skills/`, `prompts/` and `themes/` folders that exist;
 *   3. otherwise the folder itself is one extension (package.json `main`, `index.ts` or `index.js`).
 * Within a resource folder: skills are `SKILL.md` files (a folder holding one is not searched further) and the
 * loose `.md` files at its top; prompt templates are `.md` and themes `.json` files at any depth. Names starting
 * with `.` and `node_modules` are skipped everywhere; symlinks are followed. Everything is sorted by name.
 */

import { join, relative, resolve, sep } from "node:path";
import {
	applyPatterns,
	existsSync,
	isGlob,
	isOverrideEntry,
	matchGlob,
	readdirSync,
	readFileSync,
	statSync,
} from "../util/index.ts";
import { type PackageResourceKind, type PiManifest, readManifest } from "./manifest.ts";
import type { ExtensionDiagnostic } from "./types.ts";

type Kind = "file" | "dir" | "missing";

function kindOf(path: string): Kind {
	try {
		const stats = statSync(path);
		return stats.isDirectory() ? "dir" : stats.isFile() ? "file" : "missing";
	} catch {
		// Missing, unreadable or a broken symlink: nothing to load there.
		return "missing";
	}
}

export const isDirectory = (path: string): boolean => kindOf(path) === "dir";

/** A folder's visible children in name order (no dot names, no node_modules); only symlinks cost a stat. */
function children(dir: string): { name: string; path: string; kind: Kind }[] {
	let entries: import("node:fs").Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		// An unreadable folder contributes nothing.
		return [];
	}
	return entries
		.filter((entry) => !entry.name.startsWith(".") && entry.name !== "node_modules")
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
		.map((entry) => {
			const path = join(dir, entry.name);
			const kind: Kind = entry.isDirectory()
				? "dir"
				: entry.isFile()
					? "file"
					: entry.isSymbolicLink()
						? kindOf(path)
						: "missing";
			return { name: entry.name, path, kind };
		});
}

export interface FolderRead {
	diagnostics: ExtensionDiagnostic[];
	isHostPackage: (name: string) => boolean;
}

/** One extension folder's entry files, or undefined when it is not one. */
export function extensionEntriesOf(dir: string, read: FolderRead): string[] | undefined {
	const manifest = readManifest(dir, read.isHostPackage);
	read.diagnostics.push(...manifest.diagnostics);
	const listed = manifest.pi?.extensions;
	if (listed && listed.length > 0) {
		const reported = read.diagnostics.length;
		const found = expandList(dir, listed, "extensions", read);
		if (found.length > 0) return found;
		// Missing files named in the list have been reported one by one already.
		if (read.diagnostics.length === reported)
			read.diagnostics.push({
				level: "warning",
				path: join(dir, "package.json"),
				message: "pi.extensions names no existing file",
			});
	}
	for (const index of ["index.ts", "index.js"]) {
		const path = join(dir, index);
		if (kindOf(path) === "file") return [path];
	}
	return undefined;
}

/** A folder of extensions (or an extension folder itself). */
export function autoExtensionEntries(dir: string, read: FolderRead): string[] {
	if (!isDirectory(dir)) return [];
	const own = extensionEntriesOf(dir, read);
	if (own) return own;
	return children(dir).flatMap((child) => {
		// A declaration file has no code to run (pi would try it and fail): skipped.
		if (child.kind === "file")
			return /\.(ts|js)$/.test(child.name) && !child.name.endsWith(".d.ts") ? [child.path] : [];
		return child.kind === "dir" ? (extensionEntriesOf(child.path, read) ?? []) : [];
	});
}

function skillFiles(dir: string, top = true): string[] {
	const found = children(dir);
	const skill = found.find((c) => c.name === "SKILL.md" && c.kind === "file");
	if (skill) return [skill.path];
	return found.flatMap((c) => {
		if (c.kind === "dir") return skillFiles(c.path, false);
		return top && c.kind === "file" && c.name.endsWith(".md") ? [c.path] : [];
	});
}

function filesBySuffix(dir: string, suffix: string): string[] {
	return children(dir).flatMap((c) => {
		if (c.kind === "dir") return filesBySuffix(c.path, suffix);
		return c.kind === "file" && c.name.endsWith(suffix) ? [c.path] : [];
	});
}

/** The files of one kind inside a folder. */
function filesOfKind(dir: string, kind: PackageResourceKind, read: FolderRead): string[] {
	if (kind === "extensions") return autoExtensionEntries(dir, read);
	if (kind === "skills") return skillFiles(dir);
	return filesBySuffix(dir, kind === "prompts" ? ".md" : ".json");
}

/** Paths under `root` whose relative path matches `pattern` (files and folders, no dot segments), sorted. */
function globMatches(root: string, pattern: string): string[] {
	const normalised = pattern.replace(/^\.\//, "");
	const out: string[] = [];
	const walk = (dir: string) => {
		for (const child of children(dir)) {
			const rel = relative(root, child.path).split(sep).join("/");
			if (matchGlob(normalised, rel)) out.push(child.path);
			if (child.kind === "dir") walk(child.path);
		}
	};
	walk(root);
	return out.sort();
}

/** A manifest list: paths and globs give files (folders searched by their kind), then `!`/`+`/`-` filter them. */
function expandList(root: string, list: string[], kind: PackageResourceKind, read: FolderRead): string[] {
	const files: string[] = [];
	for (const entry of list.filter((e) => !isOverrideEntry(e))) {
		for (const path of isGlob(entry) ? globMatches(root, entry) : [resolve(root, entry)]) {
			const found = kindOf(path);
			if (found === "missing" && !isGlob(entry)) {
				read.diagnostics.push({
					level: "warning",
					path: join(root, "package.json"),
					message: `pi.${kind} names "${entry}", which does not exist`,
				});
			}
			const more = found === "file" ? [path] : found === "dir" ? filesOfKind(path, kind, read) : [];
			for (const file of more) if (!files.includes(file)) files.push(file);
		}
	}
	const enabled = applyPatterns(files, list.filter(isOverrideEntry), root);
	return files.filter((file) => enabled.has(file));
}

export interface PackageFolder {
	/** Extension paths to load; a folder loaded as one extension is listed as the folder, with its entry `file`. */
	extensions: { path: string; file?: string }[];
	skills: string[];
	prompts: string[];
	themes: string[];
}

function manifestResources(root: string, pi: PiManifest, read: FolderRead): PackageFolder {
	const list = (kind: PackageResourceKind) => (pi[kind] ? expandList(root, pi[kind], kind, read) : []);
	return {
		extensions: list("extensions").map((path) => ({ path })),
		skills: list("skills"),
		prompts: list("prompts"),
		themes: list("themes"),
	};
}

/**
 * The files of a package's conventional folder of one kind (`<root>/<kind>`), or none when it does not exist. pi
 * reads it for a settings entry in object form whose package manifest has no list of that kind.
 */
export function conventionalFiles(root: string, kind: PackageResourceKind, read: FolderRead): string[] {
	const dir = join(root, kind);
	return isDirectory(dir) ? filesOfKind(dir, kind, read) : [];
}

/** Whether a folder's package.json holds a `pi` manifest, and how many entries it lists of each kind it names. */
export function manifestKinds(root: string): Map<PackageResourceKind, number> | undefined {
	const manifest = readManifest(root, () => false);
	if (!manifest.pi) return undefined;
	return new Map(Object.entries(manifest.pi).map(([kind, list]) => [kind as PackageResourceKind, list.length]));
}

/** pi's rules for a folder given as a package source (see the top of this file). */
export function resolvePackageFolder(root: string, read: FolderRead): PackageFolder {
	const manifest = readManifest(root, read.isHostPackage);
	read.diagnostics.push(...manifest.diagnostics);
	if (manifest.pi) return manifestResources(root, manifest.pi, read);
	const conventional = (kind: PackageResourceKind) => join(root, kind);
	const kinds = (["extensions", "skills", "prompts", "themes"] as const).filter((k) => isDirectory(conventional(k)));
	if (kinds.length > 0) {
		const of = (kind: PackageResourceKind) => (kinds.includes(kind) ? filesOfKind(conventional(kind), kind, read) : []);
		return {
			extensions: of("extensions").map((path) => ({ path })),
			skills: of("skills"),
			prompts: of("prompts"),
			themes: of("themes"),
		};
	}
	const entry = folderEntry(root, read);
	return { extensions: entry ? [{ path: root, file: entry }] : [], skills: [], prompts: [], themes: [] };
}

/** The module a folder loaded as one extension starts from: package.json `main`, `index.ts`, `index.js`. */
function folderEntry(root: string, read: FolderRead): string | undefined {
	const main = mainOf(root);
	const candidates = [
		...(main ? [resolve(root, main), `${resolve(root, main)}.ts`, `${resolve(root, main)}.js`] : []),
		join(root, "index.ts"),
		join(root, "index.js"),
	];
	const found = candidates.find((path) => kindOf(path) === "file");
	if (!found) {
		read.diagnostics.push({
			level: "error",
			path: root,
			message:
				"is not an extension package: no package.json `pi` manifest, no extensions/, skills/, prompts/ or themes/ folder, and no index.ts or index.js",
		});
	}
	return found;
}

function mainOf(root: string): string | undefined {
	const file = join(root, "package.json");
	if (!existsSync(file)) return undefined;
	try {
		const main = (JSON.parse(readFileSync(file, "utf8")) as { main?: unknown }).main;
		return typeof main === "string" ? main : undefined;
	} catch {
		// readManifest has already reported a broken package.json.
		return undefined;
	}
}
