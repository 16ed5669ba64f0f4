/**
 * Writes a generated file, or with `--check` only compares: exits 1 with a one-line message naming the file and
 * the command that regenerates it when the file on disk differs.
 */
import { readFileSync, writeFileSync } from "node:fs";

export function writeOrCheck(label: string, target: string, text: string, regenerate: string): void {
	if (!process.argv.includes("--check")) {
		writeFileSync(target, text);
		console.log(`${label}: wrote ${target}`);
		return;
	}
	let current = "";
	try {
		current = readFileSync(target, "utf8");
	} catch {
		// A missing file is simply out of date.
	}
	if (current !== text) {
		console.error(`${label}: ${target} is out of date; run ${regenerate}`);
		process.exit(1);
	}
	console.log(`${label}: up to date`);
}
