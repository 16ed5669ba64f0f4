/**
 * `pi-ai/providers/all` as extensions import it: the catalogue reads under pi 0.87.1's `getBuiltin*` names, and
 * `getBuiltinModelDataGeneratedAt()` giving the same instant as pi-ai's (both read the same published data).
 */
import { expect, test } from "bun:test";
import { dirname } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import * as all from "../../../src/sdk/pi-ai-providers-all.ts";

test("the built-in catalogue reads answer from our catalogue", () => {
	expect(all.getBuiltinProviders()).toContain("anthropic");
	const [first] = all.getBuiltinModels("anthropic");
	expect(first?.provider).toBe("anthropic");
	expect(all.getBuiltinModel("anthropic", first?.id ?? "")).toBe(first);
	expect(all.getBuiltinModels("no-such-provider")).toEqual([]);
	const at = all.getBuiltinModelDataGeneratedAt();
	expect(typeof at).toBe("number");
	expect(Number.isInteger(at)).toBe(true);
});

test("getBuiltinModelDataGeneratedAt is pi-ai 0.87.1's", () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		console.warn(`providers/all side by side: skipped, pi 0.87.1 unavailable: ${pi.error}`);
		return;
	}
	const script = `import * as m from "@earendil-works/pi-ai/providers/all";
console.log(JSON.stringify(m.getBuiltinModelDataGeneratedAt() ?? null));`;
	const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
		cwd: dirname(pi.modules),
		stdout: "pipe",
		stderr: "pipe",
	});
	expect(run.stderr.toString()).toBe("");
	expect(all.getBuiltinModelDataGeneratedAt()).toBe(JSON.parse(run.stdout.toString()));
});
