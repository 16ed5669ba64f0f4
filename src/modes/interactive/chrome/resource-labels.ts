/**
 * Short labels for the start-up summary's collapsed lists. A local extension is named by the fewest trailing path
 * segments that tell it apart from the other local extensions (`index.ts`/`index.js` dropped, so a folder extension
 * is its folder's name); an extension from a package is `<package>` for its index, else `<package>:<path>`.
 */
import { posix } from "node:path";

export interface LabelledExtension {
	path: string;
	/** Where it came from: `npm:<name>`, `git:<host>/<path>`, or absent/`local`/`cli` for files. */
	source?: string;
	/** The path inside its package (for package extensions). */
	packagePath?: string;
}

/** The path as shown to people: the home folder as `~`. */
export function displayPath(path: string, home: string | undefined): string {
	return home && path.startsWith(home) ? `~${path.slice(home.length)}` : path;
}

function segmentsOf(path: string, home: string | undefined): string[] {
	const segments = displayPath(path, home)
		.replace(/\\/g, "/")
		.split("/")
		.filter((segment) => segment.length > 0 && segment !== "~");
	const last = segments[segments.length - 1];
	if (segments.length > 1 && (last === "index.ts" || last === "index.js")) segments.pop();
	return segments;
}

function isPackage(source: string | undefined): boolean {
	return source !== undefined && (source.startsWith("npm:") || source.startsWith("git:"));
}

function packageLabel(extension: LabelledExtension): string {
	const source = extension.source ?? "";
	const name = source.startsWith("npm:") ? source.slice(4) : source.slice(4).replace(/^[^/]+\//, "");
	const inside = (extension.packagePath ?? "").replace(/\\/g, "/").replace(/^extensions\//, "");
	const parsed = posix.parse(inside);
	if (!inside || parsed.name === "index") return !parsed.dir || parsed.dir === "." ? name : `${name}:${parsed.dir}`;
	return `${name}:${inside}`;
}

/** One label per extension, in the order given. */
export function compactExtensionLabels(extensions: LabelledExtension[], home: string | undefined): string[] {
	const local = extensions
		.filter((extension) => !isPackage(extension.source))
		.map((extension) => ({ path: extension.path, segments: segmentsOf(extension.path, home) }));
	return extensions.map((extension) => {
		if (isPackage(extension.source)) return packageLabel(extension);
		const mine = local.find((item) => item.path === extension.path);
		if (!mine || mine.segments.length === 0) return extension.path;
		for (let count = 1; count <= mine.segments.length; count++) {
			const candidate = mine.segments.slice(-count).join("/");
			const clash = local.some((other) => other !== mine && other.segments.slice(-count).join("/") === candidate);
			if (!clash) return candidate;
		}
		return mine.segments.join("/");
	});
}
