/**
 * Fetches the pinned pi releases whose example extensions are our conformance corpus into the git-ignored
 * `.cache/conformance/<package>@<version>/package` (npm pack + tar), reusing what is already there.
 * Usage: bun scripts/conformance-cache.ts  — prints one line per release: `<dir>` or `unavailable: <reason>`.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const PINNED = [
	"@earendil-works/pi-coding-agent@0.87.1",
	"@mariozechner/pi-coding-agent@0.73.1",
	"@mariozechner/pi-coding-agent@0.58.4",
] as const;

const root = join(import.meta.dir, "..", ".cache", "conformance");

/** The unpacked package folder of `spec`, or an error message. */
export function ensurePackage(spec: string): { dir: string } | { error: string } {
	const target = join(root, spec.replace(/\//g, "__"));
	const pkg = join(target, "package");
	if (existsSync(join(pkg, "package.json"))) return { dir: pkg };
	mkdirSync(target, { recursive: true });
	const pack = Bun.spawnSync(["npm", "pack", spec, "--silent", "--pack-destination", target], {
		stdout: "pipe",
		stderr: "pipe",
	});
	if (pack.exitCode !== 0)
		return { error: `npm pack ${spec} failed: ${pack.stderr.toString().trim().split("\n").at(-1)}` };
	const tarball = readdirSync(target).find((f) => f.endsWith(".tgz"));
	if (!tarball) return { error: `npm pack ${spec} wrote no tarball` };
	const untar = Bun.spawnSync(["tar", "xzf", join(target, tarball), "-C", target]);
	if (untar.exitCode !== 0) return { error: `tar failed for ${tarball}` };
	return { dir: pkg };
}

if (import.meta.main) {
	for (const spec of PINNED) {
		const result = ensurePackage(spec);
		console.log("dir" in result ? `${spec}: ${result.dir}` : `${spec}: unavailable: ${result.error}`);
	}
}
