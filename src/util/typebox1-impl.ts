/**
 * TypeBox 1.x (the npm package `typebox`), gathered so `typebox1()` can load it on first use. Import only from
 * there. The files are named by path, not as `typebox`: once extensions are loaded, the bare specifier `typebox`
 * is a virtual module that resolves to this very namespace, and the host must not import itself through it.
 */

import * as compile from "../../node_modules/typebox/build/compile/index.mjs";
import * as root from "../../node_modules/typebox/build/index.mjs";
import * as value from "../../node_modules/typebox/build/value/index.mjs";

export { compile, root, value };
