/**
 * TypeBox (`Type`, `Check`, `Convert`, `Errors`, `TypeCompiler`), loaded on first use. Building its modules costs
 * milliseconds at start-up, and a run that only reads schemas kept as literals and checks inputs with precompiled
 * validators never needs it. `require` rather than `import()` because callers are synchronous; the bundler gives
 * the module its own chunk inside the binary and still resolves TypeBox's ES build, so there is one TypeBox, one
 * format and type registry.
 */
import type { Kind as KindSymbol } from "@sinclair/typebox";
import type * as TypeBox from "./typebox-impl.ts";

let loaded: typeof TypeBox | undefined;

export function typebox(): typeof TypeBox {
	loaded ??= require("./typebox-impl.ts") as typeof TypeBox;
	return loaded;
}

/** TypeBox's `Kind` key (a registered symbol), for reading a schema's kind without loading TypeBox. */
export const Kind: typeof KindSymbol = Symbol.for("TypeBox.Kind") as typeof KindSymbol;
