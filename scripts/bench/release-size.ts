/**
 * A release's size against pi's: for every target in a release folder's manifest.json, our binary and archive
 * beside pi 0.87.1's release archive rebuilt from its npm package on the same pinned Bun runtime
 * (scripts/release/pi-reference.ts, cached under .cache/pi-reference/). Exits 1 when any of our archives is larger.
 * Usage: bun scripts/bench/release-size.ts [release dir, default dist/release]
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { piReference } from "../release/pi-reference.ts";
import { runtimeFor } from "../release/runtimes.ts";
import { compareSize, type SizeRow, sizeTable } from "../release/size-report.ts";
import { TARGETS } from "../release/targets.ts";

interface Manifest {
	targets: Record<string, { size: number; binarySize: number }>;
}

const dir = resolve(process.argv[2] ?? join(import.meta.dir, "..", "..", "dist", "release"));
try {
	const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
	const rows: SizeRow[] = [];
	for (const [name, entry] of Object.entries(manifest.targets)) {
		const target = TARGETS.find((t) => t.name === name);
		if (!target) throw new Error(`manifest.json: unknown target ${name}`);
		const pi = piReference(target, runtimeFor(target));
		rows.push(compareSize({ target: name, binarySize: entry.binarySize, archiveSize: entry.size }, pi));
	}
	for (const line of sizeTable(rows)) console.log(line);
	if (rows.some((r) => !r.ok)) process.exit(1);
} catch (error) {
	console.error(`release-size: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
}
