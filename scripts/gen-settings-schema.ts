/**
 * Writes docs/settings.schema.json from the TypeBox settings schema (src/config/settings-schema.ts), for editor
 * validation and completion of settings.json. With `--check`, writes nothing and exits 1 when the file is stale.
 * Usage: bun scripts/gen-settings-schema.ts [--check]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderSettingsJsonSchema } from "../src/config/index.ts";

const target = join(import.meta.dir, "..", "docs", "settings.schema.json");
const text = renderSettingsJsonSchema();

if (process.argv.includes("--check")) {
	let current = "";
	try {
		current = readFileSync(target, "utf8");
	} catch {
		// A missing file is simply out of date.
	}
	if (current !== text) {
		console.error("settings schema: docs/settings.schema.json is out of date; run bun scripts/gen-settings-schema.ts");
		process.exit(1);
	}
	console.log("settings schema: up to date");
} else {
	writeFileSync(target, text);
	console.log(`settings schema: wrote ${target}`);
}
