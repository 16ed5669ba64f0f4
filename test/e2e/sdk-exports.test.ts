/**
 * Every runtime export of pi 0.87.1's packages exists in ours, as an extension sees it, with the same kind
 * (class, function, object, constant): `@earendil-works/pi-coding-agent`, `pi-ai` (which pi serves from its compat
 * entry, so ours must cover both the root and `/compat`), `pi-agent-core`, and `typebox` (TypeBox 1.x, with
 * `typebox/compile` and `typebox/value`), and `pi-tui` (the terminal UI toolkit).
 *
 * pi's names come from its runnable install in the conformance cache, imported under Node 22; ours from an
 * extension in the compiled binary that prints the keys of each import. Interactive components come with the
 * interactive-mode issues and are left out. Names that other work still has to bring are listed in `NOT_YET` with
 * who brings them: the test fails on a missing name that is not listed, and also on a listed name that has
 * arrived (so the table only shrinks). Without the cache (no registry) it skips, saying why.
 */
import { describe, expect, test } from "bun:test";
import { dirname } from "node:path";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import { runPi } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { NOT_YET } from "./sdk-exports-pending.ts";

type Kind = "class" | "function" | "object" | "constant";
type Surface = Record<string, Record<string, Kind>>;

/** What pi's extensions import, and the module of pi's install each one is (pi maps the pi-ai root to compat). */
const MODULES = {
	"@earendil-works/pi-coding-agent": "@earendil-works/pi-coding-agent",
	"@earendil-works/pi-agent-core": "@earendil-works/pi-agent-core",
	"@earendil-works/pi-ai": "@earendil-works/pi-ai",
	"@earendil-works/pi-ai/compat": "@earendil-works/pi-ai/compat",
	typebox: "typebox",
	"typebox/compile": "typebox/compile",
	"typebox/value": "typebox/value",
	"@earendil-works/pi-tui": "@earendil-works/pi-tui",
} as const;
type Specifier = keyof typeof MODULES;

/** Short names used in `NOT_YET` keys (`<package>:<name>`). */
const SHORT: Record<Specifier, string> = {
	"@earendil-works/pi-coding-agent": "pi-coding-agent",
	"@earendil-works/pi-agent-core": "pi-agent-core",
	"@earendil-works/pi-ai": "pi-ai",
	"@earendil-works/pi-ai/compat": "pi-ai/compat",
	typebox: "typebox",
	"typebox/compile": "typebox/compile",
	"typebox/value": "typebox/value",
	"@earendil-works/pi-tui": "pi-tui",
};

/** Interactive-mode components: another issue brings them. */
const INTERACTIVE = /Component$|^(InteractiveMode|Theme|BorderedLoader|CustomEditor|DynamicBorder|ArminComponent)$/;

const KIND_OF = `(v) => typeof v === "function"
	? (/^class[\\s{]/.test(Function.prototype.toString.call(v)) ? "class" : "function")
	: typeof v === "object" && v !== null ? "object" : "constant"`;

function describeSource(imports: string): string {
	const names = Object.keys(MODULES);
	return `${imports}
const kindOf = ${KIND_OF};
const describe = (ns) => Object.fromEntries(Object.keys(ns).sort().map((k) => [k, kindOf(ns[k])]));
const surface = () => ({ ${names.map((name, i) => `${JSON.stringify(name)}: describe(m${i})`).join(", ")} });`;
}

/** pi 0.87.1's surface, imported under Node 22 from its install; or why it cannot be. */
function piSurface(): Surface | { skip: string } {
	const pi = ensureRunnablePi();
	if ("error" in pi) return { skip: pi.error };
	const imports = Object.values(MODULES)
		.map((spec, i) => `import * as m${i} from ${JSON.stringify(spec)};`)
		.join("\n");
	const script = `${describeSource(imports)}\nconsole.log(JSON.stringify(surface()));`;
	const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
		cwd: dirname(pi.modules),
		stdout: "pipe",
		stderr: "pipe",
	});
	if (run.exitCode !== 0) throw new Error(`node could not import pi's packages: ${run.stderr.toString().trim()}`);
	return JSON.parse(run.stdout.toString()) as Surface;
}

/** Our surface as an extension in the compiled binary sees it. */
function ourSurface(): Surface {
	const home = makeTempDir("pi-exports-");
	const imports = Object.keys(MODULES)
		.map((spec, i) => `import * as m${i} from ${JSON.stringify(spec)};`)
		.join("\n");
	writeTree(home, {
		".pi/agent/extensions/exports.ts": `${describeSource(imports)}
export default function (pi) {
	pi.registerCommand("exports", { handler: async () => { console.log(JSON.stringify(surface())); } });
}
`,
	});
	const run = runPi(["-p", "/exports"], { home });
	expect(run.stderr).toBe("");
	expect(run.exitCode).toBe(0);
	return JSON.parse(run.stdout) as Surface;
}

describe("every runtime export of pi 0.87.1's packages, as extensions see them", () => {
	test("exists in ours with the same kind, except the names NOT_YET lists", () => {
		const theirs = piSurface();
		if ("skip" in theirs) {
			console.warn(`sdk exports: skipped: ${theirs.skip}`);
			return;
		}
		const ours = ourSurface();
		const problems: string[] = [];
		const seen = new Set<string>();
		for (const specifier of Object.keys(MODULES) as Specifier[]) {
			const names = Object.keys(theirs[specifier] ?? {}).filter((name) => !INTERACTIVE.test(name));
			let present = 0;
			for (const name of names) {
				const key = `${SHORT[specifier]}:${name}`;
				seen.add(key);
				const want = theirs[specifier]?.[name];
				const got = ours[specifier]?.[name];
				const pending = NOT_YET[key];
				if (got === want) present++;
				if (pending !== undefined) {
					if (got === want) problems.push(`${key} is here now (${got}): remove it from NOT_YET`);
				} else if (got === undefined) {
					problems.push(`${key} (${want}) is missing`);
				} else if (got !== want) {
					problems.push(`${key} is a ${got}, pi's is a ${want}`);
				}
			}
			console.log(
				`sdk exports: ${specifier}: ${present}/${names.length} present` +
					` (${names.length - present} pending in NOT_YET)`,
			);
		}
		for (const key of Object.keys(NOT_YET)) {
			if (!seen.has(key)) problems.push(`NOT_YET lists ${key}, which pi 0.87.1 does not export (or is excluded)`);
		}
		expect(problems).toEqual([]);
	}, 120_000);
});
