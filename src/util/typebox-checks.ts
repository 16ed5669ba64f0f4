/**
 * TypeBox's checking half (`Check`, `Convert`, `Errors`, `TypeCompiler`), loaded on first use. Building its modules
 * costs milliseconds at start-up, and a run whose inputs all pass precompiled validators never needs it. `require`
 * rather than `import()` because callers are synchronous; the bundler gives the module its own chunk inside the
 * binary and still resolves TypeBox's ES build, so there is one TypeBox, one format and type registry.
 */
import type * as Checks from "./typebox-checks-impl.ts";

let loaded: typeof Checks | undefined;

export function typeboxChecks(): typeof Checks {
	loaded ??= require("./typebox-checks-impl.ts") as typeof Checks;
	return loaded;
}
