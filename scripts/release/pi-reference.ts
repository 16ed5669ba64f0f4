/**
 * pi 0.87.1's own release archive for a target, rebuilt from its published npm package: pi's release downloads are
 * not reachable from here, but its package.json says how they are made (`build:binary`, `copy-binary-assets`).
 * The binary is `bun build --compile --no-compile-autoload-bunfig` of the package's `dist/bun/cli.js` (the compiled
 * `src/bun/cli.ts`) with the image-resize worker as a second entry, onto the same pinned Bun runtime our release
 * uses; the archive holds it with package.json, README.md, CHANGELOG.md, `theme/*.json`, `assets/*.png`,
 * `export-html/` (template and vendor scripts), `docs/`, `examples/` and photon's wasm, written by our own
 * archiver in the format our release uses for that platform (tar.gz, zip for Windows). The result is cached under
 * `.cache/pi-reference/` per pi version, Bun version and target.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ensureRunnablePi, PI_RUNNABLE } from "../conformance-cache.ts";
import { type ArchiveEntry, tarGz, zip } from "./archive.ts";
import { bunVersion } from "./runtimes.ts";
import { archiveName, executableName, type ReleaseTarget } from "./targets.ts";

const root = join(import.meta.dir, "..", "..");
const CACHE = join(root, ".cache", "pi-reference");
const PI_VERSION = PI_RUNNABLE.slice(PI_RUNNABLE.lastIndexOf("@") + 1);
/** Any fixed date: the archive's bytes must not depend on when it was rebuilt. */
const MTIME = 1_700_000_000;

export interface PiReference {
	target: string;
	piVersion: string;
	binarySize: number;
	archiveSize: number;
	/** The rebuilt archive (in the cache). */
	archive: string;
}

/** Where pi's installed package is (with its dependencies), installing it from the npm registry on first use. */
export function piPackage(options: { install?: boolean } = {}): { dir: string; modules: string } | { error: string } {
	const modules = join(root, ".cache", "conformance", `run-${PI_VERSION}`, "node_modules");
	const dir = join(modules, "@earendil-works", "pi-coding-agent");
	if (existsSync(join(dir, "dist", "bun", "cli.js"))) return { dir, modules };
	if (!options.install) return { error: `pi ${PI_VERSION} is not installed under ${relative(root, modules)}` };
	const installed = ensureRunnablePi();
	if ("error" in installed) return installed;
	return existsSync(join(dir, "dist", "bun", "cli.js"))
		? { dir, modules }
		: { error: `pi ${PI_VERSION}'s package has no dist/bun/cli.js` };
}

function filesUnder(dir: string, into: string, mode = 0o644): ArchiveEntry[] {
	const out: ArchiveEntry[] = [];
	const walk = (folder: string) => {
		for (const name of readdirSync(folder).sort()) {
			const path = join(folder, name);
			if (statSync(path).isDirectory()) walk(path);
			else out.push({ name: `${into}/${relative(dir, path)}`, data: readFileSync(path), mode });
		}
	};
	walk(dir);
	return out;
}

function matching(dir: string, into: string, suffix: string): ArchiveEntry[] {
	return readdirSync(dir)
		.filter((name) => name.endsWith(suffix))
		.sort()
		.map((name) => ({ name: `${into}/${name}`, data: readFileSync(join(dir, name)), mode: 0o644 }));
}

/** The files pi ships next to its binary, named as in its release archive. */
function assets(pkg: string, modules: string): ArchiveEntry[] {
	const file = (name: string, from: string): ArchiveEntry => ({ name, data: readFileSync(from), mode: 0o644 });
	const html = join(pkg, "dist", "core", "export-html");
	return [
		file("package.json", join(pkg, "package.json")),
		file("README.md", join(pkg, "README.md")),
		file("CHANGELOG.md", join(pkg, "CHANGELOG.md")),
		...matching(join(pkg, "dist", "modes", "interactive", "theme"), "theme", ".json"),
		...matching(join(pkg, "dist", "modes", "interactive", "assets"), "assets", ".png"),
		file("export-html/template.html", join(html, "template.html")),
		...matching(join(html, "vendor"), "export-html/vendor", ".js"),
		...filesUnder(join(pkg, "docs"), "docs"),
		...filesUnder(join(pkg, "examples"), "examples"),
		file("photon_rs_bg.wasm", join(modules, "@silvia-odwyer", "photon-node", "photon_rs_bg.wasm")),
	];
}

/** Compiles pi's CLI for `target` onto `runtime` (none: this Bun, when the target is the host's). */
function compilePi(pkg: string, target: ReleaseTarget, runtime: string | undefined, outfile: string): void {
	const proc = Bun.spawnSync(
		[
			process.execPath,
			"build",
			"--compile",
			"--no-compile-autoload-bunfig",
			`--target=${target.bunTarget}`,
			...(runtime ? [`--compile-executable-path=${runtime}`] : []),
			join(pkg, "dist", "bun", "cli.js"),
			join(pkg, "dist", "utils", "image-resize-worker.js"),
			"--outfile",
			outfile,
		],
		{ cwd: pkg, stdout: "pipe", stderr: "pipe" },
	);
	if (proc.exitCode !== 0) {
		const said = (proc.stderr.toString() || proc.stdout.toString()).trim().split("\n").slice(-3).join(" ");
		throw new Error(`pi ${PI_VERSION} for ${target.name}: bun build --compile failed: ${said}`);
	}
}

/** pi's release archive for `target`, rebuilt once and cached. `runtime` is the target's Bun runtime. */
export function piReference(target: ReleaseTarget, runtime: string | undefined): PiReference {
	const dir = join(CACHE, `${PI_VERSION}-bun${bunVersion()}`, target.name);
	const facts = join(dir, "reference.json");
	if (existsSync(facts)) {
		const cached = JSON.parse(readFileSync(facts, "utf8")) as PiReference;
		if (existsSync(cached.archive) && statSync(cached.archive).size === cached.archiveSize) return cached;
	}
	const found = piPackage({ install: true });
	if ("error" in found) throw new Error(`pi's reference archive: ${found.error}`);
	const work = join(tmpdir(), `pi-reference-${process.pid}-${target.name}`);
	try {
		const binaryPath = join(work, executableName(target));
		mkdirSync(work, { recursive: true });
		compilePi(found.dir, target, runtime, binaryPath);
		const binary = readFileSync(binaryPath);
		const entries: ArchiveEntry[] = [
			{ name: executableName(target), data: binary, mode: 0o755 },
			...assets(found.dir, found.modules),
		];
		const archive = target.os === "windows" ? zip(entries, MTIME) : tarGz(entries, MTIME);
		mkdirSync(dir, { recursive: true });
		const archivePath = join(dir, archiveName(target));
		writeFileSync(archivePath, archive);
		const reference: PiReference = {
			target: target.name,
			piVersion: PI_VERSION,
			binarySize: binary.length,
			archiveSize: archive.length,
			archive: archivePath,
		};
		writeFileSync(facts, `${JSON.stringify(reference, null, "\t")}\n`);
		return reference;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
