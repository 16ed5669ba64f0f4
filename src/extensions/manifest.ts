/**
 * A folder's package.json as pi reads it for resources: the `pi` object's `extensions`, `skills`, `prompts` and
 * `themes` lists (paths, globs, and `!`/`+`/`-` filters; see util/resource-patterns.ts), and whether it lists a
 * host-provided package as its own dependency. As in pi 0.87.1 a folder "has a manifest" when package.json holds a
 * `pi` object, whatever lists it has; a list that is not an array of strings is ignored (with a warning), and a
 * package.json that cannot be read or parsed counts as none (with an error naming the file).
 */

import { join } from "node:path";
import { errorMessage, readFileSync } from "../util/index.ts";
import type { ExtensionDiagnostic } from "./types.ts";

export const RESOURCE_KINDS = ["extensions", "skills", "prompts", "themes"] as const;
export type PackageResourceKind = (typeof RESOURCE_KINDS)[number];

export type PiManifest = Partial<Record<PackageResourceKind, string[]>>;

export interface ManifestRead {
	/** The `pi` object's lists, or undefined when the folder has no usable package.json with a `pi` object. */
	pi?: PiManifest;
	diagnostics: ExtensionDiagnostic[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

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
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { diagnostics: [] };
		return { diagnostics: [{ level: "error", path: file, message: `cannot read: ${errorMessage(error)}` }] };
	}
	let raw: unknown;
	try {
		raw = JSON.parse(text.replace(/^\uFEFF/, ""));
	} catch (error) {
		return { diagnostics: [{ level: "error", path: file, message: `invalid JSON: ${errorMessage(error)}` }] };
	}
	if (!isObject(raw)) return { diagnostics: [{ level: "error", path: file, message: "is not a JSON object" }] };
	const diagnostics: ExtensionDiagnostic[] = [];
	const dependencies = isObject(raw.dependencies) ? Object.keys(raw.dependencies) : [];
	for (const name of dependencies) {
		if (isHostPackage(name)) {
			diagnostics.push({
				level: "warning",
				path: file,
				message: `"${name}" is provided by pi; list it in peerDependencies (the bundled copy is used)`,
			});
		}
	}
	if (!isObject(raw.pi)) return { diagnostics };
	const pi: PiManifest = {};
	for (const kind of RESOURCE_KINDS) {
		const list = raw.pi[kind];
		if (list === undefined) continue;
		if (Array.isArray(list) && list.every((entry) => typeof entry === "string")) pi[kind] = list as string[];
		else diagnostics.push({ level: "warning", path: file, message: `pi.${kind} is not a list of paths; ignored` });
	}
	return { pi, diagnostics };
}
