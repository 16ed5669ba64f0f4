/**
 * Where pi's own files are: the package folder (next to the binary when compiled; the folder holding
 * package.json when run from source), its README.md, docs/ and examples/. `PI_PACKAGE_DIR` overrides the folder.
 */
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync, expandHome } from "../util/index.ts";

const compiled = /\$bunfs|~BUN|%7EBUN/.test(import.meta.url);

function packageRootAbove(start: string): string {
	for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
		if (!existsSync(join(dir, "package.json"))) continue;
		// A build that keeps its own package.json in dist/ still belongs to the package above it.
		const parent = dirname(dir);
		return basename(dir) === "dist" && existsSync(join(parent, "package.json")) ? parent : dir;
	}
	return start;
}

export function getPackageDir(): string {
	const override = process.env.PI_PACKAGE_DIR;
	if (override) {
		const expanded = expandHome(override);
		return expanded.startsWith("file://") ? fileURLToPath(expanded) : expanded;
	}
	if (compiled) return dirname(process.execPath);
	return packageRootAbove(dirname(fileURLToPath(import.meta.url)));
}

export const getReadmePath = (): string => resolve(getPackageDir(), "README.md");
export const getDocsPath = (): string => resolve(getPackageDir(), "docs");
export const getExamplesPath = (): string => resolve(getPackageDir(), "examples");
