/**
 * `--models a,b:high,c`: the models a session cycles through (RPC `cycle_model`) and that extensions see as
 * `ctx.scopedModels`, in the order given, each with the thinking level its pattern names. A pattern that matches
 * nothing is a one-line warning, not an error.
 */
import type { ModelRegistry } from "../ai/index.ts";
import type { ScopedModel } from "../extensions/index.ts";
import { resolveModel } from "../runtime/index.ts";

export function resolveScopedModels(
	spec: string | undefined,
	registry: ModelRegistry,
	warn: (line: string) => void,
): ScopedModel[] {
	if (!spec) return [];
	const out: ScopedModel[] = [];
	for (const pattern of spec.split(",").map((p) => p.trim())) {
		if (!pattern) continue;
		const found = resolveModel(registry, { model: pattern });
		if (!found.ok) warn(`Warning: --models: ${found.error}`);
		else if (!out.some((scoped) => scoped.model === found.model)) {
			out.push({ model: found.model, ...(found.thinking ? { thinkingLevel: found.thinking } : {}) });
		}
	}
	return out;
}
