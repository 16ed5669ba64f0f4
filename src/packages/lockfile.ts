/**
 * Reads an install tree's lockfile: Bun's text `bun.lock` (JSONC; `packages` maps an install path such as `top` or
 * `top/dep` to `["name@version", url, { dependencies, hasInstallScript, … }, integrity]`) or npm's
 * `package-lock.json` (v2/v3: `packages["node_modules/…"]` with `version`, `integrity`, `hasInstallScript`).
 */
import { join } from "node:path";
import { existsSync, readFileSync } from "../util/index.ts";

export interface LockEntry {
	/** Path below `node_modules` (`top`, `top/node_modules/dep` for npm, `top/dep` for Bun). */
	key: string;
	name: string;
	version: string;
	integrity?: string;
	dependencies: string[];
	hasInstallScript: boolean;
}

export const LOCKFILES = ["bun.lock", "package-lock.json"] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const depNames = (meta: Json): string[] =>
	["dependencies", "optionalDependencies"].flatMap((k) => (isObject(meta[k]) ? Object.keys(meta[k] as Json) : []));

function fromBunLock(text: string): LockEntry[] {
	const lock = Bun.JSONC.parse(text) as Json;
	const packages = isObject(lock.packages) ? lock.packages : {};
	const entries: LockEntry[] = [];
	for (const [key, value] of Object.entries(packages)) {
		if (!Array.isArray(value) || typeof value[0] !== "string") continue;
		const id = value[0] as string;
		const at = id.lastIndexOf("@");
		if (at <= 0) continue;
		const meta = value.find((v, i) => i > 0 && isObject(v)) as Json | undefined;
		const integrity = value.find((v, i) => i > 0 && typeof v === "string" && /^sha\d+-/.test(v)) as string | undefined;
		entries.push({
			key: key
				.split("/")
				.reduce<string[]>((parts, part) => {
					// `top/@scope/dep` → join scope segments back with their name
					if (parts.length > 0 && parts[parts.length - 1]?.startsWith("@") && !parts[parts.length - 1]?.includes("/")) {
						parts[parts.length - 1] = `${parts[parts.length - 1]}/${part}`;
					} else parts.push(part);
					return parts;
				}, [])
				.join("/node_modules/"),
			name: id.slice(0, at),
			version: id.slice(at + 1),
			...(integrity ? { integrity } : {}),
			dependencies: meta ? depNames(meta) : [],
			hasInstallScript: meta?.hasInstallScript === true,
		});
	}
	return entries;
}

function fromPackageLock(text: string): LockEntry[] {
	const lock = JSON.parse(text) as Json;
	const packages = isObject(lock.packages) ? lock.packages : {};
	const entries: LockEntry[] = [];
	for (const [path, value] of Object.entries(packages)) {
		if (!path.startsWith("node_modules/") || !isObject(value) || value.link === true) continue;
		const key = path.slice("node_modules/".length);
		const name = typeof value.name === "string" ? value.name : (key.split("node_modules/").pop() as string);
		entries.push({
			key,
			name,
			version: typeof value.version === "string" ? value.version : "",
			...(typeof value.integrity === "string" ? { integrity: value.integrity } : {}),
			dependencies: depNames(value),
			hasInstallScript: value.hasInstallScript === true,
		});
	}
	return entries;
}

/** The entries of the lockfile in `dir` (none when there is no lockfile or it cannot be read). */
export function readLockEntries(dir: string): LockEntry[] {
	try {
		if (existsSync(join(dir, "bun.lock"))) return fromBunLock(readFileSync(join(dir, "bun.lock"), "utf8"));
		if (existsSync(join(dir, "package-lock.json")))
			return fromPackageLock(readFileSync(join(dir, "package-lock.json"), "utf8"));
	} catch {
		// An unreadable lockfile records nothing; the install itself is what counts.
	}
	return [];
}
