/**
 * Refreshes the built-in image-generation model list (src/ai/images/catalog.json) from pi-ai's published
 * `dist/image-models.generated.js` in the runnable pi install of the conformance cache, in pi's order (the order
 * `getImageModels` lists them in).
 * Usage: bun scripts/gen-image-models.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureRunnablePi } from "./conformance-cache.ts";

const pi = ensureRunnablePi();
if ("error" in pi) {
	console.error(`gen-image-models: ${pi.error}`);
	process.exit(1);
}
const source = join(pi.modules, "@earendil-works", "pi-ai", "dist", "image-models.generated.js");
const { IMAGE_MODELS } = (await import(source)) as { IMAGE_MODELS: Record<string, Record<string, unknown>> };
const sorted = IMAGE_MODELS;
const target = join(import.meta.dir, "..", "src", "ai", "images", "catalog.json");
writeFileSync(target, `${JSON.stringify(sorted, null, "\t")}\n`);
console.log(
	`gen-image-models: ${Object.values(sorted).reduce((n, m) => n + Object.keys(m).length, 0)} models → ${target}`,
);
