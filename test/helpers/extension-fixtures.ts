/**
 * Extension sources that exercise every loader feature. Each factory records what it saw into
 * `globalThis.__piProbe` (in-process tests) and, through its `/probe-<name>` command, prints it (binary tests).
 */
import { join } from "node:path";
import { writeTree } from "./tmp.ts";

/** Writes the feature extensions into `dir` (an extensions folder). Returns the names of the probes. */
export function writeFeatureExtensions(dir: string): string[] {
	writeTree(dir, {
		// import type, `.js` specifier pointing at a `.ts` file, virtual modules of both scopes and typebox.
		"features.ts": `
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { VERSION } from "@mariozechner/pi-coding-agent";
import { getAgentDir } from "@earendil-works/pi-coding-agent";
import { Type, type Static } from "@sinclair/typebox";
import { Type as Type2 } from "typebox";
import { Value } from "@sinclair/typebox/value";
import { Compile } from "typebox/compile";
import { StringEnum } from "@earendil-works/pi-ai";
import { helper } from "./lib/helper.js";
const schema = Type.Object({ n: Type.Number() });
type S = Static<typeof schema>;
export default function (pi: ExtensionAPI) {
	const s: S = { n: 1 };
	report(pi, "features", {
		version: typeof VERSION,
		agentDir: typeof getAgentDir(),
		typebox: Value.Check(schema, s) && Type2.String().type === "string",
		compile: Compile(schema).Check({ n: 2 }),
		stringEnum: StringEnum(["a", "b"]).enum.join("|"),
		helper: helper(),
	});
}
${REPORT}`,
		"lib/helper.ts": `export const helper = () => "helped";\n`,
		// require() inside ESM, createRequire, builtins with and without node:, import.meta.url.
		"node-features.ts": `
import { createRequire } from "node:module";
import path from "path";
import { fileURLToPath } from "node:url";
import * as fs from "fs";
const req = createRequire(import.meta.url);
const cp = require("child_process");
export default async function (pi) {
	await new Promise((r) => setTimeout(r, 1));
	report(pi, "node", {
		require: typeof cp.spawn,
		createRequire: typeof req("node:os").platform,
		builtins: typeof path.join === "function" && typeof fs.readFileSync === "function",
		metaUrl: path.basename(fileURLToPath(import.meta.url)),
	});
}
${REPORT}`,
		// A folder extension with its own package.json, node_modules dependency, and its own (ignored) typebox copy.
		"with-deps/package.json": JSON.stringify({
			name: "with-deps",
			type: "module",
			dependencies: { ms: "^2.1.3" },
			pi: { extensions: ["./src/index.ts"] },
		}),
		"with-deps/src/index.ts": `
import ms from "ms";
import { Type } from "@sinclair/typebox";
export default function (pi) {
	report(pi, "deps", { ms: ms(60000), typebox: (Type as any).FAKE ?? "host" });
}
${REPORT}`,
		"with-deps/node_modules/ms/package.json": JSON.stringify({ name: "ms", version: "2.1.3", main: "./lib/ms.js" }),
		"with-deps/node_modules/ms/lib/ms.js": `module.exports = function (n) { return n / 60000 + "m"; };\n`,
		"with-deps/node_modules/@sinclair/typebox/package.json": JSON.stringify({
			name: "@sinclair/typebox",
			main: "i.js",
		}),
		"with-deps/node_modules/@sinclair/typebox/i.js": `exports.Type = { FAKE: "own copy" };\n`,
		// A folder extension found through its index.ts.
		"indexed/index.ts": `export default function (pi) { report(pi, "indexed", { ok: true }); }\n${REPORT}`,
	});
	return ["features", "node", "deps", "indexed"];
}

/** Each probe stores its result globally and registers `/probe-<name>` that prints it as JSON. */
const REPORT = `
function report(pi, name, data) {
	(globalThis.__piProbe ??= {})[name] = data;
	pi.registerCommand("probe-" + name, { handler: async () => { console.log(JSON.stringify({ [name]: data })); } });
}`;

/** What each probe must report when the loader works. */
export const EXPECTED_PROBES = {
	features: {
		version: "string",
		agentDir: "string",
		typebox: true,
		compile: true,
		stringEnum: "a|b",
		helper: "helped",
	},
	node: { require: "function", createRequire: "function", builtins: true, metaUrl: "node-features.ts" },
	deps: { ms: "1m", typebox: "host" },
	indexed: { ok: true },
};

/** Extensions that fail in each way the loader must survive. Keys are file names. */
export const BAD_EXTENSIONS: Record<string, { source: string; reason: string }> = {
	"bad-syntax.ts": { source: "export default function (pi) { const x = ; }\n", reason: "failed to load: Unexpected ;" },
	"bad-import.ts": {
		source: `import thing from "no-such-package-xyz";\nexport default function (pi) { thing(); }\n`,
		reason: "failed to load: Cannot find package 'no-such-package-xyz'",
	},
	"bad-throws.ts": {
		source: `export default function (pi) { throw new Error("factory exploded"); }\n`,
		reason: "factory threw: factory exploded",
	},
	"bad-default.ts": {
		source: "export default { notAFunction: true };\n",
		reason: "default export is an object, not a factory",
	},
	"bad-no-default.ts": { source: "export const x = 1;\n", reason: "has no default export" },
};

export function writeBadExtensions(dir: string): void {
	writeTree(dir, Object.fromEntries(Object.entries(BAD_EXTENSIONS).map(([name, { source }]) => [name, source])));
}

export const fixturePath = (dir: string, name: string) => join(dir, name);
