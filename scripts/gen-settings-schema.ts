/**
 * Writes docs/settings.schema.json from the TypeBox settings schema (src/config/settings-schema.ts), for editor
 * validation and completion of settings.json. With `--check`, writes nothing and exits 1 when the file is stale.
 * Usage: bun scripts/gen-settings-schema.ts [--check]
 */
import { join } from "node:path";
import { renderSettingsJsonSchema } from "../src/config/index.ts";
import { writeOrCheck } from "./generated-file.ts";

const target = join(import.meta.dir, "..", "docs", "settings.schema.json");
writeOrCheck("settings schema", target, renderSettingsJsonSchema(), "bun scripts/gen-settings-schema.ts");
