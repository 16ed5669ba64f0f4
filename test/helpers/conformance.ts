/**
 * Reading a pi release's example extensions for the conformance tests: the examples (files and folders), their
 * entry files, the bare modules those entries reach through relative imports, and the npm dependencies a folder's
 * package.json declares.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";

export interface ExampleUnit {
	/** File or folder name under examples/extensions. */
	name: string;
	path: string;
}

export function exampleUnits(dir: string): ExampleUnit[] {
	return readdirSync(dir)
		.filter((name) => name.endsWith(".ts") || statSync(join(dir, name)).isDirectory())
		.sort()
		.map((name) => ({ name, path: join(dir, name) }));
}

function readManifest(dir: string): Record<string, unknown> | undefined {
	const path = join(dir, "package.json");
	return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>) : undefined;
}

/** Names in a folder's package.json `dependencies` (not dev or peer ones). */
export function npmDependencies(unitPath: string): string[] {
	if (!statSync(unitPath).isDirectory()) return [];
	const deps = readManifest(unitPath)?.dependencies;
	return deps && typeof deps === "object" ? Object.keys(deps) : [];
}

/** What pi loads for a unit: the file itself, a folder's package.json `pi.extensions`, or its index file. */
export function entryFiles(unitPath: string): string[] {
	if (!statSync(unitPath).isDirectory()) return [unitPath];
	const listed = (readManifest(unitPath)?.pi as { extensions?: string[] } | undefined)?.extensions;
	if (listed?.length) return listed.map((rel) => resolve(unitPath, rel));
	return ["index.ts", "index.js"].map((name) => join(unitPath, name)).filter((path) => existsSync(path));
}

const IMPORT_RE =
	/(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|\brequire\(\s*["']([^"']+)["']\s*\)/g;

function stripComments(source: string): string {
	return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

function resolveLocal(from: string, spec: string): string | undefined {
	const base = resolve(dirname(from), spec);
	const candidates = [base, base.replace(/\.js$/, ".ts"), `${base}.ts`, `${base}.js`, join(base, "index.ts")];
	return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Bare specifiers (not relative, not `node:`) imported by `entries` and every local file they import. */
export function bareImports(entries: string[]): Set<string> {
	const bare = new Set<string>();
	const seen = new Set<string>();
	const queue = [...entries];
	for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
		if (seen.has(file) || !/\.[cm]?[jt]sx?$/.test(file)) continue;
		seen.add(file);
		for (const match of stripComments(readFileSync(file, "utf8")).matchAll(IMPORT_RE)) {
			const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
			if (!spec || spec.startsWith("node:")) continue;
			if (spec.startsWith(".")) {
				const local = resolveLocal(file, spec);
				if (local) queue.push(local);
			} else bare.add(spec);
		}
	}
	return bare;
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageName(specifier: string): string {
	const parts = specifier.split("/");
	return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
}

export function isNodeBuiltin(specifier: string): boolean {
	return builtinModules.includes(specifier) || builtinModules.includes(packageName(specifier));
}
