/**
 * Every module pi 0.87.1 provides to extensions, and every runtime export of each, exists in ours as an extension
 * sees it, with the same kind (class, function, object, constant).
 *
 * The list of modules is pi's own: the table its extension loader serves (`VIRTUAL_MODULES` of pi's install), so
 * both package scopes (`@earendil-works/`, `@mariozechner/`), pi-ai's subpaths (`/compat` — which pi also serves
 * for the pi-ai root —, `/oauth`, `/providers/all`), `typebox` (TypeBox 1.x with `/compile`, `/value`) and the
 * `@sinclair/typebox` aliases are all covered, and a specifier pi adds is a failure here until ours provides it.
 *
 * pi's names come from its runnable install in the conformance cache, imported under Node 22; ours from an
 * extension in the compiled binary that prints the keys of each import. Names that other work still has to bring
 * are listed in `NOT_YET` with who brings them, and modules that differ on purpose in `DIVERGENT` with the reason:
 * the test fails on a missing name that is not listed, and also on a listed name that has arrived (so the tables
 * only shrink). Without the cache (no registry) it skips, saying why.
 */
import { describe, expect, test } from "bun:test";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import { VIRTUAL_SPECIFIERS } from "../../src/sdk/virtual-modules.ts";
import { runPi } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { DIVERGENT, NOT_YET } from "./sdk-exports-pending.ts";

type Kind = "class" | "function" | "object" | "constant";
type Surface = Record<string, Record<string, Kind>>;
/** pi's modules, and for each specifier the first one in pi's table that serves the same module object. */
interface PiTable {
	modules: Surface;
	canonical: Record<string, string>;
}

/**
 * The key of a name in `NOT_YET`: `<module>:<name>`, the module being the first specifier of pi's table that serves
 * the same module object (so both scopes, and pi-ai's root and `/compat`, share one key), without its pi scope.
 */
const keyOf = (table: PiTable, specifier: string, name: string) =>
	`${(table.canonical[specifier] ?? specifier).replace(/^@(earendil-works|mariozechner)\//, "")}:${name}`;

const KIND_OF = `(v) => typeof v === "function"
	? (/^class[\\s{]/.test(Function.prototype.toString.call(v)) ? "class" : "function")
	: typeof v === "object" && v !== null ? "object" : "constant"`;
const DESCRIBE = `const kindOf = ${KIND_OF};
const describe = (ns) => Object.fromEntries(Object.keys(ns).sort().map((k) => [k, kindOf(ns[k])]));`;

/** pi 0.87.1's extension-facing modules, imported under Node 22 from its install; or why it cannot be. */
function piSurface(): PiTable | { skip: string } {
	const pi = ensureRunnablePi();
	if ("error" in pi) return { skip: pi.error };
	const table = join(pi.modules, "@earendil-works/pi-coding-agent/dist/core/extensions/virtual-modules.js");
	const script = `${DESCRIBE}
const { VIRTUAL_MODULES } = await import(${JSON.stringify(pathToFileURL(table).href)});
const entries = Object.entries(VIRTUAL_MODULES);
const modules = Object.fromEntries(entries.map(([s, ns]) => [s, describe(ns)]));
const canonical = Object.fromEntries(entries.map(([s, ns]) => [s, entries.find(([, other]) => other === ns)[0]]));
console.log(JSON.stringify({ modules, canonical }));`;
	const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
		cwd: dirname(pi.modules),
		stdout: "pipe",
		stderr: "pipe",
	});
	if (run.exitCode !== 0) throw new Error(`node could not import pi's modules: ${run.stderr.toString().trim()}`);
	return JSON.parse(run.stdout.toString()) as PiTable;
}

/** Our surface for `specifiers`, as an extension in the compiled binary sees it. */
function ourSurface(specifiers: readonly string[]): Surface {
	const home = makeTempDir("pi-exports-");
	const imports = specifiers.map((spec, i) => `import * as m${i} from ${JSON.stringify(spec)};`).join("\n");
	const entries = specifiers.map((spec, i) => `${JSON.stringify(spec)}: describe(m${i})`).join(", ");
	writeTree(home, {
		".pi/agent/extensions/exports.ts": `${imports}
${DESCRIBE}
export default function (pi) {
	pi.registerCommand("exports", { handler: async () => { console.log(JSON.stringify({ ${entries} })); } });
}
`,
	});
	const run = runPi(["-p", "/exports"], { home });
	expect(run.stderr).toBe("");
	expect(run.exitCode).toBe(0);
	return JSON.parse(run.stdout) as Surface;
}

describe("every module and runtime export pi 0.87.1 gives extensions", () => {
	test("exists in ours with the same kind, except the names NOT_YET and the modules DIVERGENT list", () => {
		const table = piSurface();
		if ("skip" in table) {
			console.warn(`sdk exports: skipped: ${table.skip}`);
			return;
		}
		const theirs = table.modules;
		const problems = new Set<string>();
		const provided = new Set(VIRTUAL_SPECIFIERS);
		const compared = Object.keys(theirs).filter((specifier) => {
			if (!provided.has(specifier)) problems.add(`${specifier}: pi provides this module to extensions, ours does not`);
			if (DIVERGENT[specifier] !== undefined) {
				console.log(`sdk exports: ${specifier}: not compared: ${DIVERGENT[specifier]}`);
				return false;
			}
			return provided.has(specifier);
		});
		const ours = ourSurface(compared);
		const seen = new Set<string>();
		for (const specifier of compared) {
			const names = Object.keys(theirs[specifier] ?? {});
			let present = 0;
			for (const name of names) {
				const key = keyOf(table, specifier, name);
				seen.add(key);
				const want = theirs[specifier]?.[name];
				const got = ours[specifier]?.[name];
				if (got === want) present++;
				if (NOT_YET[key] !== undefined) {
					if (got === want) problems.add(`${key} is here now in ${specifier}: remove it from NOT_YET`);
				} else if (got === undefined) {
					problems.add(`${key} (${want}) is missing from ${specifier}`);
				} else if (got !== want) {
					problems.add(`${key} is a ${got} in ${specifier}, pi's is a ${want}`);
				}
			}
			console.log(`sdk exports: ${specifier}: ${present}/${names.length} present (the rest in NOT_YET)`);
		}
		for (const key of Object.keys(NOT_YET)) {
			if (!seen.has(key)) problems.add(`NOT_YET lists ${key}, which pi 0.87.1 does not export to extensions`);
		}
		for (const specifier of Object.keys(DIVERGENT)) {
			if (!(specifier in theirs)) problems.add(`DIVERGENT lists ${specifier}, which pi 0.87.1 does not provide`);
		}
		expect([...problems]).toEqual([]);
	}, 120_000);
});
